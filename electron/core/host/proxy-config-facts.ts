/**
 * The running proxy's listeners and default upstreams for a user who cannot read root's 0700
 * saved state: from its engine's config (0644 under /etc/k2s, read once as proxy-kube-dns.ts
 * proxyConfigText reads it), parsed by shared/proxy-config-facts.ts.
 */
import type { EngineName } from '../../../shared/engines/table';
import { dnsmasqConfigFacts, dnsproxyConfigFacts, type ProxyConfigFacts } from '../../../shared/proxy-config-facts';
import { engineRuntime } from '../engines/table';

/**
 * What `engine`'s config text `read` names (proxyConfigText's; null: none read), with the
 * config's path (`file`); null when nothing was read, the read was cut at its bound (its facts
 * could be partial), or the text is no config of the engine's. Pure over its input.
 */
export function proxyConfigFacts(engine: EngineName, read: { text: string; cut: boolean } | null): (ProxyConfigFacts & { file: string }) | null {
  if (read === null || read.cut) return null;
  const facts = engine === 'adguard' ? dnsproxyConfigFacts(read.text) : dnsmasqConfigFacts(read.text);
  return facts && { ...facts, file: engineRuntime(engine).configPath };
}
