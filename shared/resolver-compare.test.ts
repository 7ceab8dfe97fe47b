/**
 * describeContentChange counts and quotes lines glibc does not read as a directive (issue 20 low:
 * the Resolver diff's summary said "only comments or spacing" for an added unknown keyword).
 */
import { describe, expect, it } from 'vitest';
import { describeContentChange, describeResolverChanges } from './resolver-compare';

describe('describeContentChange: lines no resolv.conf(5) directive', () => {
  it('an added unknown keyword is named, not "only comments or spacing"', () => {
    expect(describeContentChange('nameserver 192.0.2.53\n', 'nameserver 192.0.2.53\nport 5353\n')).toBe('lines glibc ignores (no resolv.conf(5) directive): 1 added ("port 5353")');
  });
  it('added and removed lines, with the directives that changed; an indented line counts too', () => {
    expect(describeContentChange('nameserver 192.0.2.53\nfoo bar\n', 'nameserver 192.0.2.99\n  nameserver 192.0.2.1\nhello\n')).toBe(
      'nameserver 192.0.2.53 → 192.0.2.99; lines glibc ignores (no resolv.conf(5) directive): 2 added ("nameserver 192.0.2.1", "hello"), 1 removed ("foo bar")',
    );
  });
  it('more than three are counted; the same unknown lines moved around are no change', () => {
    expect(describeContentChange('nameserver 192.0.2.53\n', 'nameserver 192.0.2.53\na 1\nb 2\nc 3\nd 4\ne 5\n')).toBe('lines glibc ignores (no resolv.conf(5) directive): 5 added ("a 1", "b 2", "c 3", 2 more)');
    expect(describeContentChange('x 1\nnameserver 192.0.2.53\ny 2\n', 'y 2\n# moved\nnameserver 192.0.2.53\nx 1\n')).toBe('only comments or spacing');
    // A repeated line counts once per copy.
    expect(describeContentChange('x 1\n', 'x 1\nx 1\n')).toBe('lines glibc ignores (no resolv.conf(5) directive): 1 added ("x 1")');
  });
});

describe('describeResolverChanges: a side that is no text is named, never quoted (walk 8 M2)', () => {
  const file = (bytes: Uint8Array | string) => ({ kind: 'file' as const, contentBase64: Buffer.from(bytes).toString('base64'), mode: 0o644, uid: 0, gid: 0, immutable: false });
  it('64 NUL bytes before a nameserver line: "binary (holds NUL bytes)", no \\u0000 escape', () => {
    const nul = Buffer.concat([Buffer.alloc(64), Buffer.from('nameserver 192.0.2.53\n\0\0\0garbage\n')]);
    const changes = describeResolverChanges(file('nameserver 192.0.2.1\n'), file(nul));
    expect(changes).toEqual([`content changed: text → binary (holds NUL bytes), not shown (21 bytes → ${nul.length} bytes)`]);
    expect(changes.join('')).not.toContain('\\u0000');
    expect(changes.join('')).not.toContain('\0');
  });
  it('a saved side that is not UTF-8, and both sides binary', () => {
    expect(describeResolverChanges(file(Uint8Array.of(0xff, 0x0a)), file('nameserver 192.0.2.1\n'))).toEqual(['content changed: binary (not UTF-8 text) → text, not shown (2 bytes → 21 bytes)']);
    expect(describeResolverChanges(file('\0a'), file('\0b'))).toEqual(['content changed: binary (holds NUL bytes) → binary (holds NUL bytes), not shown (2 bytes → 2 bytes)']);
  });
});
