import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DNSMASQ_CACHE_SIZE, DNSMASQ_MAX_LINE_BYTES, renderDnsmasqArgs, renderDnsmasqConfig } from './dnsmasq-config';
import { asciiLower } from './proxy-upstream';
import { testPlan, testRoute } from '../e2e/support/test-plan';
import { hostileOrLong, isClearError, outcome, routeArb, upstreamArb } from '../e2e/support/hostile-arbitraries';
import type { ProxyPlan, ZoneRoute } from './types';

/** A plan with hostile zones, upstreams, reasons and log path; listener fixed at 127.0.0.1:53. */
const planArb = fc
  .record({
    routes: fc.array(routeArb, { maxLength: 6 }),
    upstreams: fc.array(upstreamArb, { maxLength: 3 }),
    logFile: fc.oneof({ weight: 3, arbitrary: fc.stringMatching(/^\/[a-z0-9._/-]{1,40}$/) }, { weight: 1, arbitrary: hostileOrLong() }, { weight: 1, arbitrary: fc.integer({ min: 400, max: 1200 }).map((n) => `/${'l'.repeat(n)}`) }),
    verbose: fc.boolean(),
  })
  .map(({ routes, upstreams, logFile, verbose }): ProxyPlan => ({
    engine: 'dnsmasq',
    listeners: [{ address: '127.0.0.1', port: 53 }],
    zones: routes.map((r): ZoneRoute => ({ zone: r.zone, upstream: r.upstream, source: 'corefile', reason: r.reason, clusterDomain: false, reverse: r.reverse })),
    upstreams,
    clusterCidrs: [],
    logFile,
    timeoutMs: 10_000,
    verbose,
  }));

/** dnsmasq text of a (valid IPv4) upstream: `ip` or `ip#port`. */
const srvText = (u: string) => (u.endsWith(':53') ? u.slice(0, -3) : u.replace(':', '#'));

/**
 * Options as dnsmasq's read_file sees them: fgets with a 1025-byte buffer (so an over-long line
 * becomes two), then a line whose first non-blank character is `#` is a comment.
 */
function dnsmasqOptions(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const bytes = new TextEncoder().encode(line);
    for (let k = 0; k < Math.max(bytes.length, 1); k += 1024) {
      const piece = new TextDecoder().decode(bytes.slice(k, k + 1024)).trim();
      if (piece !== '' && !piece.startsWith('#')) out.push(piece);
    }
  }
  return out;
}

describe('renderDnsmasqConfig on hostile plans', () => {
  it('throws a clear Error, or renders exactly the options the plan implies (no injected line), each line under the fgets limit', () => {
    fc.assert(
      fc.property(planArb, (plan) => {
        const r = outcome(() => renderDnsmasqConfig(plan));
        if (!r.ok) {
          expect(isClearError(r.error), String(r.error)).toBe(true);
          return;
        }
        const out = r.value;
        expect(out).not.toMatch(/[\r\u0000\u0085\u2028\u2029]/);
        for (const line of out.split('\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(DNSMASQ_MAX_LINE_BYTES);
        // Zones are compared case-insensitively in ASCII (RFC 4343): the renderer writes them lower-case.
        const zones = [...new Set(plan.zones.map((z) => asciiLower(z.zone)))];
        const upstreamOf = (zone: string) => plan.zones.find((z) => asciiLower(z.zone) === zone)!.upstream;
        expect(dnsmasqOptions(out)).toEqual([
          'no-resolv',
          'no-hosts',
          'bind-interfaces',
          'port=53',
          'no-dhcp-interface=',
          ...zones.map((z) => `server=/${z}/${srvText(upText(upstreamOf(z)))}`),
          'strict-order',
          ...[...new Set(plan.upstreams.map((u) => srvText(upText(u))))].map((s) => `server=${s}`),
          `cache-size=${DNSMASQ_CACHE_SIZE}`,
          `log-facility=${plan.logFile}`,
          ...(plan.verbose ? ['log-queries=extra'] : []),
        ]);
      }),
      { numRuns: 400 },
    );
  });

  it('renderDnsmasqArgs: a hostile config path is refused or is one argv word equal to the input', () => {
    fc.assert(
      fc.property(hostileOrLong(), (path) => {
        const r = outcome(() => renderDnsmasqArgs(path, ['127.0.0.1']));
        if (!r.ok) {
          expect((r.error as Error).message).toMatch(/must be an absolute plain path .* of at most 512 characters; use \/etc\/k2s\/dnsmasq\.conf\.$/s);
          return;
        }
        expect(r.value).toEqual(['--keep-in-foreground', `--conf-file=${path}`, '--pid-file=', '--listen-address=127.0.0.1', '--user=nobody', '--group=nogroup']);
      }),
      { numRuns: 300 },
    );
  });
});

/** `ip:53` for a bare IPv4, the text unchanged otherwise. */
function upText(u: string): string {
  return u.includes(':') ? u : `${u}:53`;
}

describe('regressions found by the properties', () => {
  const longReason = `${'x'.repeat(1100)} bogus-option-zz`;

  it('cuts a reason comment to the line limit so its tail cannot become an option', () => {
    const text = renderDnsmasqConfig(testPlan({ zones: [testRoute('cluster.local', longReason)] }));
    const comment = text.split('\n').find((l) => l.startsWith('# cluster.local: '))!;
    expect(new TextEncoder().encode(comment).length).toBe(DNSMASQ_MAX_LINE_BYTES);
    expect(comment.endsWith('x…')).toBe(true);
    expect(text).not.toContain('bogus-option-zz');
  });

  it('cuts on a code point boundary (4-byte emoji)', () => {
    const text = renderDnsmasqConfig(testPlan({ zones: [testRoute('cluster.local', '🙂'.repeat(400))] }));
    const comment = text.split('\n').find((l) => l.startsWith('# cluster.local: '))!;
    expect(comment).toBe(`# cluster.local: ${'🙂'.repeat(245)}…`);
    expect(new TextEncoder().encode(comment).length).toBe(2 + 15 + 245 * 4 + 3);
  });

  it('refuses a log path longer than 512 characters', () => {
    expect(() => renderDnsmasqConfig(testPlan({ logFile: `/${'a'.repeat(1100)}` }))).toThrow(
      'must be an absolute plain path (letters, digits, . _ - /) of at most 512 characters; use /var/log/dnsproxy/dnsproxy.log.',
    );
  });

  const hasDnsmasq = spawnSync('dnsmasq', ['--version']).status === 0;
  const title = hasDnsmasq ? 'real dnsmasq --test accepts the file with a 1100-byte reason' : 'skipped: dnsmasq is not installed, so dnsmasq --test cannot run';
  it.skipIf(!hasDnsmasq)(title, () => {
    const dir = mkdtempSync(join(tmpdir(), 'k2s-dnsmasq-prop-'));
    const conf = join(dir, 'dnsmasq.conf');
    writeFileSync(conf, renderDnsmasqConfig(testPlan({ logFile: join(dir, 'dnsmasq.log'), upstreams: ['192.168.1.1'], zones: [testRoute('cluster.local', longReason)] })));
    const res = spawnSync('dnsmasq', ['--test', ...renderDnsmasqArgs(conf, ['127.0.0.1'])], { encoding: 'utf8' });
    // Before the fix: "dnsmasq: bad option at line 16" (the reason's tail read as an option).
    writeFileSync(conf, `# ${'x'.repeat(1022)}bogus-option-zz\n`);
    const unfixed = spawnSync('dnsmasq', ['--test', `--conf-file=${conf}`], { encoding: 'utf8' });
    rmSync(dir, { recursive: true, force: true });
    expect(res.stderr.trim()).toBe('dnsmasq: syntax check OK.');
    expect(unfixed.stderr.trim()).toMatch(/^dnsmasq: bad option at line 2 of /);
  });
});
