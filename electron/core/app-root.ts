import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The application directory (the repository, or the packaged app), with a trailing slash: the
 * nearest directory above this module that holds package.json. Found by looking rather than by
 * a fixed `../`, because the module sits at different depths as source
 * (electron/core/app-root.ts) and bundled (dist/*.mjs, scripts/build.mjs).
 */
export const APP_ROOT = findAppRoot(dirname(fileURLToPath(import.meta.url)));

function findAppRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return `${dir}/`;
    if (dirname(dir) === dir) return `${dirname(from)}/`;
  }
}

/** A path inside the application directory, e.g. appPath('out/renderer'). */
export function appPath(relative: string): string {
  return `${APP_ROOT}${relative}`;
}
