import type { HostFs } from '../host/host-fs';
import type { EngineName } from '../../../shared/types';
import { ENGINE_NAMES, ENGINES } from '../../../shared/engines/table';
import { engineRuntime, type BinaryOptions } from '../engines/table';
import { refused } from './errors';

/** The chosen proxy engine and its binary (host path). */
export interface EngineChoice {
  engine: EngineName;
  binary: string;
}

/** Default Debian dnsmasq-base binary. */
export { DEFAULT_DNSMASQ } from '../engines/dnsmasq';

async function isExecutableFile(fs: HostFs, path: string): Promise<boolean> {
  const st = await fs.stat(path);
  return st !== null && st.kind === 'file' && (st.mode & 0o111) !== 0;
}

/**
 * Picks the engine: an explicit engine must have its binary; without one, the first of the
 * engine table (ENGINE_NAMES order: adguard when the pinned dnsproxy exists, else dnsmasq)
 * whose binary exists, else refused NO_ENGINE naming every path.
 */
export async function chooseEngine(fs: HostFs, opts: { engine?: EngineName } & BinaryOptions): Promise<EngineChoice> {
  if (opts.engine !== undefined) {
    const binary = engineRuntime(opts.engine).binaryOf(opts);
    if (await isExecutableFile(fs, binary)) return { engine: opts.engine, binary };
    throw refused('NO_ENGINE', engineRuntime(opts.engine).missingText(binary));
  }
  for (const engine of ENGINE_NAMES) {
    const binary = engineRuntime(engine).binaryOf(opts);
    if (await isExecutableFile(fs, binary)) return { engine, binary };
  }
  const neither = ENGINE_NAMES.map((e) => `${ENGINES[e].label} at ${engineRuntime(e).binaryOf(opts)}`).join(' nor ');
  const install = ENGINE_NAMES.map((e) => engineRuntime(e).installText).join(' or ');
  throw refused('NO_ENGINE', `No DNS proxy engine found: neither ${neither}; install ${install}.`);
}
