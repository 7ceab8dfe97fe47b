import { describe, expect, it } from 'vitest';
import { KUBECONFIG_ORDER, KUBECONFIG_ORDER_TEXT } from '../../../shared/kubeconfig-order';
import { USAGE } from '../../cli/usage';
import { findKubeconfig } from './kubeconfig';

describe('kubeconfig order is stated once and matches what findKubeconfig tries', () => {
  it('tries admin.conf, the sudo user, $KUBECONFIG, then ~/.kube/config, as KUBECONFIG_ORDER says', () => {
    const r = findKubeconfig({ env: { SUDO_USER: 'ada', KUBECONFIG: '/k/a:/k/b' }, exists: () => false, homeOf: () => '/home/ada', home: '/root' });
    expect(r.tried).toEqual(['/etc/kubernetes/admin.conf', '/home/ada/.kube/config', '/k/a', '/k/b', '/root/.kube/config']);
    expect(KUBECONFIG_ORDER[1]).toBe('/etc/kubernetes/admin.conf');
    expect(USAGE.replace(/\s+/g, ' ')).toContain(`Kubeconfig order: ${KUBECONFIG_ORDER_TEXT}.`);
  });
});
