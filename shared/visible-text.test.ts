import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asciiForm, escapeInvisible, visibleName } from './visible-text';

describe('visible text', () => {
  it('escapes controls, bidi, zero-width and tag characters; keeps other text', () => {
    expect(escapeInvisible('a\u001b[31mb')).toBe('a\\x1b[31mb');
    expect(escapeInvisible('x\u202ey\u2066z\u200b\ufeff\u00ad\u061c')).toBe('x\\u202ey\\u2066z\\u200b\\ufeff\\u00ad\\u061c');
    expect(escapeInvisible('tag\u{e0041}')).toBe('tag\\u{e0041}');
    expect(escapeInvisible('grüße.example')).toBe('grüße.example');
  });

  it('gives the punycode of a non-ASCII name (mixed scripts included), none for ASCII', () => {
    expect(asciiForm('gооgle.com')).toBe('xn--ggle-55da.com');
    expect(visibleName('gооgle.com')).toBe('gооgle.com (xn--ggle-55da.com)');
    expect(asciiForm('пример.рф.')).toBe('xn--e1afmkfd.xn--p1ai.');
    expect(asciiForm('google.com')).toBeNull();
  });

  it('property: the output never holds a character the escaper targets', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => {
      expect(visibleName(s)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/);
    }));
  });
});
