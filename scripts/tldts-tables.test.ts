import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { precomputeTldtsTables, TABLES_LOOP, TLDTS_FILE } from './tldts-tables.mjs';

const require = createRequire(import.meta.url);
const file = require.resolve('tldts');
const source = readFileSync(file, 'utf8');

type Tables = { edgeOffset: Uint32Array; edgeHash: Uint32Array; wildcardEdge: Int32Array };
type Parse = (name: string, opts?: { allowPrivateDomains?: boolean }) => Record<string, unknown>;

/** Runs a version of tldts's file as a CommonJS module; its exports and its three tables. */
function load(text: string): { parse: Parse; tables: Tables } {
  const fn = vm.runInNewContext(`(function (exports, require, module) {\n${text}\nreturn { edgeOffset, edgeHash, wildcardEdge };\n})`, {}) as (e: object, r: NodeJS.Require, m: { exports: { parse: Parse } }) => Tables;
  const module = { exports: {} as { parse: Parse } };
  const tables = fn(module.exports, require, module);
  return { parse: module.exports.parse, tables };
}

// ICANN and private suffixes, wildcard (*.kawasaki.jp, *.ck) and exception rules
// (!city.kawasaki.jp, !www.ck), unlisted TLDs under `*`, IDN, the zones K2s forwards.
const NAMES = ['cluster.local', 'local', 'svc.cluster.local', 'com', 'example.com', 'a.b.example.co.uk', 'co.uk', 'uk', 'github.io', 'user.github.io', 'kawasaki.jp', 'foo.kawasaki.jp', 'x.foo.kawasaki.jp', 'city.kawasaki.jp', 'www.ck', 'a.b.ck', 'ck', 'in-addr.arpa', '10.in-addr.arpa', 'ip6.arpa', 'home.arpa', 'internal', 'corp.internal', 'test', 'k8s.test', 'xn--p1ai', 'пример.рф', 'appspot.com', 'a.appspot.com', 's3.amazonaws.com', 'b.s3.amazonaws.com', 'blogspot.co.uk', 'localhost', 'nope', 'a.nope', 'gov.uk', 'service.gov.uk', 'cloudfront.net'];

describe('tldts tables computed at build time', () => {
  it('the loop is in the installed tldts once, and the patched file no longer holds it', () => {
    expect(TLDTS_FILE.test(file)).toBe(true);
    expect(source.split(TABLES_LOOP).length).toBe(2);
    expect(precomputeTldtsTables(source).includes(TABLES_LOOP)).toBe(false);
  });

  it('the patched file builds exactly the tables the package computes when it loads', () => {
    const original = load(source).tables;
    const patched = load(precomputeTldtsTables(source)).tables;
    expect(original.edgeHash.length).toBeGreaterThan(5000);
    expect(original.wildcardEdge.some((e) => e >= 0)).toBe(true);
    for (const k of ['edgeOffset', 'edgeHash', 'wildcardEdge'] as const) {
      expect(patched[k].constructor.name).toBe(original[k].constructor.name);
      expect(Array.from(patched[k])).toEqual(Array.from(original[k]));
    }
  });

  it('the patched module answers as the package does, private domains on and off', () => {
    const patched = load(precomputeTldtsTables(source)).parse;
    const pkg = require('tldts') as { parse: Parse };
    for (const name of NAMES) {
      for (const allowPrivateDomains of [true, false]) expect(patched(name, { allowPrivateDomains })).toEqual(pkg.parse(name, { allowPrivateDomains }));
    }
    expect(patched('user.github.io', { allowPrivateDomains: true })).toMatchObject({ publicSuffix: 'github.io', isPrivate: true, domain: 'user.github.io' });
    expect(patched('x.foo.kawasaki.jp')).toMatchObject({ publicSuffix: 'foo.kawasaki.jp', isIcann: true });
    expect(patched('city.kawasaki.jp')).toMatchObject({ publicSuffix: 'kawasaki.jp', domain: 'city.kawasaki.jp' });
    expect(patched('cluster.local', { allowPrivateDomains: true })).toMatchObject({ publicSuffix: 'local', isIcann: false, isPrivate: false });
  });

  it('a tldts without that loop, or with it twice, fails the build with the fix', () => {
    expect(() => precomputeTldtsTables(source.replace(TABLES_LOOP, ''))).toThrow(/update TABLES_LOOP/);
    expect(() => precomputeTldtsTables(source + TABLES_LOOP)).toThrow(/update TABLES_LOOP/);
  });
});
