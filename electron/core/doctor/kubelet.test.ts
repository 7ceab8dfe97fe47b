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

describe('kubelet-resolvconf flags loopback nameservers (pods loop on resolved hosts)', () => {
  it("resolved's uplink file with 127.0.0.1 (a global DNS= drop-in) is an error with the resolved fix", async () => {
    const h = await host();
    await h.put('/var/lib/kubelet/config.yaml', KUBELET);
    await h.put('/run/systemd/resolve/resolv.conf', '# This is /run/systemd/resolve/resolv.conf managed by man:systemd-resolved(8).\nnameserver 127.0.0.1\nnameserver 192.0.2.53\nsearch example.test\n');
    const f = await checkKubeletResolvConf(await h.ctx());
    expect(f).toMatchObject({ severity: 'error', title: "kubelet's resolvConf names a loopback nameserver (CoreDNS loop)", detail: { resolvConf: '/run/systemd/resolve/resolv.conf', loopback: ['127.0.0.1'] } });
    expect(f.fix).toContain('Remove the global DNS= entry with 127.0.0.1 from systemd-resolved');
  });

  it('a --resolv-conf naming the stub file (127.0.0.53) is an error naming the flag file; the uplink file without loopback is ok', async () => {
    const h = await host();
    await h.put('/var/lib/kubelet/config.yaml', KUBELET);
    await h.put('/run/systemd/resolve/stub-resolv.conf', 'nameserver 127.0.0.53\noptions edns0 trust-ad\n');
    await h.put('/run/systemd/resolve/resolv.conf', 'nameserver 192.0.2.53\n');
    await h.put('/etc/default/kubelet', 'KUBELET_EXTRA_ARGS=--resolv-conf=/run/systemd/resolve/stub-resolv.conf\n');
    const f = await checkKubeletResolvConf(await h.ctx());
    expect(f).toMatchObject({ severity: 'error', detail: { resolvConf: '/run/systemd/resolve/stub-resolv.conf', loopback: ['127.0.0.53'], flagFile: '/etc/default/kubelet' } });
    expect(f.fix).toBe('Set the --resolv-conf flag in /etc/default/kubelet (it overrides resolvConf in /var/lib/kubelet/config.yaml) to a file that names only the real upstreams (on systemd-resolved hosts /run/systemd/resolve/resolv.conf, which kubeadm picks), then restart kubelet and the CoreDNS pods.');
    await h.put('/etc/default/kubelet', '');
    expect(await checkKubeletResolvConf(await h.ctx())).toMatchObject({ severity: 'ok', detail: { resolvConf: '/run/systemd/resolve/resolv.conf', managed: false } });
  });
});
