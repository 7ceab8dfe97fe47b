import { fileURLToPath } from 'node:url';

/**
 * The application directory (the repository, or the packaged app), with a trailing slash.
 * This file sits one level below it both as source (electron/app-root.ts) and bundled
 * (dist/*.mjs, scripts/build.mjs puts every chunk directly in dist/), so `../` is right in both.
 */
export const APP_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** A path inside the application directory, e.g. appPath('out/renderer'). */
export function appPath(relative: string): string {
  return `${APP_ROOT}${relative}`;
}
