/**
 * The repository's own TypeScript files, for the repo checks in scripts/*.test.ts (the import
 * rule, engine names, error codes): one walker, so the checks agree on what a product file is.
 * Paths are repo-relative, posix, sorted. Test support: no product file imports it.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (absolute, with a trailing separator). */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** Directories never walked: dependencies, build output, the built engines and temp files. */
const SKIP = new Set(['node_modules', 'out', 'dist', '.tools', '.tmp']);

/** A test, spec, bench or fixture module (not product code). */
export const isTestFile = (name: string): boolean => /\.(test|spec|bench|fixture)\.tsx?$/.test(name);

/** Every .ts/.tsx file (no .d.ts) under `roots`, tests included. */
export function tsFilesUnder(roots: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(REPO, dir))) {
      if (SKIP.has(name)) continue;
      const rel = posix.join(dir, name);
      if (statSync(join(REPO, rel)).isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(rel);
    }
  };
  roots.forEach(walk);
  return out.sort();
}

/** The rooms that ship: Electron main and its services, the renderer, shared. */
export const PRODUCT_ROOTS = ['electron', 'shared', 'renderer'] as const;

/** Product .ts/.tsx files: under PRODUCT_ROOTS, no tests. */
export function productFiles(): string[] {
  return tsFilesUnder(PRODUCT_ROOTS).filter((f) => !isTestFile(posix.basename(f)));
}
