/**
 * Bundles the test-only entry e2e/bed/pause-entry.ts with esbuild into the git-ignored
 * .tmp/debian-host/k2s-dns-pause.mjs, which a booted Debian host runs from the read-only
 * checkout (`node /opt/k2s-dns-src/.tmp/debian-host/k2s-dns-pause.mjs`). Same shape as the
 * CLI bundle (scripts/build.mjs): Node 20 ESM with require() for CommonJS dependencies.
 */
import { build } from 'esbuild';
import { join } from 'node:path';
import { HOST_SRC, REPO_ROOT } from './debian-host';

const OUT = join('.tmp', 'debian-host', 'k2s-dns-pause.mjs');

/** Builds the bundle; resolves to its path inside the host. */
export async function bundlePauseEntry(): Promise<string> {
  await build({
    absWorkingDir: REPO_ROOT,
    entryPoints: ['e2e/bed/pause-entry.ts'],
    outfile: join(REPO_ROOT, OUT),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    external: ['electron', 'vite'],
    banner: {
      js: [
        "import { createRequire as __k2sCreateRequire } from 'node:module';",
        "import { fileURLToPath as __k2sFileURLToPath } from 'node:url';",
        "import { dirname as __k2sDirname } from 'node:path';",
        'const require = __k2sCreateRequire(import.meta.url);',
        'const __filename = __k2sFileURLToPath(import.meta.url);',
        'const __dirname = __k2sDirname(__filename);',
      ].join('\n'),
    },
  });
  return `${HOST_SRC}/${OUT}`;
}
