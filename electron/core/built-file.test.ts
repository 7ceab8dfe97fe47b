/**
 * tidy29: a dangling symlink at dist/k2s-dns-*.cjs (the runner, the CLI script, the capture
 * companion's bundle) made the CLI fall back without a word, as for a file that is simply absent.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { builtFileThere } from './built-file';
import { CLI_SCRIPT, cliScriptFor } from './compile-cache/cli-script';
import { captureProgram } from './capture/capture-program';
import { CAPTURE_BUNDLE, CAPTURE_VERB } from './capture/capture-args';

const dir = mkdtempSync(join(tmpdir(), 'k2s-built-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** What `run` wrote to stderr. */
function stderrOf(run: () => unknown): string {
  let text = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((text += String(chunk)), true));
  run();
  vi.restoreAllMocks();
  return text;
}

describe('a file of the built CLI that is a dangling symlink', () => {
  it('is not there, and one stderr line names it, its target and what runs instead; an absent file or a file says nothing', () => {
    const file = join(dir, 'k2s-dns-run.cjs');
    expect(stderrOf(() => expect(builtFileThere(file, 'from the ES module chunks')).toBe(false))).toBe('');
    symlinkSync(join(dir, 'gone.cjs'), file);
    expect(stderrOf(() => expect(builtFileThere(file, 'from the ES module chunks')).toBe(false))).toBe(
      `k2s-dns: ${file} is a symlink to ${join(dir, 'gone.cjs')}, which is not there; this command runs from the ES module chunks instead. Reinstall k2s-dns, or run \`npm run build\` in the repository.\n`,
    );
    writeFileSync(join(dir, 'gone.cjs'), 'module.exports = {};\n');
    expect(stderrOf(() => expect(builtFileThere(file, 'from the ES module chunks')).toBe(true))).toBe('');
  });

  it('the CLI script (dist/k2s-dns-cli.cjs): cliScriptFor gives none and says so', () => {
    const sub = mkdtempSync(join(dir, 'cli-'));
    symlinkSync('/nonexistent/k2s-dns-cli.cjs', join(sub, CLI_SCRIPT));
    const said = stderrOf(() => expect(cliScriptFor({ verb: 'start', baseUrl: pathToFileURL(join(sub, 'k2s-dns.mjs')).href, env: {}, execArgv: [] })).toBeNull());
    expect(said).toBe(`k2s-dns: ${join(sub, CLI_SCRIPT)} is a symlink to /nonexistent/k2s-dns-cli.cjs, which is not there; this command runs from the ES module chunks instead. Reinstall k2s-dns, or run \`npm run build\` in the repository.\n`);
  });

  it('the capture companion\'s bundle: the entry runs it, and that is said', () => {
    const sub = mkdtempSync(join(dir, 'capture-'));
    symlinkSync('/nonexistent/capture.cjs', join(sub, CAPTURE_BUNDLE));
    const entry = join(sub, 'k2s-dns.mjs');
    let argv: string[] = [];
    const said = stderrOf(() => (argv = captureProgram('/usr/bin/node', entry, sub)));
    expect(argv).toEqual(['/usr/bin/node', entry, CAPTURE_VERB]);
    expect(said).toBe(`k2s-dns: ${join(sub, CAPTURE_BUNDLE)} is a symlink to /nonexistent/capture.cjs, which is not there; this command runs the companion from ${entry} instead. Reinstall k2s-dns, or run \`npm run build\` in the repository.\n`);
  });
});
