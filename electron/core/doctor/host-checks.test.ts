import { describe, expect, it } from 'vitest';
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { checkKubeletResolvConf, kubeletResolvConf } from './kubelet';
import { checkContainerRuntimes, dockerDns } from './container-runtimes';
import { checkDnsproxyVersion, isPinnedDnsproxy } from './dnsproxy-version';
import { parseEngineVersion } from '../host/engine-version';
import { checkLifecycleState } from './lifecycle-state';
import { checkHealthPath } from './health';
import { useDoctorHosts } from '../../../e2e/support/doctor-test-host';

const host = useDoctorHosts();

const KUBELET = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nclusterDNS:\n- 172.21.0.10\nclusterDomain: cluster.local\n';

describe('kubelet-resolvconf', () => {
  it('reads resolvConf with the kubelet default', () => {
    expect(kubeletResolvConf(`${KUBELET}resolvConf: /run/systemd/resolve/resolv.conf\n`)).toBe('/run/systemd/resolve/resolv.conf');
    expect(kubeletResolvConf(KUBELET)).toBe('/etc/resolv.conf');
    expect(kubeletResolvConf(`${KUBELET}resolvConf: ""\n`)).toBe('');
    expect(() => kubeletResolvConf('- a\n- b\n')).toThrow('it is not a YAML mapping');
  });

  it('errors when resolvConf is the K2s-owned /etc/resolv.conf while K2s DNS runs', async () => {
    const h = await host();
    await h.put('/var/lib/kubelet/config.yaml', `${KUBELET}resolvConf: /etc/resolv.conf\n`);
    await h.start();
    const f = await checkKubeletResolvConf(await h.ctx());
    expect(f).toMatchObject({ id: 'kubelet-resolvconf', severity: 'error', detail: { resolvConf: '/etc/resolv.conf', managed: true } });
    expect(f.meaning).toContain('Loop … detected');
  });

  it('warns while stopped that /etc/resolv.conf will become the K2s-owned file', async () => {
    const h = await host();
    await h.put('/var/lib/kubelet/config.yaml', KUBELET);
    expect(await checkKubeletResolvConf(await h.ctx())).toMatchObject({ severity: 'warn', detail: { resolvConf: '/etc/resolv.conf', managed: false } });
  });

  it('is ok for another file, for "" and without a kubelet', async () => {
    const h = await host();
    expect((await checkKubeletResolvConf(await h.ctx())).severity).toBe('ok');
    await h.put('/run/systemd/resolve/resolv.conf', 'nameserver 192.0.2.53\n');
    await h.put('/var/lib/kubelet/config.yaml', `${KUBELET}resolvConf: /run/systemd/resolve/resolv.conf\n`);
    await h.start();
    expect(await checkKubeletResolvConf(await h.ctx())).toMatchObject({ severity: 'ok', detail: { managed: false } });
    await h.put('/var/lib/kubelet/config.yaml', `${KUBELET}resolvConf: ""\n`);
    expect((await checkKubeletResolvConf(await h.ctx())).severity).toBe('ok');
  });

  it('warns when the named file is missing or the YAML is broken', async () => {
    const h = await host();
    await h.put('/var/lib/kubelet/config.yaml', `${KUBELET}resolvConf: /run/none/resolv.conf\n`);
    expect((await checkKubeletResolvConf(await h.ctx())).severity).toBe('warn');
    await h.put('/var/lib/kubelet/config.yaml', 'resolvConf: [unclosed\n');
    expect((await checkKubeletResolvConf(await h.ctx())).severity).toBe('warn');
  });
});

describe('container-runtime-dns', () => {
  it('parses daemon.json dns', () => {
    expect(dockerDns('{"dns":["172.19.1.1"],"log-driver":"journald"}')).toEqual(['172.19.1.1']);
    expect(dockerDns('{"log-driver":"journald"}')).toBeNull();
    expect(() => dockerDns('{oops')).toThrow();
  });

  it('is ok without any runtime', async () => {
    const h = await host();
    expect(await checkContainerRuntimes(await h.ctx())).toMatchObject({ severity: 'ok', fix: null });
  });

  it('explains (info) while stopped and warns while K2s DNS runs for Docker without dns', async () => {
    const h = await host();
    await h.put('/etc/docker/daemon.json', '{"log-driver":"journald"}\n');
    const stopped = await checkContainerRuntimes(await h.ctx());
    expect(stopped).toMatchObject({ severity: 'info', detail: { runtimes: { docker: '/etc/docker/daemon.json' }, dockerDns: null } });
    expect(stopped.meaning).toContain('8.8.8.8');
    await h.start();
    const running = await checkContainerRuntimes(await h.ctx());
    expect(running.severity).toBe('warn');
    expect(running.fix).toBe('Give containers a reachable nameserver: "dns": ["172.19.1.1"] (the KubeSwitch listener) in /etc/docker/daemon.json, or --dns 172.19.1.1 per container, and restart the runtime.');
  });

  it('is ok for Docker with dns set, but warns for a containerd config while running', async () => {
    const h = await host();
    await h.put('/etc/docker/daemon.json', '{"dns":["172.19.1.1"]}\n');
    await h.start();
    expect(await checkContainerRuntimes(await h.ctx())).toMatchObject({ severity: 'ok', detail: { dockerDns: ['172.19.1.1'] } });
    await h.put('/etc/containerd/config.toml', 'version = 2\n');
    const f = await checkContainerRuntimes(await h.ctx());
    expect(f.severity).toBe('warn');
    expect(f.meaning).toBe('K2s DNS owns /etc/resolv.conf and containerd copies the host resolv.conf into containers and replaces a loopback-only list (nameserver 127.0.0.1) with public DNS 8.8.8.8/8.8.4.4, so containers bypass the proxy and cannot resolve cluster or LAN names.');
  });
});

describe('dnsproxy-version', () => {
  it('parses dnsproxy --version output and the pin', () => {
    expect(parseEngineVersion('adguard', 'dnsproxy version: v0.84.0\n')).toBe('v0.84.0');
    expect(parseEngineVersion('adguard', 'dnsproxy version: 0.73.2')).toBe('0.73.2');
    expect(parseEngineVersion('adguard', 'usage: dnsproxy')).toBeNull();
    expect(isPinnedDnsproxy('0.83.1')).toBe(true);
    expect(isPinnedDnsproxy('0.84.0')).toBe(true);
    expect(isPinnedDnsproxy('0.73.2')).toBe(false);
  });

  it('runs <installDir>/bin/dnsproxy --version: warns for v0.84 and v0.73 (K2s pins exactly v0.83.1)', async () => {
    const h = await host();
    await h.put('/opt/k2s/bin/dnsproxy', '#!/bin/sh\necho "dnsproxy version: v0.84.0"\n', 0o755);
    expect(await checkDnsproxyVersion(await h.ctx())).toMatchObject({ severity: 'warn', title: 'AdGuard dnsproxy v0.84.0 is not the v0.83.1 K2s pins', detail: { binary: '/opt/k2s/bin/dnsproxy', version: '0.84.0', output: 'dnsproxy version: v0.84.0' } });
    await h.put('/srv/k2s/bin/dnsproxy', '#!/bin/sh\necho "dnsproxy version: v0.73.2"\n', 0o755);
    const old = await checkDnsproxyVersion(await h.ctx({ installDir: '/srv/k2s' }));
    expect(old).toMatchObject({ severity: 'warn', title: 'AdGuard dnsproxy v0.73.2 is not the v0.83.1 K2s pins', detail: { version: '0.73.2', pinned: '0.83.1' } });
    expect(old.meaning).toBe('/srv/k2s/bin/dnsproxy --version prints "dnsproxy version: v0.73.2", not the v0.83.1 K2s pins, so config keys and private reverse-zone (PTR) handling may differ from what K2s DNS writes.');
  });

  it('warns when --version says nothing usable', async () => {
    const h = await host();
    await h.put('/opt/k2s/bin/dnsproxy', '#!/bin/sh\necho broken >&2\nexit 2\n', 0o755);
    const f = await checkDnsproxyVersion(await h.ctx());
    expect(f).toMatchObject({ severity: 'warn', title: 'AdGuard dnsproxy version unreadable', detail: { exitCode: 2 } });
    expect(f.meaning).toContain('(broken)');
  });

  it('is info "dnsmasq engine will be used" without the binary, error without both engines', async () => {
    const h = await host();
    expect(await checkDnsproxyVersion(await h.ctx())).toMatchObject({ severity: 'info', title: 'AdGuard dnsproxy not installed; the dnsmasq engine will be used', meaning: 'No AdGuard dnsproxy at /opt/k2s/bin/dnsproxy: the dnsmasq engine will be used (/usr/sbin/dnsmasq).' });
    await chmod(join(h.root, 'usr/sbin/dnsmasq'), 0o644);
    expect(await checkDnsproxyVersion(await h.ctx())).toMatchObject({ severity: 'error', title: 'No DNS engine installed (neither AdGuard dnsproxy nor dnsmasq)' });
  });
});

describe('lifecycle-state', () => {
  it('running while the path check fails (CoreDNS down): degraded (warn), pointing at the health finding — one fact, one wording', async () => {
    const h = await host();
    await h.start();
    const verdict = { level: 'error' as const, resolves: false, cause: 'coredns-down' as const, hopId: 'kube-dns', summary: 'Cluster names do not resolve on this host: CoreDNS (kube-dns 172.21.0.10:53) does not answer', action: 'check-coredns' as const };
    const health = async () => ({ name: 'kubernetes.default.svc.cluster.local', domainSource: 'state' as const, hops: [], verdict, checkedAt: 0, durationMs: 1 });
    const f = await checkLifecycleState(await h.ctx({ health }));
    expect(f).toMatchObject({ severity: 'warn', title: 'K2s DNS state: degraded', detail: { state: 'degraded', healthCause: 'coredns-down', pointsAt: 'health' } });
    // It points at the health finding by the title the output shows (issue 20 low: it named "Cluster names on this host", a title no finding shows).
    expect(f.meaning).toBe('k2s-dnsproxy runs (PID 4242) and owns /etc/resolv.conf, but the path check fails (coredns-down); the cause and its fix are in the error "Cluster names do not resolve on this host: CoreDNS (kube-dns 172.21.0.10:53) does not answer" above.');
    expect(f.fix).toBe('See the error "Cluster names do not resolve on this host: CoreDNS (kube-dns 172.21.0.10:53) does not answer" above: its fix is this one\'s.');
    expect(f.remedy?.gui).toBe(f.fix);
    const shown = await checkHealthPath(await h.ctx({ health }));
    expect(shown).toMatchObject({ severity: 'error', title: verdict.summary });
    expect(`${f.meaning} ${f.fix} ${f.remedy?.gui} ${f.remedy?.cli}`).not.toContain('Cluster names on this host');
    // A warn verdict (the card stays "running") keeps the state check ok.
    const warn = async () => ({ ...(await health()), verdict: { ...verdict, level: 'warn' as const, resolves: true, cause: 'drift' as const } });
    expect(await checkLifecycleState(await h.ctx({ health: warn }))).toMatchObject({ severity: 'ok', title: 'K2s DNS state: running' });
  });

  it('their file still reaches the proxy (nameserver 127.0.0.1): says so, and never advises keeping it', async () => {
    const h = await host();
    await h.start();
    await h.put('/etc/resolv.conf', '# Generated by NetworkManager\nnameserver 127.0.0.1\n');
    const f = await checkLifecycleState(await h.ctx({ frontEnd: 'gui' }));
    expect(f).toMatchObject({ severity: 'warn', title: 'K2s DNS state: /etc/resolv.conf changed by another program (still through K2s DNS)', detail: { driftRoute: { viaK2s: true, keepLeavesNone: true } } });
    expect(f.meaning).toContain("host apps still ask the proxy: its nameserver 127.0.0.1 is k2s-dnsproxy's listener.");
    // The health finding above carries the window's verdict's fix (Restore first, walk 10 M4); this one points at it (walk 11 L5).
    expect(f.remedy?.gui).toBe('See the warning "kubernetes.default.svc.cluster.local resolves through K2s DNS, but another program rewrote /etc/resolv.conf" above: its fix is this one\'s.');
    expect(f.remedy?.action).toBe('show-diff');
  });

  it('ok stopped, ok running, warn degraded (proxy died), warn foreign resolver', async () => {
    const h = await host();
    expect(await checkLifecycleState(await h.ctx())).toMatchObject({ severity: 'ok', detail: { state: 'stopped', resolverOwner: 'original' } });
    await h.start();
    expect(await checkLifecycleState(await h.ctx())).toMatchObject({ severity: 'ok', detail: { state: 'running', pid: 4242 } });
    h.services.running = false;
    const degraded = await checkLifecycleState(await h.ctx());
    expect(degraded).toMatchObject({ severity: 'warn', detail: { state: 'degraded' } });
    expect(degraded.meaning).toContain('k2s-dnsproxy is not running');
    // The app's Diagnostics (frontEnd gui) gets GUI words in the meaning, the CLI commands.
    const forGui = await checkLifecycleState(await h.ctx({ frontEnd: 'gui' }));
    expect(forGui.meaning).toContain('press Start: it starts k2s-dnsproxy again and keeps your saved original.');
    expect(forGui.meaning).not.toMatch(/k2s-dns(?!proxy)/);
    h.services.running = true;
    await h.put('/etc/resolv.conf', '# Generated by NetworkManager\nnameserver 192.168.178.1\n');
    const foreign = await checkLifecycleState(await h.ctx());
    expect(foreign).toMatchObject({ severity: 'warn', detail: { resolverOwner: 'foreign' } });
    // A file with a nameserver the follower would take: Keep their file is the default, first (status's health-line words).
    // The health finding gives the drift choice (status's words); this one points at it (walk 11 L5).
    expect(foreign.fix).toBe('See the warning "kubernetes.default.svc.cluster.local resolves, but /etc/resolv.conf was changed by another program: K2s DNS is bypassed" above: its fix is this one\'s.');
    expect(foreign.remedy).toMatchObject({ action: 'show-diff', cli: 'see the warning "kubernetes.default.svc.cluster.local resolves, but /etc/resolv.conf was changed by another program: K2s DNS is bypassed" above' });
    const foreignGui = await checkLifecycleState(await h.ctx({ frontEnd: 'gui' }));
    expect(JSON.stringify(foreignGui.detail)).not.toContain('k2s-dns diff');
    expect(JSON.stringify(foreignGui.detail)).toContain('Resolver diff shows how.');
  });
});
