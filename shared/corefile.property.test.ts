import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_BLOCK_DEPTH, MAX_COREFILE_TOKENS, parseCorefile, tokenizeCorefile } from './corefile-parser';
import { zonesFromCorefile } from './corefile';
import { checkZoneName } from './proxy-upstream';
import { hostileString, isClearError, outcome } from '../e2e/support/hostile-arbitraries';

const kubeadm = readFileSync(new URL('../fixtures/corefiles/kubeadm-default.Corefile', import.meta.url), 'utf8');

/** Corefile-ish text: keys, plugins, braces (balanced or not), quotes, snippets, imports, hostile words. */
const corefileArb = fc
  .array(
    fc.oneof(
      fc.constantFrom('.:53', 'cluster.local:53', 'consul:53', 'dns://mesh.local:53', '10.0.0.0/24', 'tls://.:853', '{$ZONE}', 'a,b'),
      fc.constantFrom('kubernetes cluster.local in-addr.arpa ip6.arpa', 'forward . /etc/resolv.conf', 'forward consul 10.0.0.5', 'hosts', '172.19.1.100 k2s.cluster.local', 'etcd cluster.local', 'file db.zone example.org', 'fallthrough', 'cache 30'),
      fc.constantFrom('{', '}', '{', '}', '"', '\\"', '#', '(snip)', 'import snip', 'import *.server', 'import missing', 'import /etc/coredns/custom/*.server'),
      hostileString(4),
    ),
    { maxLength: 40 },
  )
  .chain((words) => fc.array(fc.constantFrom(' ', '\n', '\t', '\r\n', '\v', '\u2028', '\u00a0', '\u0085'), { minLength: words.length, maxLength: words.length }).map((seps) => words.map((w, k) => w + seps[k]).join('')));

/** coredns-custom ConfigMap data, possibly importing itself. */
const extraFilesArb = fc.option(
  fc.dictionary(fc.constantFrom('a.server', 'b.server', 'c.override', 'x.server'), fc.oneof(corefileArb, fc.constantFrom('import *.server\n', 'import *.server\nimport *.server\n', 'foo:53 {\n import *.server\n}\n'))),
  { nil: undefined },
);

describe('parseCorefile on hostile input', () => {
  it('returns or throws a plain Error with a message: never a TypeError, RangeError or a hang', () => {
    fc.assert(
      fc.property(corefileArb, extraFilesArb, (text, extra) => {
        const r = outcome(() => parseCorefile(text, extra));
        if (!r.ok) {
          expect(isClearError(r.error), String(r.error)).toBe(true);
          return;
        }
        for (const b of r.value.serverBlocks) {
          // Quoted keys may hold spaces (Caddy allows them); empty keys never survive the comma split.
          expect(b.keys.every((k) => k !== '' && !k.includes(','))).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('tokenizes arbitrary code points without an empty unquoted token (the endless-loop symptom)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const r = outcome(() => tokenizeCorefile(text));
        if (!r.ok) {
          expect((r.error as Error).message).toMatch(/a quoted string is never closed; add the closing quote\.$/);
          return;
        }
        for (const t of r.value) if (!t.quoted) expect(t.text).not.toBe('');
        expect(r.value.length).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 500 },
    );
  });
});

describe('zonesFromCorefile on hostile input', () => {
  it('returns only valid DNS names (labels 1–63, at most 253) or throws a plain Error', () => {
    // The kubeadm Corefile plus hostile blocks and hostile zone words in the kubernetes line.
    const arb = fc.tuple(corefileArb, fc.array(fc.oneof(hostileString(3), fc.stringMatching(/^[a-z]{60,70}(\.[a-z]{1,3})?$/)), { maxLength: 4 }), extraFilesArb);
    fc.assert(
      fc.property(arb, ([extraText, kubeZones, extra]) => {
        const corefile = kubeadm.replace('kubernetes cluster.local', `kubernetes cluster.local ${kubeZones.map((z) => z.replace(/[\s{}"#]/g, '')).join(' ')}`) + extraText;
        const r = outcome(() => zonesFromCorefile({ corefile, extraFiles: extra, kubeDnsIp: '172.21.0.10', serviceCidrs: ['172.21.0.0/16'], podCidrs: ['172.20.0.0/16'] }));
        if (!r.ok) {
          expect(isClearError(r.error), String(r.error)).toBe(true);
          return;
        }
        for (const z of r.value.zones) {
          expect(checkZoneName(z.zone)).toBe(z.zone);
          expect(z.upstream).toBe('172.21.0.10');
        }
        expect(new Set(r.value.zones.map((z) => z.zone)).size).toBe(r.value.zones.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('regressions found by the properties', () => {
  it('a vertical tab, form feed, NBSP, U+2028 or U+0085 between tokens is whitespace (it used to loop forever)', () => {
    for (const sp of ['\v', '\f', '\u00a0', '\u2028', '\u0085']) {
      const parsed = parseCorefile(`.:53 {\n${sp}forward${sp}. 1.1.1.1\n}\n`);
      expect(parsed.serverBlocks[0]!.directives).toEqual([{ name: 'forward', args: ['.', '1.1.1.1'], block: null, line: 2, file: 'Corefile' }]);
    }
  });

  it('deeply nested blocks fail with a clear Error instead of a stack overflow', () => {
    // Line 1 opens the server block; line k+1 opens level k, so level 65 is on line 66.
    // 5 000 levels used to overflow the stack (RangeError) before any message.
    const deep = `.:53 {\n${'a {\n'.repeat(5_000)}${'}\n'.repeat(5_001)}`;
    expect(() => parseCorefile(deep)).toThrow(`Corefile line ${MAX_BLOCK_DEPTH + 2}: blocks nest deeper than ${MAX_BLOCK_DEPTH} levels; check the braces.`);
    // 64 levels are still fine.
    const ok = `.:53 {\n${'a {\n'.repeat(MAX_BLOCK_DEPTH)}${'}\n'.repeat(MAX_BLOCK_DEPTH + 1)}`;
    expect(parseCorefile(ok).serverBlocks).toHaveLength(1);
  });

  it('imports that fan out (10 per level, 9 levels) stop at the token bound instead of hanging', () => {
    // Within the depth bound, but 10^9 copies of the leaf: this used to hang, then run out of memory.
    const snippets = Array.from({ length: 9 }, (_, k) => `(s${k}) {\n${`import s${k + 1}\n`.repeat(10)}}\n`).join('');
    const text = `${snippets}(s9) {\n cache 30\n}\n.:53 {\n import s0\n}\n`;
    expect(() => parseCorefile(text)).toThrow(`imports expand to more than ${MAX_COREFILE_TOKENS} tokens (repeated imports?)`);
  });

  it('coredns-custom files that import each other by glob stop with a clear Error', () => {
    const extra = { 'a.server': 'import *.server\nimport *.server\n', 'b.server': 'import *.server\n' };
    expect(() => parseCorefile('.:53 {\n import *.server\n}\n', extra)).toThrow(/line 1: (imports nest deeper than 10 \(a cycle\?\)|imports expand to more than)/);
  });

  it('a very long file of bare key lines before one block parses in linear time', () => {
    const text = `${'a\n'.repeat(15_000)}{\n}\n`;
    const t0 = Date.now();
    expect(parseCorefile(text).serverBlocks[0]!.keys).toHaveLength(15_000);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('a Corefile zone with the Kelvin sign U+212A is not routed as the ASCII name kube.local', () => {
    const corefile = kubeadm.replace('kubernetes cluster.local', 'kubernetes cluster.local \u212Aube.local');
    const out = zonesFromCorefile({ corefile, kubeDnsIp: '172.21.0.10', serviceCidrs: [], podCidrs: [] });
    expect(out.zones.map((z) => z.zone)).toEqual(['cluster.local']);
    expect(out.refused).toEqual([{ zone: '\u212Aube.local', reason: 'Corefile server block ".:53", plugin "kubernetes"', why: 'not a plain domain name (a placeholder such as ".svc"?)', allowable: false }]);
  });

  it('a zone with a 64-character label is warned about, not routed', () => {
    const long = 'a'.repeat(64);
    const corefile = kubeadm.replace('kubernetes cluster.local', `kubernetes cluster.local ${long}.example`);
    const out = zonesFromCorefile({ corefile, kubeDnsIp: '172.21.0.10', serviceCidrs: [], podCidrs: [] });
    expect(out.zones.map((z) => z.zone)).toEqual(['cluster.local']);
    expect(out.refused).toEqual([{ zone: `${long}.example`, reason: 'Corefile server block ".:53", plugin "kubernetes"', why: 'not a plain domain name (a placeholder such as ".svc"?)', allowable: false }]);
  });
});
