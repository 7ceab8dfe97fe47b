/**
 * Which npm packages a bundle holds, from the module paths the bundler read (esbuild's metafile
 * inputs, rollup's module ids): each path below node_modules/ names its package directory,
 * nested ones included (`node_modules/a/node_modules/b`). scripts/build.mjs and vite.config.ts
 * write the list beside their output as bundled-packages.json; `npm run package` turns it into
 * the copyright file's license paragraphs (scripts/package/licenses.ts).
 */

/** File name of the list in dist/ and out/renderer/ (the package layout does not ship it). */
export const BUNDLED_PACKAGES_FILE = 'bundled-packages.json';

/** `node_modules/…/<name>` of one module path, or null for our own sources. */
export function packageDirOf(modulePath) {
  const p = String(modulePath).replace(/\\/g, '/');
  const at = p.indexOf('node_modules/');
  if (at < 0) return null;
  const m = /^node_modules\/(?:(?:@[^/]+\/)?[^/]+\/node_modules\/)*(?:@[^/]+\/)?[^/?]+/.exec(p.slice(at));
  return m ? m[0] : null;
}

/** The sorted, distinct package directories of `modulePaths`. */
export function packageDirs(modulePaths) {
  return [...new Set([...modulePaths].map(packageDirOf).filter((d) => d !== null))].sort();
}
