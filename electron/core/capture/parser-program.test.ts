import { describe, expect, it } from 'vitest';
import { othersCanRead, parserProgram } from './parser-program';

const yes = () => true;

describe('parserProgram', () => {
  it('runs the parser from the startup snapshot the companion itself runs from', () => {
    expect(parserProgram('/usr/bin/node', ['--snapshot-blob', '/var/cache/k2s-dns/k2s-dns-cli.blob'], '/run/k2s/capture-rows.cjs', yes)).toEqual({
      file: '/usr/bin/node',
      args: ['--snapshot-blob', '/var/cache/k2s-dns/k2s-dns-cli.blob', '--', 'capture-rows'],
    });
  });

  it('runs the copy of the bundle otherwise: no blob, a relative blob, or other Node flags beside it', () => {
    const script = { file: '/usr/bin/node', args: ['/run/k2s/capture-rows.cjs'] };
    expect(parserProgram('/usr/bin/node', [], '/run/k2s/capture-rows.cjs', yes)).toEqual(script);
    expect(parserProgram('/usr/bin/node', ['--snapshot-blob', 'k2s-dns-cli.blob'], '/run/k2s/capture-rows.cjs', yes)).toEqual(script);
    expect(parserProgram('/usr/bin/node', ['--snapshot-blob', '/b.blob', '--max-old-space-size=64'], '/run/k2s/capture-rows.cjs', yes)).toEqual(script);
    expect(parserProgram('/usr/bin/node', ['--enable-source-maps'], '/run/k2s/capture-rows.cjs', yes)).toEqual(script);
  });

  it('runs the copy of the bundle when the parser\'s user cannot read the blob (a root-only cache directory)', () => {
    const modes: Record<string, number> = { '/': 0o40755, '/var': 0o40755, '/var/cache': 0o40755, '/var/cache/k2s-dns': 0o40700, '/var/cache/k2s-dns/k2s-dns-cli.blob': 0o100644 };
    const stat = (p: string) => ({ mode: modes[p]! });
    expect(othersCanRead('/var/cache/k2s-dns/k2s-dns-cli.blob', stat)).toBe(false);
    expect(parserProgram('/usr/bin/node', ['--snapshot-blob', '/var/cache/k2s-dns/k2s-dns-cli.blob'], '/run/k2s/capture-rows.cjs', (b) => othersCanRead(b, stat))).toEqual({ file: '/usr/bin/node', args: ['/run/k2s/capture-rows.cjs'] });
    modes['/var/cache/k2s-dns'] = 0o40711;
    expect(othersCanRead('/var/cache/k2s-dns/k2s-dns-cli.blob', stat)).toBe(true);
    modes['/var/cache/k2s-dns/k2s-dns-cli.blob'] = 0o100640;
    expect(othersCanRead('/var/cache/k2s-dns/k2s-dns-cli.blob', stat)).toBe(false);
    expect(othersCanRead('/nonexistent/blob')).toBe(false);
  });
});
