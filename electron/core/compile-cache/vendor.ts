/**
 * The built bundle's door to a vendor script (scripts/build.mjs: dist/vendor-client-node.cjs):
 * loads it from next to the calling chunk, with this user's code cache (cache-dir.ts,
 * script-cache.ts). Only the bundle calls it; the sources import the packages directly.
 */
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { compileCacheDir } from './cache-dir';
import { loadCachedScript } from './script-cache';

/** module.exports of vendor script `name`, found next to `baseUrl` (the chunk's import.meta.url). */
export function loadVendorScript(name: string, baseUrl: string): Record<string, unknown> {
  const euid = process.geteuid?.() ?? -1;
  const dir = euid < 0 ? null : compileCacheDir({ euid, env: process.env, home: homedir() });
  return loadCachedScript(fileURLToPath(new URL(name, baseUrl)), dir, euid).exports as Record<string, unknown>;
}
