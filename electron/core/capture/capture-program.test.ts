import { describe, expect, it } from 'vitest';
import { captureProgram } from './capture-program';
import { CAPTURE_BUNDLE, CAPTURE_VERB, isCaptureArgv } from './capture-args';

const NODE = '/usr/bin/node';

describe('captureProgram', () => {
  it('runs the companion bundle next to the running code (the CLI script in dist/)', () => {
    const have = new Set(['/repo/dist/k2s-dns-capture-watch.cjs']);
    expect(captureProgram(NODE, '/repo/bin/k2s-dns.mjs', '/repo/dist', (p) => have.has(p))).toEqual([NODE, '/repo/dist/k2s-dns-capture-watch.cjs', 'capture-watch']);
  });

  it('runs the bundle in dist/ below the helper\'s one file (the installed package)', () => {
    const have = new Set(['/usr/lib/k2s-dns/dist/k2s-dns-capture-watch.cjs']);
    expect(captureProgram(NODE, '/usr/lib/k2s-dns/k2s-dns-helper.mjs', '/usr/lib/k2s-dns', (p) => have.has(p))).toEqual([NODE, '/usr/lib/k2s-dns/dist/k2s-dns-capture-watch.cjs', 'capture-watch']);
  });

  it('falls back to the entry without a bundle (the sources through tsx, a helper installed alone)', () => {
    const asked: string[] = [];
    const argv = captureProgram(NODE, '/usr/lib/k2s-dns/k2s-dns-helper.mjs', '/usr/lib/k2s-dns', (p) => (asked.push(p), false));
    expect(argv).toEqual([NODE, '/usr/lib/k2s-dns/k2s-dns-helper.mjs', 'capture-watch']);
    expect(asked).toEqual(['/usr/lib/k2s-dns/k2s-dns-capture-watch.cjs', '/usr/lib/k2s-dns/dist/k2s-dns-capture-watch.cjs']);
  });

  it('gives a command line the companion checks recognise, held or not', () => {
    const argv = captureProgram(NODE, '/e/k2s-dns.mjs', '/d', () => true);
    expect(argv.at(-1)).toBe(CAPTURE_VERB);
    expect(argv[1]!.endsWith(CAPTURE_BUNDLE)).toBe(true);
    expect(isCaptureArgv([...argv, '--held'])).toBe(true);
    expect(isCaptureArgv([...argv, '--listen', '127.0.0.1:53', '--port', '53'])).toBe(true);
  });
});
