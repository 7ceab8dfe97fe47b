/**
 * fast-check arbitraries for hostile strings, shared by the `*.property.test.ts` files: the
 * characters that break config lines, comments, quoting and line splitting.
 * Test-only: imported by tests, never by app code.
 */
import fc from 'fast-check';

/**
 * Characters that end a line or a value somewhere: LF, CR, NUL, quotes, comment starters, dnsmasq's
 * `/` and `#`, YAML/dnsproxy `[/`, systemd `%` `$` `\`, C0/C1 controls, and the Unicode line
 * breaks U+0085 (NEL), U+2028 and U+2029 that YAML 1.1 parsers (go-yaml, libyaml) split lines on.
 */
export const HOSTILE_CHARS = [
  '\n', '\r', '\r\n', '\0', '\t', '\v', '\f', '\u001b', '\u007f', '\u0085', '\u00a0', '\u2028', '\u2029', '\ufeff',
  '"', "'", '`', '#', ';', '[', ']', '[/', '/]', '/', '%', '%n', '$', '${X}', '$(id)', '\\', '\\n', '{', '}', '=',
  ' ', ',', '*', '?', '..', '-', '@', '+', ':', 'é', 'İ', 'K', '🙂', 'nameserver 6.6.6.6', 'server=/x/6.6.6.6',
];

/** Property names inherited from Object.prototype: they break code that indexes plain objects. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype'];

/** A string mixing hostile characters with plain ASCII and arbitrary code points (up to maxPieces pieces). */
export function hostileString(maxPieces = 12): fc.Arbitrary<string> {
  return fc
    .array(
      fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_CHARS) },
        { weight: 3, arbitrary: fc.stringMatching(/^[a-z0-9.-]{1,8}$/) },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
        { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
      ),
      { maxLength: maxPieces },
    )
    .map((parts) => parts.join(''));
}

/** hostileString, sometimes padded to a very long string (1–5 KiB) to cross line-length limits. */
export function hostileOrLong(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: hostileString() },
    { weight: 1, arbitrary: fc.tuple(hostileString(4), fc.integer({ min: 1000, max: 5000 }), hostileString(4)).map(([a, n, b]) => `${a}${'x'.repeat(n)}${b}`) },
  );
}

/** A valid DNS zone, sometimes with upper-case letters (1–4 labels of 1–20 hostname characters). */
export const zoneArb: fc.Arbitrary<string> = fc
  .array(fc.stringMatching(/^[A-Za-z0-9_]([a-zA-Z0-9_-]{0,18}[a-z0-9_])?$/), { minLength: 1, maxLength: 4 })
  .map((labels) => labels.join('.'));

/** A valid IPv4 upstream that is never 127.0.0.1 (the listener used in the plans). */
export const ipv4Arb: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 1, max: 223 }), fc.nat(255), fc.nat(255), fc.integer({ min: 1, max: 254 }))
  .filter(([a]) => a !== 127)
  .map((b) => b.join('.'));

/** What a call did: returned `value`, or threw `error` (properties check both branches). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Runs `fn` and captures its result or what it threw, so a property can assert on either. */
export function outcome<T>(fn: () => T): Outcome<T> {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** True when a thrown value is a plain Error (or a *UsageError) with a sentence-like message: never a TypeError or RangeError. */
export function isClearError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.constructor === Error || error.constructor.name.endsWith('UsageError')) &&
    error.message.length > 10 &&
    /[.;)]$/.test(error.message.trim())
  );
}

/** An upstream: mostly valid IPv4 (some with a port), sometimes hostile text. */
export const upstreamArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: ipv4Arb },
  { weight: 2, arbitrary: fc.tuple(ipv4Arb, fc.integer({ min: 1, max: 65535 })).map(([ip, p]) => `${ip}:${p}`) },
  { weight: 1, arbitrary: fc.tuple(ipv4Arb, hostileString(3)).map(([ip, h]) => `${ip}${h}`) },
  { weight: 1, arbitrary: hostileString(4) },
);

/** A zone route input: a valid zone most of the time, a hostile zone, upstream and reason otherwise. */
export const routeArb = fc.record({
  zone: fc.oneof({ weight: 5, arbitrary: zoneArb }, { weight: 1, arbitrary: hostileOrLong() }, { weight: 1, arbitrary: fc.tuple(zoneArb, hostileString(2)).map(([z, h]) => `${z}${h}`) }),
  upstream: upstreamArb,
  reason: hostileOrLong(),
  reverse: fc.boolean(),
});
