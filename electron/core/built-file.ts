/**
 * Whether a file of the built CLI (dist/k2s-dns-*.cjs, scripts/build.mjs: the runner, the CLI
 * script, the capture companion's bundle) is there to load. A file that is simply absent is the
 * sources run through tsx, and the caller falls back without a word; a symlink whose target is
 * not there (a dangling link: a half-done install or copy) is a damaged build, so the fallback is
 * said on stderr in one line naming the path, where it points and what runs instead
 * (as electron/cli/damaged-file.ts says a file that does not load).
 */
import { existsSync, readlinkSync } from 'node:fs';

/** `k2s-dns: FILE is a symlink to TARGET, which is not there; this command runs FALLBACK instead. Reinstall …`, newline-ended. */
export function danglingFileLine(file: string, target: string, fallback: string): string {
  return `k2s-dns: ${file} is a symlink to ${target}, which is not there; this command runs ${fallback} instead. Reinstall k2s-dns, or run \`npm run build\` in the repository.\n`;
}

/**
 * Says danglingFileLine on stderr when `file` (absolute, found not there) is a symlink (readlink(2)
 * reads it): its target is not there. `fallback` is what the caller runs instead, e.g. "from the
 * ES module chunks". Nothing for an absent file (ENOENT) or one that is no link (EINVAL).
 */
export function sayIfDangling(file: string, fallback: string): void {
  let target: string;
  try {
    target = readlinkSync(file);
  } catch {
    return;
  }
  process.stderr.write(danglingFileLine(file, target, fallback));
}

/** True when `file` (an absolute path) exists, a link followed (`exists`, default fs.existsSync); else false, said by sayIfDangling when it is a dangling link. */
export function builtFileThere(file: string, fallback: string, exists: (path: string) => boolean = existsSync): boolean {
  if (exists(file)) return true;
  sayIfDangling(file, fallback);
  return false;
}
