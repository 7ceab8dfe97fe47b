/**
 * Reads and writes the saved-state file K2S_PATHS.stateFile (dir 0700, file 0600; /var/lib
 * survives a reboot). Accepts the file K2s's own CLI writes at the same path (k2s-cli-state.ts).
 */
import { K2S_PATHS } from '../../shared/k2s-paths';
import { stateFileProblem, type ResolverStateFile } from '../../shared/state-file';
import type { HostFs } from './host-fs';
import { fromK2sCliState } from './k2s-cli-state';

const recoverHint = (path: string): string =>
  `check /etc/resolv.conf by hand (restore your original if it still starts with the K2s header), then delete ${path} and start again.`;

/**
 * Parses state-file text: this app's version-1 shape, or a K2s CLI file (converted, `writtenBy:
 * 'k2s-cli'`, `savedAt` = `fallbackSavedAt`). Throws a one-sentence error naming the fix.
 */
export function parseStateText(text: string, fallbackSavedAt: string, path: string = K2S_PATHS.stateFile): ResolverStateFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`The saved resolver state ${path} is not valid JSON (${(err as Error).message}); ${recoverHint(path)}`);
  }
  if (typeof json === 'object' && json !== null && 'version' in json) {
    const problem = stateFileProblem(json);
    if (problem) throw new Error(`The saved resolver state ${path} is corrupt (${problem}); ${recoverHint(path)}`);
    return json as ResolverStateFile;
  }
  const entry = fromK2sCliState(json);
  if (!entry) {
    throw new Error(`The saved resolver state ${path} has a shape neither k2s-dns nor the k2s CLI writes; ${recoverHint(path)}`);
  }
  return {
    version: 1,
    writtenBy: 'k2s-cli',
    savedAt: fallbackSavedAt,
    resolvConf: entry,
    upstreams: [],
    resolvedDropIn: false,
    // The K2s CLI always runs AdGuard dnsproxy under systemd (unit k2s-dnsproxy.service).
    engine: 'adguard',
    listeners: [],
    skippedListeners: [],
    clusterDomain: null,
    kubeDnsIp: null,
    kubernetesServiceIp: null,
    managedResolvConfSha256: null,
  };
}

/** Reads the state file; null when absent. Throws a recoverable-error sentence for a corrupt file. */
export async function readState(fs: HostFs): Promise<ResolverStateFile | null> {
  const st = await fs.lstat(K2S_PATHS.stateFile);
  if (st === null) return null;
  const text = (await fs.readFile(K2S_PATHS.stateFile)).toString('utf8');
  // A K2s CLI file has no savedAt: its mtime is when it was saved.
  return parseStateText(text, new Date(st.mtimeMs).toISOString());
}

/** Writes the state file atomically (state dir created 0700, file 0600, owner root). */
export async function writeState(fs: HostFs, state: ResolverStateFile): Promise<void> {
  const problem = stateFileProblem(state);
  if (problem) throw new Error(`refusing to save an invalid resolver state (${problem}); this is a bug in k2s-dns.`);
  await fs.mkdirp(K2S_PATHS.stateDir, 0o700);
  await fs.writeFileAtomic(K2S_PATHS.stateFile, JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
}

/** Removes the state file; no error when it is already gone. */
export async function removeState(fs: HostFs): Promise<void> {
  await fs.remove(K2S_PATHS.stateFile);
}
