import { describe, expect, it } from 'vitest';
import { binaryLine, diffTexts } from './diff-texts';
import type { ResolverEntry } from './types';

const file = (b: Uint8Array | string): ResolverEntry => ({ kind: 'file', contentBase64: Buffer.from(b).toString('base64'), mode: 0o644, uid: 0, gid: 0, immutable: false });

describe('diffTexts (walk 6 L5: a NUL file showed as lines of �)', () => {
  it('a side with NUL bytes, or not UTF-8, is one line naming its size and why; text stays text', () => {
    expect(binaryLine(new Uint8Array([110, 0, 10]))).toBe('(binary: 3 bytes, holds NUL bytes; not shown)');
    expect(binaryLine(new Uint8Array([0xff]))).toBe('(binary: 1 byte, not UTF-8 text; not shown)');
    expect(binaryLine(new TextEncoder().encode('search bé.example\n'))).toBeNull();
    const big = new Uint8Array(2048).fill(0);
    expect(diffTexts({ saved: file('nameserver 192.0.2.53\n'), current: file(big), savedText: 'nameserver 192.0.2.53\n', currentText: '\0'.repeat(2048) })).toEqual({
      saved: 'nameserver 192.0.2.53\n',
      current: '(binary: 2,048 bytes, holds NUL bytes; not shown)\n',
    });
  });

  it("a link's target bytes count as its text; an absent file or a dangling link is its text as given", () => {
    const link: ResolverEntry = { kind: 'symlink', target: '../run/x', uid: 0, gid: 0, dangling: false, targetContentBase64: Buffer.from([0xc3]).toString('base64') };
    expect(diffTexts({ saved: link, current: { kind: 'absent' }, savedText: '\uFFFD', currentText: null })).toEqual({ saved: '(binary: 1 byte, not UTF-8 text; not shown)\n', current: '' });
    expect(diffTexts({ saved: null, current: file('a\n'), savedText: null, currentText: 'a\n' })).toEqual({ saved: '', current: 'a\n' });
  });
});
