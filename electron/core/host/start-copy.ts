/**
 * The file that was in place when K2s DNS started — the true pre-K2s original — kept beside the
 * saved original (K2S_PATHS.startCopy, 0600 in the root-only state dir) the first time a follow
 * replaces the saved original with a file the network wrote (follow.ts). `stop --restore start`
 * puts it back instead of the followed file; stop and uninstall remove it with the state file.
 *
 * It is an undo, never a source of truth: only read while the state file holds a followed copy
 * (`followedChange`), so a leftover one (a crash between the writes, a stop by K2s's own CLI,
 * which knows nothing of it) is never shown or restored, and a fresh start removes it.
 */
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { resolverEntryProblem } from '../../../shared/state-file';
import type { ResolverEntry } from '../../../shared/types';
import type { HostFs } from './host-fs';
import { checkStateDir } from './state-store';

/** Contents of K2S_PATHS.startCopy. */
export interface StartCopyFile {
  version: 1;
  /** ISO-8601 time start saved it (the state file's savedAt before the first follow). */
  savedAt: string;
  /** Exact bytes and shape (a file's mode, owner; a link's target string), as the state file keeps the saved original. */
  resolvConf: ResolverEntry;
}

/** Why `v` is no start copy, or null when it is one. */
export function startCopyProblem(v: unknown): string | null {
  if (typeof v !== 'object' || v === null) return 'not a JSON object';
  const o = v as Record<string, unknown>;
  if (o.version !== 1) return `version ${JSON.stringify(o.version)} is not 1`;
  if (typeof o.savedAt !== 'string') return 'savedAt is missing';
  return resolverEntryProblem(o.resolvConf);
}

/**
 * Reads the start copy; null when there is none or it cannot be used (not JSON, wrong shape: an
 * undo that cannot be trusted is no undo, and the saved original stays what stop restores).
 * Refuses, like the state file, a symlink or a file not owned by root (checkStateDir).
 */
export async function readStartCopy(fs: HostFs): Promise<StartCopyFile | null> {
  await checkStateDir(fs);
  const st = await fs.lstat(K2S_PATHS.startCopy);
  if (st === null) return null;
  if (st.kind !== 'file') return null;
  const euid = process.geteuid?.() ?? 0;
  if (st.uid !== 0 && st.uid !== euid) return null;
  try {
    const json: unknown = JSON.parse((await fs.readFileNoFollow(K2S_PATHS.startCopy)).toString('utf8'));
    return startCopyProblem(json) === null ? (json as StartCopyFile) : null;
  } catch {
    return null;
  }
}

/**
 * Keeps `entry` (the saved original at Start, saved at `savedAt`) as the start copy, once: an
 * existing copy is left as it is (a later follow must never overwrite the pre-Start file).
 * Written atomically, 0600, before the caller replaces the saved original.
 * @returns true when it wrote the copy now
 */
export async function keepStartCopy(fs: HostFs, entry: ResolverEntry, savedAt: string): Promise<boolean> {
  if (await fs.lstat(K2S_PATHS.startCopy)) return false;
  const copy: StartCopyFile = { version: 1, savedAt, resolvConf: entry };
  await fs.mkdirp(K2S_PATHS.stateDir, 0o700);
  await checkStateDir(fs);
  await fs.writeFileAtomic(K2S_PATHS.startCopy, JSON.stringify(copy, null, 2) + '\n', { mode: 0o600 });
  return true;
}

/** Removes the start copy; no error when it is already gone. */
export async function removeStartCopy(fs: HostFs): Promise<void> {
  await fs.remove(K2S_PATHS.startCopy);
}
