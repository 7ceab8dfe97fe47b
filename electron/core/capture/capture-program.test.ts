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

  it('runs the package\'s launcher from the package\'s code, the CLI\'s and the helper\'s (it takes the startup snapshot)', () => {
    const have = new Set(['/usr/bin/k2s-dns', '/usr/lib/k2s-dns/dist/k2s-dns-capture-watch.cjs']);
    expect(captureProgram(NODE, '/usr/lib/k2s-dns/dist/k2s-dns.mjs', '/usr/lib/k2s-dns/dist', (p) => have.has(p))).toEqual(['/usr/bin/k2s-dns', 'capture-watch']);
    expect(captureProgram(NODE, '/usr/lib/k2s-dns/k2s-dns-helper.mjs', '/usr/lib/k2s-dns/', (p) => have.has(p))).toEqual(['/usr/bin/k2s-dns', 'capture-watch']);
    // Not from a checkout that happens to sit beside a package, nor from a look-alike directory.
    expect(captureProgram(NODE, '/repo/bin/k2s-dns.mjs', '/repo/dist', () => true)[0]).toBe(NODE);
    expect(captureProgram(NODE, '/usr/lib/k2s-dns-x/dist/k2s-dns.mjs', '/usr/lib/k2s-dns-x/dist', () => true)[0]).toBe(NODE);
  });

  it('falls back to the entry without a bundle (the sources through tsx, a helper installed alone)', () => {
    const asked: string[] = [];
    const argv = captureProgram(NODE, '/usr/lib/k2s-dns/k2s-dns-helper.mjs', '/usr/lib/k2s-dns', (p) => (asked.push(p), false));
    expect(argv).toEqual([NODE, '/usr/lib/k2s-dns/k2s-dns-helper.mjs', 'capture-watch']);
    expect(asked).toEqual(['/usr/bin/k2s-dns', '/usr/lib/k2s-dns/k2s-dns-capture-watch.cjs', '/usr/lib/k2s-dns/dist/k2s-dns-capture-watch.cjs']);
  });

  it('gives a command line the companion checks recognise, held or not', () => {
    const argv = captureProgram(NODE, '/e/k2s-dns.mjs', '/d', () => true);
    expect(argv.at(-1)).toBe(CAPTURE_VERB);
    expect(argv[1]!.endsWith(CAPTURE_BUNDLE)).toBe(true);
    expect(isCaptureArgv([...argv, '--held'])).toBe(true);
    expect(isCaptureArgv([...argv, '--listen', '127.0.0.1:53', '--port', '53'])).toBe(true);
  });

  it('knows the launcher\'s companion before and after its exec (sh, then node from the startup snapshot)', () => {
    expect(isCaptureArgv(['/bin/sh', '/usr/bin/k2s-dns', CAPTURE_VERB, '--listen', '127.0.0.1:53', '--port', '53'])).toBe(true);
    expect(isCaptureArgv(['/usr/bin/node', '--snapshot-blob', '/var/cache/k2s-dns/k2s-dns-cli.blob', '--', CAPTURE_VERB, '--listen', '127.0.0.1:53'])).toBe(true);
    // Another command from the snapshot that names the verb later is not one.
    expect(isCaptureArgv(['/usr/bin/node', '--snapshot-blob', '/var/cache/k2s-dns/k2s-dns-cli.blob', '--', 'queries', CAPTURE_VERB])).toBe(false);
    expect(isCaptureArgv(['/usr/bin/node', '--snapshot-blob', '/b', 'x', CAPTURE_VERB])).toBe(false);
  });
});
