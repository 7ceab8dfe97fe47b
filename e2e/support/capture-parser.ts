/**
 * Test support: the capture parser process (electron/core/capture/rows-main.ts) bundled into
 * one CommonJS file a non-root user can run with plain node (the app's build does not ship it
 * yet), and the pipeline deps for tests.
 */
import { spawn } from 'node:child_process';
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { PipelineDeps } from '../../electron/core/capture/pipeline';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** Bundles the parser into `dir` (which must be readable by the parser's user); returns node's argv for it. */
export async function bundleCaptureParser(dir: string): Promise<{ file: string; args: string[] }> {
  const out = join(dir, 'capture-rows.cjs');
  await build({ entryPoints: [join(REPO, 'electron/core/capture/rows-main.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: out, logLevel: 'warning' });
  await chmod(dir, 0o755);
  await chmod(out, 0o644);
  return { file: process.execPath, args: [out] };
}

/** Real child processes. */
export const NODE_PIPELINE_DEPS: PipelineDeps = { spawn: (file, args, opts) => spawn(file, [...args], opts) };
