import { describe, expect, it } from 'vitest';
import { KUBECONFIG_ORDER, KUBECONFIG_ORDER_TEXT } from '../../../shared/kubeconfig-order';
import { USAGE } from '../../cli/usage';
import { callerKey, findKubeconfig, locateKubeconfig } from './kubeconfig';

describe('kubeconfig order is stated once and matches what findKubeconfig tries', () => {
  it('tries admin.conf, the sudo user, $KUBECONFIG, then ~/.kube/config, as KUBECONFIG_ORDER says', () => {
    const r = findKubeconfig({ env: { SUDO_USER: 'ada', KUBECONFIG: '/k/a:/k/b' }, exists: () => false, homeOf: () => '/home/ada', home: '/root' });
    expect(r.tried).toEqual(['/etc/kubernetes/admin.conf', '/home/ada/.kube/config', '/k/a', '/k/b', '/root/.kube/config']);
    expect(KUBECONFIG_ORDER[1]).toBe('/etc/kubernetes/admin.conf');
    expect(USAGE.replace(/\s+/g, ' ')).toContain(`Kubeconfig order: ${KUBECONFIG_ORDER_TEXT}.`);
  });
});

describe('the caller of pkexec counts like the caller of sudo', () => {
  it("PKEXEC_UID's home (getent passwd takes the uid) comes where the sudo user's does", () => {
    const homes: Record<string, string> = { '1000': '/home/ada' };
    const r = findKubeconfig({ env: { PKEXEC_UID: '1000' }, exists: () => false, homeOf: (k) => homes[k] ?? null, home: '/root' });
    expect(r.tried).toEqual(['/etc/kubernetes/admin.conf', '/home/ada/.kube/config', '/root/.kube/config']);
  });

  it.each([
    [{ PKEXEC_UID: '1000' }, '1000'],
    [{ SUDO_USER: 'ada' }, 'ada'],
    [{ PKEXEC_UID: '0' }, null],
    [{ SUDO_USER: 'root' }, null],
    [{ PKEXEC_UID: '01000' }, null],
    [{}, null],
  ])('callerKey(%j) = %j', (env, want) => {
    expect(callerKey(env)).toBe(want);
  });

  it('locateKubeconfig asks getent passwd for the pkexec uid with an argv array', async () => {
    const calls: string[][] = [];
    const exec = { run: async (file: string, args: string[]) => (calls.push([file, ...args]), { code: 0, stdout: 'ada:x:1000:1000::/nonexistent-home/ada:/bin/sh\n', stderr: '' }) };
    const found = await locateKubeconfig({ env: { PKEXEC_UID: '1000' }, exec: exec as never });
    expect(calls).toEqual([['getent', 'passwd', '1000']]);
    expect(found.tried).toContain('/nonexistent-home/ada/.kube/config');
  });
});
