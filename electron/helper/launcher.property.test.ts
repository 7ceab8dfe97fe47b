import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileOrLong, hostileString, outcome, PROTOTYPE_KEYS } from '../../e2e/support/hostile-arbitraries';
import { chooseElevation, helperArgv, type LauncherOptions } from './launcher';
import { helperArgs, HelperUsageError, parseHelperArgs, type HelperRequest } from './request';

const FLAGS = ['--kubeconfig', '--engine', '--kubeswitch', '--verify-name', '--on-drift'];
const KEYS = ['verb', 'kubeconfig', 'engine', 'kubeSwitch', 'verifyName', 'onDrift'];

/** Valid requests: what the app actually sends. */
const validReqArb: fc.Arbitrary<HelperRequest> = fc.oneof(
  fc.record(
    {
      verb: fc.constant('start' as const),
      kubeconfig: fc.stringMatching(/^\/[A-Za-z0-9_+@-]{1,12}(\/[A-Za-z0-9_+@-]{1,12}){0,3}$/),
      engine: fc.constantFrom('adguard' as const, 'dnsmasq' as const),
      kubeSwitch: fc.constantFrom('none', '172.19.1.1', '10.0.0.1'),
      verifyName: fc.constantFrom('kubernetes.default.svc.cluster.local', 'k2s.cluster.local.'),
    },
    { requiredKeys: ['verb'] },
  ),
  fc.record({ verb: fc.constantFrom('stop' as const, 'uninstall' as const), onDrift: fc.constantFrom('keep' as const, 'restore' as const) }, { requiredKeys: ['verb'] }),
);

const optsArb: fc.Arbitrary<LauncherOptions> = fc.record({
  uid: fc.constant(1000),
  nodePath: fc.oneof(fc.constant('/usr/bin/node'), hostileString(6)),
  helperScript: fc.oneof(fc.constant('/opt/k2s dns/bin/k2s-dns-helper.mjs'), hostileOrLong()),
  installedHelper: fc.constant('/usr/lib/k2s-dns/k2s-dns-helper'),
  installGap: fc.constant(() => ({ code: 'HELPER_NOT_INSTALLED' as const, message: 'm' })),
});

describe('elevation never runs user-writable code as root', () => {
  it('as non-root, argv is pkexec + the installed helper or nothing; the checkout script never appears', () => {
    fc.assert(
      fc.property(optsArb, fc.boolean(), validReqArb, (o, installed, req) => {
        const opts: LauncherOptions = { ...o, installGap: () => (installed ? null : { code: 'HELPER_NOT_INSTALLED', message: 'm' }) };
        const elevation = chooseElevation(opts);
        if (!installed) {
          expect(elevation).toBe('not-installed');
          return;
        }
        expect(elevation).toBe('pkexec');
        const argv = helperArgv(opts, 'pkexec', req);
        expect(argv.slice(0, 2)).toEqual(['/usr/bin/pkexec', '/usr/lib/k2s-dns/k2s-dns-helper']);
        expect(argv).not.toContain(opts.helperScript);
        expect(argv).not.toContain(opts.nodePath);
        expect(parseHelperArgs(argv.slice(2))).toEqual(req);
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseHelperArgs on hostile argv', () => {
  it('round-trips every valid request', () => {
    fc.assert(
      fc.property(validReqArb, (req) => {
        expect(parseHelperArgs(helperArgs(req))).toEqual(req);
      }),
      { numRuns: 300 },
    );
  });

  it('throws only HelperUsageError, and whatever it accepts has known keys and plain values that round-trip', () => {
    const word = fc.oneof(fc.constantFrom(...FLAGS, ...PROTOTYPE_KEYS, 'start', 'stop', 'none', 'adguard', 'keep', '/etc/kubernetes/admin.conf', 'a.b'), hostileString(4));
    fc.assert(
      fc.property(fc.constantFrom('start', 'stop', 'uninstall', 'rm', '__proto__', 'constructor'), fc.array(word, { maxLength: 8 }), (verb, rest) => {
        const r = outcome(() => parseHelperArgs([verb, ...rest]));
        if (!r.ok) {
          expect(r.error).toBeInstanceOf(HelperUsageError);
          return;
        }
        const req = r.value as Record<string, unknown>;
        expect(Object.getPrototypeOf(req)).toBe(Object.prototype);
        for (const [k, v] of Object.entries(req)) {
          expect(KEYS).toContain(k);
          expect(typeof v).toBe('string');
          expect(v as string).toMatch(/^[A-Za-z0-9._\-/+@]+$/);
        }
        expect(parseHelperArgs(helperArgs(r.value))).toEqual(r.value);
      }),
      { numRuns: 500 },
    );
  });
});

describe('regressions found by the properties', () => {
  it.each([['__proto__'], ['constructor'], ['toString'], ['hasOwnProperty']])('refuses the flag %s with a usage error', (flag) => {
    expect(() => parseHelperArgs(['start', flag, 'x'])).toThrow(new HelperUsageError(`The helper's start does not take "${flag}".`));
  });
});
