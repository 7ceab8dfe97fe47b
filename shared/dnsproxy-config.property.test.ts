import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderDnsproxyArgs, renderDnsproxyConfig } from './dnsproxy-config';
import { isDnsproxyPrivateReverseZone } from './dnsproxy-private';
import { asciiLower, checkZoneName } from './proxy-upstream';
import { hostileOrLong, hostileString, isClearError, outcome, routeArb, upstreamArb } from '../e2e/support/hostile-arbitraries';
import type { ProxyPlan, ZoneRoute } from './types';

/** A plan with hostile zones, upstreams, reasons and timeouts; listener fixed at 127.0.0.1:53. */
const planArb = fc
  .record({
    routes: fc.array(routeArb, { maxLength: 6 }),
    upstreams: fc.array(upstreamArb, { maxLength: 3 }),
    timeoutMs: fc.oneof(fc.integer({ min: 1, max: 120_000 }), fc.constantFrom(0, -1, 1.5, Number.NaN, Infinity)),
  })
  .map(({ routes, upstreams, timeoutMs }): ProxyPlan => ({
    engine: 'adguard',
    listeners: [{ address: '127.0.0.1', port: 53 }],
    zones: routes.map((r): ZoneRoute => ({ zone: r.zone, upstream: r.upstream, source: 'corefile', reason: r.reason, clusterDomain: false, reverse: r.reverse })),
    upstreams,
    clusterCidrs: [],
    logFile: '/var/log/dnsproxy/dnsproxy.log',
    timeoutMs,
    verbose: false,
  }));

/** dnsproxy text of a (valid IPv4) upstream: port 53 made explicit. */
const upText = (u: string) => (u.includes(':') ? u : `${u}:53`);

/** The `[/zones/]upstream` entries the plan implies, computed independently of the renderer. */
function expectedRoutes(zones: ZoneRoute[]): string[] {
  const groups = new Map<string, string[]>();
  for (const z of zones) {
    const g = groups.get(upText(z.upstream)) ?? [];
    // Written lower-case (ASCII only, RFC 4343).
    const zone = asciiLower(z.zone);
    if (!g.includes(zone)) g.push(zone);
    groups.set(upText(z.upstream), g);
  }
  return [...groups].map(([up, zs]) => `[/${zs.join('/')}/]${up}`);
}

describe('renderDnsproxyConfig on hostile plans', () => {
  it('throws a clear Error, or renders YAML whose values are exactly the plan (no injected key, entry or line)', () => {
    fc.assert(
      fc.property(planArb, (plan) => {
        const r = outcome(() => renderDnsproxyConfig(plan));
        if (!r.ok) {
          expect(isClearError(r.error), String(r.error)).toBe(true);
          return;
        }
        const out = r.value;
        // Accepted zones are plain ASCII names (checkZoneName only lower-cases A–Z).
        for (const z of plan.zones) expect(z.zone).toMatch(/^[A-Za-z0-9_.-]+$/);
        // go-yaml (dnsproxy) also breaks lines on CR, NEL, U+2028 and U+2029: none may appear.
        expect(out).not.toMatch(/[\r\u0000\u0085\u2028\u2029]/);
        const defaults = [...new Set(plan.upstreams.map(upText))];
        const ms = plan.timeoutMs;
        // glibc order: the first default in upstream, the rest in fallback with the zones.
        const half = Math.max(Math.min(1000, ms), Math.round(ms / 2));
        const rest = defaults.slice(1);
        expect(parse(out)).toEqual({
          'listen-addrs': ['127.0.0.1'],
          'listen-ports': [53],
          upstream: [...expectedRoutes(plan.zones), ...defaults.slice(0, 1)],
          ...(rest.length ? { fallback: [...expectedRoutes(plan.zones), ...rest] } : {}),
          'upstream-mode': 'load_balance',
          'use-private-rdns': true,
          'private-rdns-upstream': [...expectedRoutes(plan.zones.filter((z) => z.reverse && isDnsproxyPrivateReverseZone(z.zone))), ...defaults.slice(0, 1)],
          cache: true,
          timeout: half % 1000 === 0 ? `${half / 1000}s` : `${half}ms`,
          'hosts-file-enabled': false,
          dnssec: false,
        });
        // Line count: every non-comment line is one key or one list entry of the values above.
        const structural = out.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
        // 10 key lines (11 with fallback), then one line per list entry: listen-addrs (1), listen-ports (1), upstream, fallback, private-rdns-upstream.
        const entries = 1 + 1 + expectedRoutes(plan.zones).length + 1 + (rest.length ? 1 + expectedRoutes(plan.zones).length + rest.length : 0) + expectedRoutes(plan.zones.filter((z) => z.reverse && isDnsproxyPrivateReverseZone(z.zone))).length + 1;
        expect(structural).toHaveLength(10 + entries);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps each reason on its own comment lines: no reason can end a comment', () => {
    fc.assert(
      fc.property(hostileOrLong(), (reason) => {
        const plan: ProxyPlan = {
          engine: 'adguard',
          listeners: [{ address: '127.0.0.1', port: 53 }],
          zones: [{ zone: 'cluster.local', upstream: '172.21.0.10', source: 'corefile', reason, clusterDomain: true, reverse: false }],
          upstreams: ['192.168.1.1'],
          clusterCidrs: [],
          logFile: '/var/log/dnsproxy/dnsproxy.log',
          timeoutMs: 10_000,
          verbose: false,
        };
        const out = renderDnsproxyConfig(plan);
        const lines = out.split(/\r\n|[\n\r\u0085\u2028\u2029]/);
        const reasonLines = lines.filter((l) => l.includes('cluster.local:'));
        expect(reasonLines).toHaveLength(1);
        expect(reasonLines[0]!.trimStart().startsWith('#')).toBe(true);
        expect(parse(out).upstream).toEqual(['[/cluster.local/]172.21.0.10:53', '192.168.1.1:53']);
      }),
      { numRuns: 300 },
    );
  });

  it('renderDnsproxyArgs: a hostile config path is refused or is one argv word equal to the input', () => {
    fc.assert(
      fc.property(fc.oneof(hostileOrLong(), fc.stringMatching(/^\/[a-z0-9._/-]{1,40}$/)), fc.boolean(), (path, verbose) => {
        const r = outcome(() => renderDnsproxyArgs(path, verbose));
        if (!r.ok) {
          expect((r.error as Error).message).toMatch(/must be an absolute plain path .*; use \/etc\/k2s\/dnsproxy\.yaml\.$/s);
          return;
        }
        expect(r.value).toEqual(verbose ? [`--config-path=${path}`, '-v'] : [`--config-path=${path}`]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('checkZoneName on hostile zones', () => {
  it('returns the zone with only A–Z lower-cased, or throws; never a different name', () => {
    fc.assert(
      fc.property(fc.oneof(hostileString(), fc.stringMatching(/^[A-Za-z0-9.-]{1,20}$/)), (zone) => {
        const r = outcome(() => checkZoneName(zone));
        if (!r.ok) {
          expect((r.error as Error).message).toBe(`Zone "${zone}" is not a plain domain name; remove it from the zone list or fix the Corefile.`);
          return;
        }
        expect(r.value).toBe(asciiLower(zone));
        expect(r.value).toMatch(/^[a-z0-9_.-]+$/);
      }),
      { numRuns: 400 },
    );
  });
});

describe('regressions found by the properties', () => {
  it('the Kelvin sign U+212A is not the letter k: "\u212Aube.local" is refused, not routed as kube.local', () => {
    expect(() => checkZoneName('\u212Aube.local')).toThrow('Zone "\u212Aube.local" is not a plain domain name');
    expect(checkZoneName('Cluster.LOCAL')).toBe('cluster.local');
  });

  it('a reason holding U+2028, U+2029 or NEL stays inside its comment', () => {
    const plan: ProxyPlan = {
      engine: 'adguard',
      listeners: [{ address: '127.0.0.1', port: 53 }],
      zones: [{ zone: 'cluster.local', upstream: '172.21.0.10', source: 'corefile', reason: 'a\u2028upstream: [6.6.6.6]\u2029b\u0085c', clusterDomain: true, reverse: false }],
      upstreams: ['192.168.1.1'],
      clusterCidrs: [],
      logFile: '/var/log/dnsproxy/dnsproxy.log',
      timeoutMs: 10_000,
      verbose: false,
    };
    expect(renderDnsproxyConfig(plan)).toContain('\n  # cluster.local: a upstream: [6.6.6.6] b c\n  - "[/cluster.local/]172.21.0.10:53"\n');
  });
});
