import { describe, expect, it } from 'vitest';
import { parserProgram } from './parser-program';

describe('parserProgram', () => {
  it('runs the parser from the startup snapshot the companion itself runs from', () => {
    expect(parserProgram('/usr/bin/node', ['--snapshot-blob', '/var/cache/k2s-dns/k2s-dns-cli.blob'], '/run/k2s/capture-rows.cjs')).toEqual({
      file: '/usr/bin/node',
      args: ['--snapshot-blob', '/var/cache/k2s-dns/k2s-dns-cli.blob', '--', 'capture-rows'],
    });
  });

  it('runs the copy of the bundle otherwise: no blob, a relative blob, or other Node flags beside it', () => {
    const script = { file: '/usr/bin/node', args: ['/run/k2s/capture-rows.cjs'] };
    expect(parserProgram('/usr/bin/node', [], '/run/k2s/capture-rows.cjs')).toEqual(script);
    expect(parserProgram('/usr/bin/node', ['--snapshot-blob', 'k2s-dns-cli.blob'], '/run/k2s/capture-rows.cjs')).toEqual(script);
    expect(parserProgram('/usr/bin/node', ['--snapshot-blob', '/b.blob', '--max-old-space-size=64'], '/run/k2s/capture-rows.cjs')).toEqual(script);
    expect(parserProgram('/usr/bin/node', ['--enable-source-maps'], '/run/k2s/capture-rows.cjs')).toEqual(script);
  });
});
