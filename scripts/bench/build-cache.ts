/**
 * Each build's own V8 code cache directory for the A/B probes (stop-ab.ts, start-ab.ts), bind-mounted
 * over root's (cache-dir.ts) for that build's commands: one directory for both would hold one
 * build's cache per verb at a time (a write removes the caches of other builds of the script,
 * script-cache.ts), so every command ran uncached. Root only (mount).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { ROOT_CACHE_DIR } from '../../electron/core/compile-cache/cache-dir';

/** /run/k2s-bench-cache-BUILD, created (0700) when missing. */
function cacheOf(build: string): string {
  const dir = `/run/k2s-bench-cache-${build}`;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Runs `f` with `build`'s cache directory mounted over root's; unmounts after, also on a throw. */
export async function withCache<T>(build: string, f: () => Promise<T>): Promise<T> {
  execFileSync('mount', ['--bind', cacheOf(build), ROOT_CACHE_DIR]);
  try {
    return await f();
  } finally {
    execFileSync('umount', [ROOT_CACHE_DIR]);
  }
}
