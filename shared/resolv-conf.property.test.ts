import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isIpAddress } from './cidr';
import { inetAton } from './inet-aton';
import { MANAGED_HEADER, MANAGED_NOTE } from './k2s-paths';
import { parseResolvConf, renderManagedResolvConf } from './resolv-conf';
import { hostileOrLong, hostileString, ipv4Arb, isClearError, outcome } from '../e2e/support/hostile-arbitraries';

/** resolv.conf-like text: directive lines with hostile values, mixed LF/CRLF/CR endings. */
const resolvTextArb = fc
  .array(
    fc.tuple(
      fc.constantFrom('nameserver', 'search', 'domain', 'options', 'sortlist', '#', ';', ' nameserver', 'nameserver\t', 'lookup', ''),
      fc.oneof(ipv4Arb, fc.constant('fe80::1%eth0'), hostileOrLong(), fc.string({ unit: 'binary', maxLength: 30 })),
      fc.constantFrom('\n', '\r\n', '\r', '\n\r', ''),
    ),
    { maxLength: 20 },
  )
  .map((lines) => lines.map(([k, v, eol]) => `${k} ${v}${eol}`).join(''));

describe('parseResolvConf on hostile input', () => {
  it('never throws on arbitrary strings and keeps only IP nameservers', () => {
    fc.assert(
      fc.property(fc.oneof(resolvTextArb, fc.string({ unit: 'binary', maxLength: 400 }), hostileOrLong()), (text) => {
        const conf = parseResolvConf(text);
        for (const ns of conf.nameservers) {
          expect(isIpAddress(ns)).toBe(true);
          expect(ns).not.toMatch(/\s/);
        }
        // No value may carry a line break into a later render.
        for (const v of [...conf.search, ...conf.options, ...conf.sortlist]) expect(v).not.toMatch(/[\n\r\t ]/);
      }),
      { numRuns: 400 },
    );
  });

  it('never throws on arbitrary bytes decoded as UTF-8 (invalid sequences become U+FFFD)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        const conf = parseResolvConf(Buffer.from(bytes).toString('utf8'));
        expect(conf.nameservers.every(isIpAddress)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every valid nameserver of a file with hostile lines between them, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(ipv4Arb, hostileString(), fc.constantFrom('\n', '\r\n')), { maxLength: 8 }), (entries) => {
        // The junk sits on its own line after a `#`, so it can never be a directive.
        const text = entries.map(([ip, junk, eol]) => `nameserver ${ip}${eol}# ${junk.replace(/[\r\n\u2028\u2029\u0085]/g, '')}${eol}`).join('');
        expect(parseResolvConf(text).nameservers).toEqual(entries.map(([ip]) => ip));
      }),
      { numRuns: 300 },
    );
  });
});

describe('renderManagedResolvConf on hostile input', () => {
  it('throws a clear Error or renders exactly header, note, nameserver, search, options: the parse gives the inputs back', () => {
    fc.assert(
      fc.property(fc.array(hostileOrLong(), { maxLength: 4 }), fc.array(hostileString(3), { maxLength: 4 }), (search, options) => {
        const r = outcome(() => renderManagedResolvConf({ search, options }));
        if (!r.ok) {
          expect(isClearError(r.error)).toBe(true);
          expect((r.error as Error).message).toMatch(/^(Search domain|resolv\.conf option) ".*" is not a valid .*; remove it from the original resolv\.conf\.$/s);
          return;
        }
        const text = r.value;
        const lines = text.split('\n');
        const expected = 3 + (search.length > 0 ? 1 : 0) + (options.length > 0 ? 1 : 0);
        expect(lines).toHaveLength(expected + 1); // final newline
        expect(lines[0]).toBe(MANAGED_HEADER);
        expect(lines[1]).toBe(MANAGED_NOTE);
        expect(lines[2]).toBe('nameserver 127.0.0.1');
        const back = parseResolvConf(text);
        expect(back).toEqual({
          nameservers: ['127.0.0.1'],
          search: [...new Set(search)].filter((d) => d !== '.'),
          options: [...new Set(options)],
          sortlist: [],
          unknown: [],
        });
      }),
      { numRuns: 400 },
    );
  });

  it('round-trips whatever it accepts from a parsed hostile file', () => {
    fc.assert(
      fc.property(resolvTextArb, (text) => {
        const conf = parseResolvConf(text);
        const r = outcome(() => renderManagedResolvConf({ search: conf.search, options: conf.options }));
        if (!r.ok) {
          expect((r.error as Error).message).toMatch(/not a valid/);
          return;
        }
        const out = r.value;
        const back = parseResolvConf(out);
        expect(back.nameservers).toEqual(['127.0.0.1']);
        expect(back.search).toEqual([...new Set(conf.search)]);
        expect(back.options).toEqual([...new Set(conf.options)]);
        expect(back.unknown).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * glibc's res_init nameserver rule (glibc 2.36 resolv/res_init.c res_vinit_1), for LF files and
 * IPv4: a line is a nameserver line only when it starts with `nameserver` plus a space or tab
 * (MATCH, no leading blanks); the value ends at the first space, tab or newline (strpbrk
 * " \t\n") and the whole token must be an address (__inet_aton_exact). MAXNS is not applied:
 * the parser keeps every nameserver on purpose.
 */
function glibcNameservers(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (!/^nameserver[ \t]/.test(line)) continue;
    const cp = line.slice(10).replace(/^[ \t]+/, '');
    const value = cp.slice(0, cp.search(/[ \t]|$/));
    const quad = inetAton(value);
    if (quad !== null) out.push(quad);
  }
  return out;
}

describe('parseResolvConf agrees with glibc on which nameservers the host used', () => {
  it('takes the same IPv4 nameservers (short forms too) as res_init from LF files with blanks, tabs and comment characters', () => {
    const lineArb = fc
      .tuple(fc.constantFrom('', ' ', '\t', '  '), fc.constantFrom('nameserver', 'nameserver', 'nameservers', 'search'), fc.constantFrom(' ', '\t', ' \t', ''), fc.oneof(ipv4Arb, fc.constantFrom('127.2', '0x7f000002', '10.1', '0177.0.0.1', '08.1', '0x', '1.0xffffff')), fc.constantFrom('', ';x', '#c', ' ;c', '\tx', ' 1.1.1.1', '.5', ';'))
      .map(([lead, kw, sep, ip, tail]) => `${lead}${kw}${sep}${ip}${tail}`);
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 8 }), (lines) => {
        const text = `${lines.join('\n')}\n`;
        expect(parseResolvConf(text).nameservers).toEqual(glibcNameservers(text));
      }),
      { numRuns: 400 },
    );
  });
});

describe('regressions found by the properties', () => {
  it('reads glibc\'s short IPv4 forms as res_init does (inet_aton): `127.2` and `0x7f000002` are 127.0.0.2', () => {
    const conf = parseResolvConf('nameserver 127.2\nnameserver 0x7f000003\nnameserver 0177.0.0.4\nnameserver 10.1\nnameserver 08.1.1.1\n');
    expect(conf.nameservers).toEqual(['127.0.0.2', '127.0.0.3', '127.0.0.4', '10.0.0.1']);
    expect(conf.unknown).toEqual(['nameserver 08.1.1.1']);
  });

  it('reads `nameserver 1.0.0.1#c` and `nameserver 1.0.0.2;x` as glibc 2.36 does: no nameserver (the token is not an address); `1.0.0.3 ;x` is', () => {
    const conf = parseResolvConf('nameserver 1.0.0.1#c\nnameserver 1.0.0.2;x\nnameserver 1.0.0.3 ;x\nnameserver 1.0.0.4\t#c\n');
    expect(conf.nameservers).toEqual(['1.0.0.3', '1.0.0.4']);
    expect(conf.unknown).toEqual(['nameserver 1.0.0.1#c', 'nameserver 1.0.0.2;x']);
  });

  it('does not take a nameserver from an indented line, which glibc never reads', () => {
    const conf = parseResolvConf(' nameserver 10.9.9.9\n\tsearch x.example\nnameserver 10.0.0.1\n  # indented comment\n');
    expect(conf.nameservers).toEqual(['10.0.0.1']);
    expect(conf.search).toEqual([]);
    expect(conf.unknown).toEqual(['nameserver 10.9.9.9', 'search x.example']);
  });
});
