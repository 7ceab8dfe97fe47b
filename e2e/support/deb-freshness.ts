/**
 * Is the .deb `npm run try-package` installs current? try-package takes the newest
 * out/packages/k2s-dns_*_amd64.deb by name and never rebuilds it, so a user who skipped
 * `npm run package` after pulling or building would try an old build without knowing (new-user
 * walk 20). This says so: the .deb is stale when it is older than the newest file of the build
 * output it packages (dist/ and out/renderer, `npm run build`; scripts/package/main.ts) or than
 * the last commit. A warning only: rebuilding is the user's call.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A file and its modification time (ms since the epoch). */
export interface Dated {
  path: string;
  mtimeMs: number;
}

/** The command that rebuilds the .deb (it runs `npm run build` first, scripts/package/main.ts). */
export const REBUILD_COMMAND = 'npm run package';

/** `ms` as `YYYY-MM-DD HH:MM:SS UTC`. */
function utc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * The warning for `deb` when it is older than `newestBuild` (the newest build output file), than
 * `newestSource` (the newest source file: a pull of an older commit or an edit not committed
 * yet) or than the last commit (`lastCommitMs`, git's %ct × 1000, 1 s resolution), naming each newer one
 * with its time and the command that rebuilds it; null when the .deb is at least as new as both
 * (or neither is known). Paths are printed relative to `repo`.
 */
export function staleDebWarning(repo: string, deb: Dated, newestBuild: Dated | null, lastCommitMs: number | null, newestSource: Dated | null = null): string | null {
  const newer: string[] = [];
  if (newestBuild && newestBuild.mtimeMs > deb.mtimeMs) newer.push(`the build output ${relative(repo, newestBuild.path)} (${utc(newestBuild.mtimeMs)})`);
  // A pull or an edit gives the files it changes a new mtime, whatever the commit's own date says.
  if (newestSource && newestSource.mtimeMs > deb.mtimeMs) newer.push(`the source file ${relative(repo, newestSource.path)} (${utc(newestSource.mtimeMs)})`);
  // %ct has whole seconds: a .deb built within the commit's second counts as current.
  if (lastCommitMs !== null && lastCommitMs >= Math.floor(deb.mtimeMs / 1000) * 1000 + 1000) newer.push(`the last commit (${utc(lastCommitMs)})`);
  if (newer.length === 0) return null;
  return `Warning: ${relative(repo, deb.path)} (built ${utc(deb.mtimeMs)}) is older than ${newer.join(' and ')}, so it may not hold the current code. Run ${REBUILD_COMMAND} to rebuild it (about 30 s), then npm run try-package again; trying this one anyway.`;
}

/** The newest regular file under `dirs` (recursively), or null when there is none. */
export function newestFile(dirs: readonly string[]): Dated | null {
  let best: Dated | null = null;
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir, { recursive: true, encoding: 'utf8' });
    } catch {
      continue;
    }
    for (const name of names) {
      const path = join(dir, name);
      try {
        const st = statSync(path);
        if (st.isFile() && (best === null || st.mtimeMs > best.mtimeMs)) best = { path, mtimeMs: st.mtimeMs };
      } catch {
        // Gone meanwhile.
      }
    }
  }
  return best;
}

/** The last commit's time in ms (git log %ct), or null outside a git checkout or without git; `safe.directory` lets root read a user's checkout (git-config(1)). */
export function lastCommitMs(repo: string): number | null {
  const r = spawnSync('git', ['-c', `safe.directory=${repo.replace(/(.)\/+$/, '$1')}`, 'log', '-1', '--format=%ct'], { cwd: repo, encoding: 'utf8' });
  const s = Number(r.stdout?.trim());
  return r.status === 0 && Number.isInteger(s) && s > 0 ? s * 1000 : null;
}

/** The checkout's source directories whose files go into the package (what `npm run package` builds from). */
export const SOURCE_DIRS = ['bin', 'electron', 'shared', join('renderer', 'src'), 'resources'] as const;

/** staleDebWarning for the .deb at `deb` in the checkout `repo`: its dist/ and out/renderer, its source files and its last commit. */
export function debFreshnessWarning(repo: string, deb: string): string | null {
  return staleDebWarning(repo, { path: deb, mtimeMs: statSync(deb).mtimeMs }, newestFile([join(repo, 'dist'), join(repo, 'out', 'renderer')]), lastCommitMs(repo), newestFile(SOURCE_DIRS.map((d) => join(repo, d))));
}
