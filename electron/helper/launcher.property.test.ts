import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOSTILE_CHARS, hostileOrLong, hostileString, outcome, PROTOTYPE_KEYS } from '../../shared/testing/hostile-arbitraries';
import { shellQuote, sudoPromptCommand, type LauncherOptions } from './launcher';
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

/** Requests as the type allows them, with hostile strings where the type says string. */
const hostileReqArb: fc.Arbitrary<HelperRequest> = fc.oneof(
  validReqArb,
  fc.record({ verb: fc.constant('start' as const), kubeconfig: hostileOrLong(), kubeSwitch: hostileString(), verifyName: hostileString() }, { requiredKeys: ['verb'] }),
);

const optsArb: fc.Arbitrary<LauncherOptions> = fc.record({
  uid: fc.constant(1000),
  nodePath: fc.oneof(fc.constant('/usr/bin/node'), hostileString(6)),
  helperScript: fc.oneof(fc.constant('/opt/k2s dns/bin/k2s-dns-helper.mjs'), hostileOrLong()),
  installedHelper: fc.constant('/usr/lib/k2s-dns/k2s-dns-helper'),
  policyInstalled: fc.constant(false),
});

/** argv bash builds from `printf '%s\0' <command>`: what sudo-prompt's `/bin/bash -c` would run. */
function bashArgv(command: string): string[] {
  // --norc and no stdin: bash sources ~/.bashrc when stdin is a socket (libuv's stdio pipes are).
  const res = spawnSync('/bin/bash', ['--norc', '--noprofile', '-c', `printf '%s\\0' ${command}`], { env: { PATH: '/usr/bin:/bin' }, stdio: ['ignore', 'pipe', 'pipe'] });
  expect(res.stderr.toString()).toBe('');
  expect(res.status).toBe(0);
  const parts = res.stdout.toString('utf8').split('\0');
  expect(parts.pop()).toBe('');
  return parts;
}

describe('sudoPromptCommand through a real bash', () => {
  const hasBash = existsSync('/bin/bash');
  it.skipIf(!hasBash)(hasBash ? 'bash sees exactly the intended argv, or the command is refused for a control character' : 'skipped: /bin/bash is missing', () => {
    fc.assert(
      fc.property(optsArb, hostileReqArb, (o, req) => {
        const parts = [o.nodePath, o.helperScript, ...helperArgs(req)];
        const r = outcome(() => sudoPromptCommand(o, req));
        if (!r.ok) {
          expect(parts.some((p) => /[\u0000-\u001f\u007f]/.test(p))).toBe(true);
          expect((r.error as Error).message).toBe('A helper argument contains a control character; refusing to build the command.');
          return;
        }
        expect(bashArgv(r.value)).toEqual(parts);
      }),
      { numRuns: 200 },
    );
  });

  it.skipIf(!hasBash)(hasBash ? 'shellQuote of every hostile character is one bash word equal to it' : 'skipped: /bin/bash is missing', () => {
    const printable = HOSTILE_CHARS.filter((c) => !/[\u0000-\u001f\u007f]/.test(c));
    const command = printable.map(shellQuote).join(' ');
    expect(bashArgv(command)).toEqual(printable);
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
