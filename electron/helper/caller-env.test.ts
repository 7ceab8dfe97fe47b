/**
 * The caller-access check must not be skipped by a crafted environment. PKEXEC_UID=0
 * with SUDO_UID set read as "root itself", so root opened any kubeconfig the caller named. The
 * lifecycle and the kubeconfig lookup are mocked at the edge: nothing here touches the host.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => ({ start: 0, stop: 0, canRead: [] as Array<[string, number]> }));
vi.mock('../core/lifecycle/node-deps', () => ({ createNodeDeps: async () => ({}) }));
vi.mock('../core/lifecycle/start', () => ({
  startDns: async () => {
    calls.start++;
    return { exitCode: 0 };
  },
}));
vi.mock('../core/lifecycle/stop', () => ({
  stopDns: async () => {
    calls.stop++;
    return { exitCode: 0 };
  },
  uninstallDns: async () => ({ exitCode: 0 }),
}));
vi.mock('../core/cluster/kubeconfig', () => ({ locateKubeconfig: async (o: { explicit?: string }) => ({ path: o.explicit ?? null, tried: [], explicit: true }) }));
vi.mock('./caller-access', async (orig) => ({
  ...(await orig<typeof import('./caller-access')>()),
  // The caller (uid 1000) cannot read anything: any kubeconfig it names must be refused.
  userCanRead: (path: string, uid: number) => {
    calls.canRead.push([path, uid]);
    return false;
  },
}));

import { callerUid } from './caller-access';
import { helperMain } from './main';

const KEYS = ['PKEXEC_UID', 'SUDO_UID'] as const;
let saved: Record<string, string | undefined>;
let stdout: string[];
beforeEach(() => {
  saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
  calls.start = calls.stop = 0;
  calls.canRead.length = 0;
  stdout = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => (stdout.push(String(s)), true));
  vi.spyOn(process, 'getuid').mockReturnValue(0);
});
afterEach(() => {
  for (const k of KEYS) if (saved[k] === undefined) delete process.env[k];
  else process.env[k] = saved[k];
  vi.restoreAllMocks();
});

const setEnv = (env: Partial<Record<(typeof KEYS)[number], string>>) => {
  for (const k of KEYS) delete process.env[k];
  Object.assign(process.env, env);
};
const lastEvent = () => JSON.parse(stdout.join('').trim().split('\n').at(-1)!);

describe('helper caller from the trusted variable only', () => {
  it('callerUid: one variable decides; both set or a non-uid value is refused, never "no caller"', () => {
    expect(callerUid({ PKEXEC_UID: '1000' })).toBe(1000);
    expect(callerUid({ SUDO_UID: '1001' })).toBe(1001);
    expect(callerUid({ PKEXEC_UID: '0' })).toBeNull();
    expect(callerUid({ SUDO_UID: '0' })).toBeNull();
    expect(callerUid({})).toBeNull();
    expect(() => callerUid({ PKEXEC_UID: '0', SUDO_UID: '1000' })).toThrow(/Both PKEXEC_UID \("0"\) and SUDO_UID \("1000"\) are set/);
    expect(() => callerUid({ PKEXEC_UID: '1000', SUDO_UID: '1000' })).toThrow(/Both PKEXEC_UID/);
    expect(() => callerUid({ SUDO_UID: '10; rm' })).toThrow('SUDO_UID is "10; rm", not a uid');
    expect(() => callerUid({ PKEXEC_UID: '' })).toThrow('PKEXEC_UID is "", not a uid');
    expect(() => callerUid({ PKEXEC_UID: '-1' })).toThrow(/not a uid/);
    expect(() => callerUid({ PKEXEC_UID: '00' })).toThrow(/not a uid/);
    expect(() => callerUid({ SUDO_UID: '4294967295' })).toThrow(/not a uid/);
  });

  it('PKEXEC_UID=0 with SUDO_UID=1000: start is refused (exit 3, CALLER_ENV) before root reads the named kubeconfig', async () => {
    setEnv({ PKEXEC_UID: '0', SUDO_UID: '1000' });
    expect(await helperMain(['start', '--kubeconfig', '/root/.kube/config'])).toBe(3);
    expect(lastEvent()).toMatchObject({ type: 'result', op: 'start', ok: false, exitCode: 3, code: 'CALLER_ENV' });
    expect(calls).toMatchObject({ start: 0, canRead: [] });
  });

  it('an inconsistent environment refuses stop too; SUDO_UID alone still checks the caller', async () => {
    setEnv({ PKEXEC_UID: '1000', SUDO_UID: '0' });
    expect(await helperMain(['stop'])).toBe(3);
    expect(lastEvent()).toMatchObject({ op: 'stop', code: 'CALLER_ENV' });
    expect(calls.stop).toBe(0);
    setEnv({ SUDO_UID: '1000' });
    expect(await helperMain(['start', '--kubeconfig', '/root/.kube/config'])).toBe(3);
    expect(lastEvent()).toMatchObject({ code: 'NO_KUBECONFIG' });
    expect(calls.canRead).toEqual([['/root/.kube/config', 1000]]);
    expect(calls.start).toBe(0);
    setEnv({ PKEXEC_UID: '0' });
    expect(await helperMain(['stop'])).toBe(0);
    expect(calls.stop).toBe(1);
  });
});
