/**
 * Doctor findings of the fake backend (e2e/support/backend-fake.ts): the same host as its other data
 * (NetworkManager symlink to 192.168.178.1, KubeSwitch not assigned, Docker without a `dns` key,
 * dnsproxy v0.84.0), so the Diagnostics panel shows ok, info and warn findings.
 */
import type { DoctorFinding } from '../../shared/doctor';
import { FAKE_KUBECONFIG, FAKE_LAN_NAMESERVER } from './backend-fake-data';

/** One finding per doctor check, in runDoctor order, for a stopped or running fake host. */
export function fakeDoctorFindings(running: boolean): DoctorFinding[] {
  return [
    running
      ? { id: 'lifecycle-state', severity: 'ok', title: 'K2s DNS state', meaning: 'K2s DNS is running (proxy PID 4242) and owns /etc/resolv.conf.', fix: null, detail: { state: 'running', resolverOwner: 'k2s', pid: 4242, messages: [] } }
      : { id: 'lifecycle-state', severity: 'ok', title: 'K2s DNS state', meaning: "K2s DNS is stopped and /etc/resolv.conf is the host's own (not K2s-owned).", fix: null, detail: { state: 'stopped', resolverOwner: 'original', pid: null, messages: [] } },
    { id: 'resolv-immutable', severity: 'ok', title: 'Immutable /etc/resolv.conf', meaning: running ? '/etc/resolv.conf is not immutable.' : '/etc/resolv.conf is a symlink; the link itself is replaced, so a flag on its target does not matter.', fix: null },
    { id: 'resolv-bind-mount', severity: 'ok', title: 'Bind-mounted /etc/resolv.conf', meaning: '/etc/resolv.conf is not a mount point, so it can be replaced by rename.', fix: null },
    { id: 'wsl', severity: 'ok', title: 'WSL-generated resolv.conf', meaning: 'Not a WSL-generated resolv.conf and not a WSL kernel.', fix: null },
    running
      ? { id: 'port-53', severity: 'ok', title: '127.0.0.1:53 is held by k2s-dnsproxy (ours)', meaning: "127.0.0.1:53 is held by K2s DNS's own proxy (/opt/k2s/bin/dnsproxy --config-path=/etc/k2s/dnsproxy.yaml, PID 4242).", fix: null, detail: { proto: 'udp', pid: 4242, command: '/opt/k2s/bin/dnsproxy --config-path=/etc/k2s/dnsproxy.yaml', ours: true } }
      : { id: 'port-53', severity: 'ok', title: '127.0.0.1:53 is free for the proxy', meaning: 'No other process holds 127.0.0.1:53.', fix: null },
    { id: 'nameserver-loop', severity: 'ok', title: 'Original nameservers do not point at the proxy', meaning: `The original nameservers (${FAKE_LAN_NAMESERVER}) are not K2s DNS listeners.`, fix: null, detail: { nameservers: [FAKE_LAN_NAMESERVER], loops: [] } },
    { id: 'nameserver-count', severity: 'ok', title: 'At most 3 nameservers', meaning: 'The original lists 1 nameserver(s); glibc uses up to 3.', fix: null },
    { id: 'kubelet-resolvconf', severity: 'ok', title: "kubelet's resolvConf is not the K2s-owned file", meaning: "kubelet's resolvConf /run/NetworkManager/resolv.conf is not the file K2s DNS replaces.", fix: null, detail: { kubeletConfig: '/var/lib/kubelet/config.yaml', resolvConf: '/run/NetworkManager/resolv.conf', managed: false } },
    {
      id: 'container-runtime-dns',
      severity: running ? 'warn' : 'info',
      title: 'Container runtimes keep using the proxy',
      meaning: running
        ? 'K2s DNS owns /etc/resolv.conf and docker copies the host resolv.conf into containers and replaces a loopback-only list (nameserver 127.0.0.1) with public DNS 8.8.8.8/8.8.4.4, so containers bypass the proxy and cannot resolve cluster or LAN names.'
        : 'When K2s DNS runs, docker copies the host resolv.conf into containers and replaces a loopback-only list (nameserver 127.0.0.1) with public DNS 8.8.8.8/8.8.4.4, so containers would bypass the proxy.',
      fix: 'Give containers a reachable nameserver: "dns": ["172.19.1.1"] (the KubeSwitch listener) in /etc/docker/daemon.json, or --dns 172.19.1.1 per container, and restart the runtime.',
      detail: { runtimes: { docker: '/etc/docker/daemon.json' }, dockerDns: null, k2sOwnsResolver: running },
    },
    {
      id: 'kubeswitch',
      severity: 'warn',
      title: 'KubeSwitch address assigned',
      meaning: '172.19.1.1 is not assigned to any interface (K2s creates it on k2s-proxy0), so K2s DNS starts without the KubeSwitch listener and containers cannot use it.',
      fix: 'Start K2s so it creates k2s-proxy0 with 172.19.1.1/24, then restart K2s DNS (or pass --kubeswitch none if you do not need it).',
      remedy: { action: null, gui: 'Start K2s so it creates k2s-proxy0 with 172.19.1.1/24, then Stop and Start K2s DNS (or choose KubeSwitch listener: none in Start options if you do not need it).', cli: 'k2s-dns start --kubeswitch none' },
      detail: { address: '172.19.1.1', assigned: ['127.0.0.1', '192.168.178.20'] },
    },
    { id: 'dnsproxy-version', severity: 'ok', title: 'AdGuard dnsproxy is the pinned version', meaning: '/opt/k2s/bin/dnsproxy is dnsproxy v0.84.0, a version K2s pins.', fix: null, detail: { binary: '/opt/k2s/bin/dnsproxy', version: '0.84.0' } },
    { id: 'cluster', severity: 'ok', title: 'Cluster reachable', meaning: 'Kubernetes v1.33.3: 1/1 nodes Ready, 2/2 CoreDNS pods ready, kube-dns at 172.21.0.10.', fix: null, detail: { state: 'ok', kubeconfigPath: FAKE_KUBECONFIG, kubeDnsIp: '172.21.0.10' } },
  ];
}
