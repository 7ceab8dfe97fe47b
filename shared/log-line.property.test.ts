import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLogLine } from './log-line';
import { hostileOrLong, hostileString, PROTOTYPE_KEYS } from '../e2e/support/hostile-arbitraries';

const LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'];

/** Lines that start like each supported format, then go hostile. */
const logLineArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  hostileOrLong(),
  fc.tuple(fc.constantFrom('2026/11/29 15:04:05.123456 INFO ', '2026/11/29 15:04:05 [warn] ', '2023/06/01 12:00:00 1#2 [info] ', 'time=2026-11-29T15:04:05Z level=ERROR ', 'Nov 29 15:04:05 dnsmasq[42]: ', 'dnsmasq[1]: 7 127.0.0.1/5353 query[A] ', '2026/11/29 15:04:05 '), fc.array(fc.oneof(hostileString(4), fc.constantFrom(...PROTOTYPE_KEYS.map((k) => `${k}=x`), 'msg="a \\"b\\" c"', 'k="\\x41"', 'k="unterminated', 'addr=127.0.0.1:53', 'bind: address already in use')), { maxLength: 8 }), fc.constantFrom('', '\n', '\r\n', '\r'))
    .map(([head, words, eol]) => `${head}${words.join(' ')}${eol}`),
);

describe('parseLogLine on hostile input', () => {
  it('never throws, keeps raw exactly, and gives a known level, string fields and a one-line message', () => {
    fc.assert(
      fc.property(logLineArb, (raw) => {
        const line = parseLogLine(raw, { year: 2026 });
        expect(line.raw).toBe(raw);
        expect(LEVELS).toContain(line.level);
        expect(typeof line.message).toBe('string');
        expect(line.time === null || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(line.time) || raw.startsWith('time=')).toBe(true);
        for (const [k, v] of Object.entries(line.fields)) {
          expect(typeof k).toBe('string');
          expect(typeof v).toBe('string');
        }
        // Only parsing a trailing line end, never a line break in the middle: the message stays a substring of raw.
        if (!/"/.test(raw)) expect(raw.includes(line.message)).toBe(true);
        if (/bind: address already in use/.test(raw.replace(/\r?\n$/, ''))) expect(line.level).toBe('ERROR');
      }),
      { numRuns: 500 },
    );
  });

  it('a field named like an Object.prototype property is kept as an own string field', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PROTOTYPE_KEYS), fc.stringMatching(/^[a-z0-9]{1,8}$/), (key, value) => {
        const line = parseLogLine(`2026/11/29 15:04:05.123456 INFO hello ${key}=${value}`);
        expect(Object.hasOwn(line.fields, key)).toBe(true);
        expect(line.fields[key]).toBe(value);
        expect(line.message).toBe('hello');
      }),
      { numRuns: 60 },
    );
  });
});

describe('regressions found by the properties', () => {
  it('keeps a `__proto__=0` field as a field (it used to be dropped by the prototype setter)', () => {
    const line = parseLogLine('2026/11/29 15:04:05.123456 INFO hello __proto__=0 addr=127.0.0.1:53');
    expect(Object.entries(line.fields)).toEqual([['__proto__', '0'], ['addr', '127.0.0.1:53']]);
    expect(Object.getPrototypeOf(line.fields)).toBe(Object.prototype);
  });
});
