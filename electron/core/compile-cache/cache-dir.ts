/**
 * Where the V8 code cache of the bundled vendor scripts lives (script-cache.ts), per user:
 *  - root (euid 0): `/var/cache/k2s-dns` — the FHS place for a system program's regenerable
 *    cache (FHS 3.0 §5.5); never a directory named by the environment, which `sudo` may carry
 *    over from the user who called it;
 *  - everyone else: `$XDG_CACHE_HOME/k2s-dns`, else `~/.cache/k2s-dns` (XDG Base Directory
 *    Specification 0.8: a relative XDG_CACHE_HOME is invalid and ignored).
 * `K2S_DNS_COMPILE_CACHE=0` turns the cache off (null). The directory's own safety (owner,
 * mode, no symlink) is checked where it is opened (script-cache.ts `usableCacheDir`).
 */
import { isAbsolute, join } from 'node:path';

/** What the choice depends on: the effective uid, the environment and the home directory. */
export interface CacheDirInput {
  euid: number;
  env: Readonly<Record<string, string | undefined>>;
  /** os.homedir(); '' when unknown. */
  home: string;
}

/** The system cache directory root's commands use. */
export const ROOT_CACHE_DIR = '/var/cache/k2s-dns';

/** The code cache directory for this user, or null when caching is off or no place is known. */
export function compileCacheDir({ euid, env, home }: CacheDirInput): string | null {
  if (env.K2S_DNS_COMPILE_CACHE === '0') return null;
  if (euid === 0) return ROOT_CACHE_DIR;
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'k2s-dns');
  return home && isAbsolute(home) ? join(home, '.cache', 'k2s-dns') : null;
}
