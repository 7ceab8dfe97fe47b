import type { HostFs } from '../host/host-fs';
import type { EngineName } from '../../../shared/types';
import { K2S_DEFAULTS } from '../../../shared/k2s-paths';
import { refused } from './errors';

/** The chosen proxy engine and its binary (host path). */
export interface EngineChoice {
  engine: EngineName;
  binary: string;
}

/** Default Debian dnsmasq-base binary. */
export const DEFAULT_DNSMASQ = '/usr/sbin/dnsmasq';

async function isExecutableFile(fs: HostFs, path: string): Promise<boolean> {
  const st = await fs.stat(path);
  return st !== null && st.kind === 'file' && (st.mode & 0o111) !== 0;
}

/**
 * Picks the engine: an explicit engine must have its binary; without one, adguard
 * when the pinned dnsproxy exists, else dnsmasq, else refused NO_ENGINE naming both paths.
 */
export async function chooseEngine(
  fs: HostFs,
  opts: { engine?: EngineName; dnsproxyPath?: string; dnsmasqPath?: string; installDir?: string },
): Promise<EngineChoice> {
  const adguard = opts.dnsproxyPath ?? `${opts.installDir ?? K2S_DEFAULTS.installDir}/bin/dnsproxy`;
  const dnsmasq = opts.dnsmasqPath ?? DEFAULT_DNSMASQ;
  if (opts.engine === 'adguard') {
    if (await isExecutableFile(fs, adguard)) return { engine: 'adguard', binary: adguard };
    throw refused('NO_ENGINE', `AdGuard dnsproxy was not found at ${adguard}; install K2s or pass --dnsproxy PATH, or use --engine dnsmasq.`);
  }
  if (opts.engine === 'dnsmasq') {
    if (await isExecutableFile(fs, dnsmasq)) return { engine: 'dnsmasq', binary: dnsmasq };
    throw refused('NO_ENGINE', `dnsmasq was not found at ${dnsmasq}; install it (apt-get install dnsmasq-base) or use --engine adguard.`);
  }
  if (await isExecutableFile(fs, adguard)) return { engine: 'adguard', binary: adguard };
  if (await isExecutableFile(fs, dnsmasq)) return { engine: 'dnsmasq', binary: dnsmasq };
  throw refused(
    'NO_ENGINE',
    `No DNS proxy engine found: neither AdGuard dnsproxy at ${adguard} nor dnsmasq at ${dnsmasq}; install K2s (it ships bin/dnsproxy) or dnsmasq (\`apt-get install dnsmasq-base\`).`,
  );
}
