/**
 * Runs the CLI's `main` in this test process with stdout and stderr captured (the CLI tests'
 * one way to see exactly what `k2s-dns ARGS` prints). A test file's vi.mock() of a module main
 * imports applies here too (vitest hoists it over the whole module graph).
 */
import { vi } from 'vitest';
import { main } from './main';

/** stdout and stderr of `k2s-dns ARGS` run through main, and its exit status. */
export async function runMain(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const outs: string[] = [];
  const errs: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation(((s: string) => (outs.push(String(s)), true)) as typeof process.stdout.write);
  const spyErr = vi.spyOn(process.stderr, 'write').mockImplementation(((s: string) => (errs.push(String(s)), true)) as typeof process.stderr.write);
  try {
    return { code: await main(args), stdout: outs.join(''), stderr: errs.join('') };
  } finally {
    spy.mockRestore();
    spyErr.mockRestore();
  }
}
