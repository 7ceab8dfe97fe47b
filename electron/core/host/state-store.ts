/**
 * Reads and writes the saved-state file K2S_PATHS.stateFile (dir 0700, file 0600; /var/lib
 * survives a reboot). Accepts the file K2s's own CLI writes at the same path, and writes the
 * members K2s's CLI reads beside this app's (k2s-cli-state.ts), so either tool's stop restores
 * the original the other saved.
 */
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { resolverEntryProblem, stateFileProblem, type ResolverStateFile } from '../../../shared/state-file';
import type { ResolverEntry } from '../../../shared/types';
import type { HostFs } from './host-fs';
import { K2S_CLI_FIELD_NAMES, fromK2sCliState, toK2sCliFields } from './k2s-cli-state';
import { cliCommand } from '../../../shared/fix';

const recoverHint = (path: string): string =>
  `run ${cliCommand('stop', true)} (or recover): it restores your original resolver when the file still holds a readable one and moves ${path} aside (never deletes it)`;

/**
 * The state file exists but cannot be used: not JSON, a wrong shape, or a shape neither tool
 * writes (truncated by a full disk or a bad sector, edited by hand). Carries what could be
 * salvaged: when the `resolvConf` member (the saved original) is itself valid, `salvaged` is a
 * state with it and defaults elsewhere, so stop/recover can still restore the user's resolver.
 */
export class StateFileCorruptError extends Error {
  constructor(
    message: string,
    readonly path: string,
    /** Why, one phrase (e.g. `version 2 is not 1`). */
    readonly problem: string,
    readonly salvaged: ResolverStateFile | null,
  ) {
    super(message);
    this.name = 'StateFileCorruptError';
  }
}

/** A state holding only `entry` (the rest unknown), for restoring from a salvaged original. */
function stateWith(entry: ResolverEntry, savedAt: string, writtenBy: ResolverStateFile['writtenBy']): ResolverStateFile {
  return {
    version: 1,
    writtenBy,
    savedAt,
    resolvConf: entry,
    upstreams: [],
    resolvedDropIn: false,
    engine: writtenBy === 'k2s-cli' ? 'adguard' : null,
    listeners: [],
    skippedListeners: [],
    clusterDomain: null,
    kubeDnsIp: null,
    kubernetesServiceIp: null,
    managedResolvConfSha256: null,
  };
}

/**
 * Parses state-file text: this app's version-1 shape, or a K2s CLI file (converted, `writtenBy:
 * 'k2s-cli'`, `savedAt` = `fallbackSavedAt`; the K2s CLI always runs AdGuard dnsproxy under
 * systemd). Throws StateFileCorruptError (one sentence naming the file, the problem and the fix).
 */
export function parseStateText(text: string, fallbackSavedAt: string, path: string = K2S_PATHS.stateFile): ResolverStateFile {
  const corrupt = (problem: string, salvaged: ResolverStateFile | null) =>
    new StateFileCorruptError(`The saved resolver state ${path} is corrupt (${problem}); ${recoverHint(path)}.`, path, problem, salvaged);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw corrupt(`not valid JSON: ${(err as Error).message}`, null);
  }
  if (typeof json === 'object' && json !== null && 'version' in json) {
    const problem = stateFileProblem(json);
    if (problem) {
      const entry = (json as { resolvConf?: unknown }).resolvConf;
      const savedAt = (json as { savedAt?: unknown }).savedAt;
      throw corrupt(problem, resolverEntryProblem(entry) === null ? stateWith(entry as ResolverEntry, typeof savedAt === 'string' ? savedAt : fallbackSavedAt, 'k2s-dns') : null);
    }
    // K2s's members (written for `k2s stop`, k2s-cli-state.ts) are not this app's: writeState
    // makes them again from resolvConf, so a saved copy a follow replaced never keeps the old ones.
    const own = { ...(json as Record<string, unknown>) };
    for (const k of K2S_CLI_FIELD_NAMES) delete own[k];
    return own as unknown as ResolverStateFile;
  }
  const entry = fromK2sCliState(json);
  if (!entry) throw corrupt('a shape neither k2s-dns nor the k2s CLI writes', null);
  return stateWith(entry, fallbackSavedAt, 'k2s-cli');
}

/**
 * Moves a corrupt state file aside to `<path>.corrupt-<ISO time>` (0600, same dir) — copied,
 * then removed, since HostFs has no rename; kept in place when the copy cannot be written
 * (a full /var/lib). Never deletes the only copy.
 * @returns the host path it now has
 * @throws the write error when the copy failed (the file is then still at K2S_PATHS.stateFile)
 */
export async function moveStateAside(fs: HostFs, nowMs: number): Promise<string> {
  const bytes = await fs.readFileNoFollow(K2S_PATHS.stateFile);
  const aside = `${K2S_PATHS.stateFile}.corrupt-${new Date(nowMs).toISOString().replace(/[:.]/g, '-')}`;
  await fs.writeFileAtomic(aside, bytes, { mode: 0o600 });
  await fs.remove(K2S_PATHS.stateFile);
  return aside;
}

/**
 * Makes sure K2S_PATHS.stateDir and the state file in it are private to root before root trusts
 * them (a pre-existing weak dir or a symlinked state file made root leak a root-only
 * file and write an attacker-owned /etc/resolv.conf). Dir: a real directory owned by root (or
 * by this process's own uid on a test root), mode repaired to 0700; file: a regular file, same
 * owner, mode repaired to 0600. Refuses, with the fix, a symlink, another file type or another
 * owner: another user could have planted or swapped the content, so it cannot be repaired.
 * A non-root process (status as a user) only reads: it neither repairs nor refuses root's dir.
 */
export async function checkStateDir(fs: HostFs): Promise<void> {
  const euid = process.geteuid?.() ?? 0;
  const owners = new Set([0, euid]);
  const hint = 'check /etc/resolv.conf by hand (restore your original if it starts with the K2s header), remove it, then start again';
  const dir = await fs.lstat(K2S_PATHS.stateDir);
  if (dir === null) return;
  if (dir.kind !== 'dir') throw new Error(`${K2S_PATHS.stateDir} is a ${dir.kind === 'symlink' ? 'symlink' : 'non-directory'}, not the root-only directory k2s-dns keeps its state in; ${hint}.`);
  if (!owners.has(dir.uid)) throw new Error(`${K2S_PATHS.stateDir} is owned by uid ${dir.uid}, not root, so another user could have changed the saved resolver in it; ${hint}.`);
  if (dir.uid !== euid) return;
  if ((dir.mode & 0o077) !== 0) await fs.chmodNoFollow(K2S_PATHS.stateDir, 0o700);
  const file = await fs.lstat(K2S_PATHS.stateFile);
  if (file === null) return;
  if (file.kind !== 'file') throw new Error(`${K2S_PATHS.stateFile} is a ${file.kind === 'symlink' ? 'symlink' : 'non-regular file'}; k2s-dns only reads the regular file it wrote itself; ${hint}.`);
  if (!owners.has(file.uid)) throw new Error(`${K2S_PATHS.stateFile} is owned by uid ${file.uid}, not root; ${hint}.`);
  if (file.uid === euid && (file.mode & 0o077) !== 0) await fs.chmodNoFollow(K2S_PATHS.stateFile, 0o600);
}

/** Reads the state file; null when absent. Throws a recoverable-error sentence for a corrupt or unsafe file. */
export async function readState(fs: HostFs): Promise<ResolverStateFile | null> {
  await checkStateDir(fs);
  const st = await fs.lstat(K2S_PATHS.stateFile);
  if (st === null) return null;
  // O_NOFOLLOW: a link swapped in after the check is not followed either.
  const text = (await fs.readFileNoFollow(K2S_PATHS.stateFile)).toString('utf8');
  // A K2s CLI file has no savedAt: its mtime is when it was saved.
  return parseStateText(text, new Date(st.mtimeMs).toISOString());
}

/**
 * The state file's text: this app's members, then K2s's own CLI's for the same original
 * (toK2sCliFields: `k2s stop` or `k2s uninstall` run while K2s DNS runs restores from them).
 */
export function stateText(state: ResolverStateFile): string {
  const own: Record<string, unknown> = { ...state };
  for (const k of K2S_CLI_FIELD_NAMES) delete own[k];
  return JSON.stringify({ ...own, ...toK2sCliFields(state.resolvConf) }, null, 2) + '\n';
}

/** Writes the state file atomically (state dir created 0700, file 0600, owner root): stateText. */
export async function writeState(fs: HostFs, state: ResolverStateFile): Promise<void> {
  const problem = stateFileProblem(state);
  if (problem) throw new Error(`refusing to save an invalid resolver state (${problem}); this is a bug in k2s-dns.`);
  await fs.mkdirp(K2S_PATHS.stateDir, 0o700);
  await checkStateDir(fs);
  await fs.writeFileAtomic(K2S_PATHS.stateFile, stateText(state), { mode: 0o600 });
}

/** Removes the state file; no error when it is already gone. */
export async function removeState(fs: HostFs): Promise<void> {
  await fs.remove(K2S_PATHS.stateFile);
}
