import { describe, expect, it } from 'vitest';
import { checkKubeletResolvConf } from './kubelet';
import { kubeletArgs, lastFlag, parseDropInEnvironment, parseEnvFile } from './kubelet-flags';
import { useDoctorHosts } from '../../../e2e/support/doctor-test-host';

const host = useDoctorHosts();
const KUBELET = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nresolvConf: /run/systemd/resolve/resolv.conf\n';
/** kubeadm's own drop-in (kubeadm docs, 10-kubeadm.conf). */
const KUBEADM_DROPIN = `[Service]
Environment="KUBELET_KUBECONFIG_ARGS=--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf"
Environment="KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml"
EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env
EnvironmentFile=-/etc/default/kubelet
ExecStart=
ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS
`;

describe('kubelet flags', () => {
  it('parses kubeadm-flags.env, drop-in Environment= lines and the ExecStart order; the last flag wins', () => {
    const env = parseEnvFile('# written by kubeadm\nKUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///run/containerd/containerd.sock --resolv-conf=/etc/resolv.conf"\n');
    expect(env.get('KUBELET_KUBEADM_ARGS')).toBe('--container-runtime-endpoint=unix:///run/containerd/containerd.sock --resolv-conf=/etc/resolv.conf');
    const dropin = parseDropInEnvironment(KUBEADM_DROPIN);
    expect(dropin.get('KUBELET_CONFIG_ARGS')).toBe('--config=/var/lib/kubelet/config.yaml');
    const all = new Map([...dropin, ...env, ['KUBELET_EXTRA_ARGS', '--resolv-conf /run/k8s-resolv.conf']]);
    const args = kubeletArgs(all);
    expect(args[0]).toBe('--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf');
    expect(lastFlag(args, 'resolv-conf')).toBe('/run/k8s-resolv.conf');
    expect(lastFlag(args, 'config')).toBe('/var/lib/kubelet/config.yaml');
    expect(lastFlag(['--resolv-conf='], 'resolv-conf')).toBe('');
    expect(lastFlag(['--resolv-confx=/a'], 'resolv-conf')).toBeUndefined();
  });
});

describe('kubelet-resolvconf reads the effective resolvConf', () => {
  it('a --resolv-conf flag in kubeadm-flags.env overrides config.yaml (K2s-owned file → error naming the flag file)', async () => {
    const h = await host();
    await h.put('/var/lib/kubelet/config.yaml', KUBELET);
    await h.put('/run/systemd/resolve/resolv.conf', 'nameserver 192.0.2.53\n');
    await h.put('/etc/systemd/system/kubelet.service.d/10-kubeadm.conf', KUBEADM_DROPIN);
    await h.put('/var/lib/kubelet/kubeadm-flags.env', 'KUBELET_KUBEADM_ARGS="--pod-infra-container-image=registry.k8s.io/pause:3.10 --resolv-conf=/etc/resolv.conf"\n');
    await h.start();
    const f = await checkKubeletResolvConf(await h.ctx());
    expect(f).toMatchObject({
      severity: 'error',
      detail: { resolvConf: '/etc/resolv.conf', managed: true, flag: '--resolv-conf=/etc/resolv.conf', flagFile: '/var/lib/kubelet/kubeadm-flags.env', kubeletConfig: '/var/lib/kubelet/config.yaml' },
    });
    expect(f.fix).toBe('Set the --resolv-conf flag in /var/lib/kubelet/kubeadm-flags.env (it overrides resolvConf in /var/lib/kubelet/config.yaml) to a file with the real upstreams (e.g. /run/systemd/resolve/resolv.conf), then restart kubelet and the CoreDNS pods.');
  });

  it('KUBELET_EXTRA_ARGS in a drop-in, and --config naming another config file, are followed', async () => {
    const h = await host();
    await h.put('/run/systemd/resolve/resolv.conf', 'nameserver 192.0.2.53\n');
    await h.put('/etc/kubernetes/kubelet-custom.yaml', 'kind: KubeletConfiguration\nresolvConf: /etc/resolv.conf\n');
    await h.put('/usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf', KUBEADM_DROPIN.replace('/var/lib/kubelet/config.yaml', '/etc/kubernetes/kubelet-custom.yaml'));
    expect(await checkKubeletResolvConf(await h.ctx())).toMatchObject({ severity: 'warn', detail: { resolvConf: '/etc/resolv.conf', kubeletConfig: '/etc/kubernetes/kubelet-custom.yaml' } });
    await h.put('/etc/systemd/system/kubelet.service.d/20-extra.conf', '[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--resolv-conf=/run/systemd/resolve/resolv.conf"\n');
    expect(await checkKubeletResolvConf(await h.ctx())).toMatchObject({ severity: 'ok', detail: { resolvConf: '/run/systemd/resolve/resolv.conf', flagFile: '/etc/systemd/system/kubelet.service.d/20-extra.conf' } });
  });
});
