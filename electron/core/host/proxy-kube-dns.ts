/**
 * The kube-dns address the running proxy sends the cluster zones to, from its engine's config
 * (electron/core/lifecycle/proxy-config.ts writes it 0644 under /etc/k2s): what status shows a
 * user who cannot read root's saved state, instead of K2s's default address.
 */
import type { EngineName } from '../../../shared/engines/table';
import { engineRuntime } from '../engines/table';
import type { HostFs } from './host-fs';

/**
 * Bytes of the config read at most: a plan's largest (1,000 zones, shared/corefile.ts
 * MAX_ZONES_PER_PLAN, each with a reason comment) puts its first zone line well inside it.
 */
export const CONFIG_READ_MAX_BYTES = 1024 * 1024;

/**
 * `engine`'s config's kube-dns address (`IP` or `IP:PORT`, EngineRuntime.zoneServer), or null
 * when the file is missing, unreadable or names none. A read cut at CONFIG_READ_MAX_BYTES drops
 * its last, partial line (a cut `server=/…/172.21.0.1` must not read as an address). Never throws.
 */
export async function proxyConfigKubeDns(fs: HostFs, engine: EngineName): Promise<string | null> {
  const read = await proxyConfigText(fs, engine);
  return read === null ? null : engineRuntime(engine).zoneServer(read.text);
}

/**
 * `engine`'s config text, read once with CONFIG_READ_MAX_BYTES at most (the HostFs read other
 * readers of it use): `cut` when the read reached that bound, its last, partial line then
 * dropped. Null when the file is missing or unreadable. Never throws.
 */
export async function proxyConfigText(fs: HostFs, engine: EngineName): Promise<{ text: string; cut: boolean } | null> {
  const bytes = await fs.readFile(engineRuntime(engine).configPath, { maxBytes: CONFIG_READ_MAX_BYTES }).catch(() => null);
  if (bytes === null) return null;
  const text = bytes.toString('utf8');
  const cut = bytes.length >= CONFIG_READ_MAX_BYTES;
  return { text: cut ? text.slice(0, text.lastIndexOf('\n') + 1) : text, cut };
}
