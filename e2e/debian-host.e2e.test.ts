/**
 * The lifecycle on a booted Debian 13 host (e2e/bed/debian-host.ts): its own systemd as PID 1,
 * the product's k2s-dnsproxy unit, both engines (K2s's dnsproxy at /opt/k2s/bin/dnsproxy,
 * Debian's dnsmasq), the bed's real CoreDNS, upstream and fake API on the host's network.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryDns } from '../electron/core/probes/dns-query';
import { clusterLanChecks, digIn } from './bed/cluster-lan-checks';
import { debianHostMissing, type DebianHost } from './bed/debian-host';
import { bootPlainHost, hostCli, hostGetent, hostResolver, hostStartArgs, isActive, mainPid } from './bed/debian-host-cli';
import { engineMissing, PROXY_ENGINES, type ProxyEngine } from './bed/engines';
import type { Testbed } from './bed/testbed';
import { until } from './support/until';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
const why = inSandbox ? await debianHostMissing() : 'the Debian host boots only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)';
if (why) console.warn(`skipped: lifecycle on a booted Debian 13 host (${why})`);
const dnsproxyMissing = why ? null : await engineMissing('dnsproxy');
if (dnsproxyMissing) console.warn(`skipped: Debian 13 host with --engine adguard (${dnsproxyMissing})`);


const UNIT_PATH = '/etc/systemd/system/k2s-dnsproxy.service';

describe.each(PROXY_ENGINES.map((e) => [e]))('k2s-dns on a booted Debian 13 host (%s engine)', (engine: ProxyEngine) => {
  const skip = why !== null || (engine === 'adguard' && dnsproxyMissing !== null);
  let tb: Testbed;
  let h: DebianHost;
  let original: string;

  beforeAll(async () => {
    if (skip) return;
    let bootMs: number;
    ({ tb, h, original, bootMs } = await bootPlainHost());
    const v = await h.versions();
    console.log(`debian-host: Debian ${v.debian}, ${v.systemd}, systemd-resolved ${v.resolved.replace(/^systemd /, '')}, node ${v.node}; booted to running in ${bootMs} ms`);
  }, 180_000);
  afterAll(async () => {
    await h?.destroy();
    await tb?.stop();
  }, 120_000);

  it.skipIf(skip)('the booted host cannot change this machine: /proc/sys and /sys read-only, no CAP_SYS_MODULE/SYS_TIME/SYS_RAWIO in PID 1 or in run()', async () => {
    const bnd = async (pid: string) => BigInt(`0x${/CapBnd:\s*([0-9a-f]+)/.exec((await h.run(['cat', `/proc/${pid}/status`])).stdout)![1]}`);
    // capabilities(7): CAP_SYS_MODULE 16, CAP_SYS_RAWIO 17, CAP_SYS_TIME 25.
    for (const pid of ['1', 'self']) for (const bit of [16n, 17n, 25n]) expect((await bnd(pid)) & (1n << bit), `cap ${bit} of ${pid}`).toBe(0n);
    expect((await h.sh('echo 0 > /proc/sys/net/ipv4/ip_forward')).code).not.toBe(0);
    expect((await h.sh('echo 0 > /sys/kernel/profiling 2>&1 || touch /sys/x')).code).not.toBe(0);
    expect((await h.run(['date', '-s', '@0'])).code).not.toBe(0);
    expect((await h.run(['findmnt', '-no', 'OPTIONS', '/opt/k2s-dns-src'])).stdout).toMatch(/^ro,/);
  });

  it.skipIf(skip)('start → active unit → cluster, external, PTR, KubeSwitch from a worker → status/doctor → stop restores byte for byte', async () => {
    const start = await hostCli(h, hostStartArgs(engine));
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
    expect(await isActive(h)).toBe('active');
    const unit = (await h.run(['systemctl', 'cat', 'k2s-dnsproxy.service'])).stdout;
    expect(unit).toContain('# Managed by k2s-dns');
    // The root-only directory check, then the engine exec'd in its process (shared/root-dir-check.ts guardedArgv).
    expect(unit).toMatch(/^ExecStart=\/bin\/sh -c "k2s_dir_refused\(\) /m);
    expect(unit).toContain(engine === 'adguard' ? ' k2s-dns-dircheck 4 /etc/k2s /run/k2s /var/log/dnsproxy /var/lib/k2s /opt/k2s/bin/dnsproxy --config-path=/etc/k2s/dnsproxy.yaml' : ' k2s-dns-dircheck 4 /etc/k2s /run/k2s /var/log/dnsproxy /var/lib/k2s /usr/sbin/dnsmasq --keep-in-foreground --conf-file=/etc/k2s/dnsmasq.conf --pid-file= --listen-address=127.0.0.1 --user=dnsmasq --group=nogroup\n');
    expect(unit).not.toContain('ExecStartPre=');
    expect((await h.run(['systemctl', 'is-enabled', 'k2s-dnsproxy.service'])).stdout.trim()).toBe('enabled');
    // The KubeSwitch listener runs in its own unit (it waits for the address after a reboot), both engines.
    expect(await isActive(h, 'k2s-dnsproxy-kubeswitch.service')).toBe('active');
    expect((await h.run(['systemctl', 'is-enabled', 'k2s-dnsproxy-kubeswitch.service'])).stdout.trim()).toBe('enabled');
    if (engine === 'dnsmasq') {
      const late = (await h.run(['systemctl', 'cat', 'k2s-dnsproxy-kubeswitch.service'])).stdout;
      expect(late).toContain(' 172.19.1.1 -- /usr/sbin/dnsmasq --keep-in-foreground --conf-file=/etc/k2s/dnsmasq.conf --pid-file= --listen-address=172.19.1.1 --user=dnsmasq --group=nogroup\n');
      // Two dnsmasq processes, both dropped after binding (dnsmasq(8) --user) to dnsmasq-base's own user, not the shared nobody.
      const users = (await h.sh('for p in /proc/[0-9]*; do [ "$(cat $p/comm 2>/dev/null)" = dnsmasq ] && stat -c %U $p; done; true')).stdout.trim().split('\n');
      expect(users).toEqual(['dnsmasq', 'dnsmasq']);
    }

    expect(await hostGetent(h, 'kubernetes.default.svc.cluster.local')).toEqual(['172.21.0.1']);
    expect(await hostGetent(h, 'web.demo.svc.cluster.local')).toEqual(['172.21.14.7']);
    expect(await hostGetent(h, 'www.example.test')).toEqual(['198.51.100.7']);
    // The host's network is the bed's: the same checks the sandbox suite makes, with proof of who answered.
    await clusterLanChecks(tb, '127.0.0.1', 'udp');
    const worker = await tb.addWorker();
    await clusterLanChecks(tb, tb.addresses.kubeSwitch, 'udp', '172.21.0.1', digIn(worker));

    const status = await hostCli(h, ['status']);
    expect(status.code, status.stdout + status.stderr).toBe(0);
    expect(status.stdout).toContain('K2s DNS: running');
    const doctor = await hostCli(h, ['doctor']);
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);

    const stop = await hostCli(h, ['stop', '--json']);
    expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true, exitCode: 0 });
    expect(await hostResolver(h)).toBe(original);
    expect(await isActive(h)).not.toBe('active');
    expect((await h.run(['systemctl', 'is-enabled', 'k2s-dnsproxy.service'])).stdout.trim()).not.toBe('enabled');
    expect(await isActive(h, 'k2s-dnsproxy-kubeswitch.service')).not.toBe('active');
    expect((await h.run(['systemctl', 'is-enabled', 'k2s-dnsproxy-kubeswitch.service'])).stdout.trim()).not.toBe('enabled');
  }, 180_000);

  it.skipIf(skip)('kill -9 of MainPID: systemd restarts the proxy; systemctl restart; logrotate -f; a second start', async () => {
    const start = await hostCli(h, hostStartArgs(engine));
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true });
    const pid = await mainPid(h);
    expect(pid).toBeGreaterThan(0);
    await h.run(['kill', '-9', String(pid)]);
    // Restart=on-failure after RestartSec: a new MainPID that answers again.
    const restartMs = await until('k2s-dnsproxy restarted by systemd', 30_000, async () => {
      const p = await mainPid(h);
      return p > 0 && p !== pid && (await isActive(h)) === 'active' && (await queryDns({ name: 'www.example.test', type: 'A', server: '127.0.0.1', timeoutMs: 1000 })).rcode === 'NOERROR';
    });
    console.log(`debian-host (${engine}): kill -9 of MainPID → answering again after ${restartMs} ms`);
    expect(await hostGetent(h, 'kubernetes.default.svc.cluster.local')).toEqual(['172.21.0.1']);

    const before = await mainPid(h);
    expect((await h.run(['systemctl', 'restart', 'k2s-dnsproxy.service'])).code).toBe(0);
    const after = await mainPid(h);
    expect(after).toBeGreaterThan(0);
    expect(after).not.toBe(before);
    await until('the proxy answers after systemctl restart', 20_000, async () => (await queryDns({ name: 'www.example.test', type: 'A', server: '127.0.0.1', timeoutMs: 1000 })).rcode === 'NOERROR');

    // logrotate -f with the product's file: the log is rotated and the proxy keeps answering and logging.
    const rot = await h.run(['logrotate', '-f', '/etc/logrotate.d/k2s-dnsproxy']);
    expect(rot.code, rot.stderr).toBe(0);
    expect((await h.run(['test', '-e', '/var/log/dnsproxy/dnsproxy.log.1'])).code).toBe(0);
    expect(await hostGetent(h, 'web.demo.svc.cluster.local')).toEqual(['172.21.14.7']);
    expect(await isActive(h)).toBe('active');

    const second = await hostCli(h, hostStartArgs(engine));
    expect(second.result, second.stdout).toMatchObject({ ok: true, exitCode: 0 });
    expect(second.result!.message).toContain('already running');

    const stop = await hostCli(h, ['stop', '--json']);
    expect(stop.result).toMatchObject({ ok: true, exitCode: 0 });
    expect(await hostResolver(h)).toBe(original);
  }, 180_000);

  it.skipIf(skip)('a /etc/k2s made writable by others while running: systemd\'s restart of the proxy (kill -9) is refused by the unit\'s own check, the engine never runs from it; made safe again, a restart answers', async () => {
    const start = await hostCli(h, hostStartArgs(engine));
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true });
    const pid = await mainPid(h);
    expect((await h.sh(`chmod 0777 /etc/k2s && kill -9 ${pid}`)).code).toBe(0);
    const comm = engine === 'adguard' ? 'dnsproxy' : 'dnsmasq';
    // Each attempt (RestartSec=1s) writes the check's line to the proxy log and exits 1 before the exec.
    await until('the NOT_ROOT_OWNED line in the proxy log', 20_000, async () => (await h.sh('grep -c "k2s-dns: NOT_ROOT_OWNED: /etc/k2s is writable by group or others (drwxrwxrwx" /var/log/dnsproxy/dnsproxy.log; true')).stdout.trim() !== '0');
    const show = (await h.run(['systemctl', 'show', '-p', 'ExecMainStatus', '-p', 'NRestarts', 'k2s-dnsproxy.service'])).stdout;
    expect(show).toMatch(/NRestarts=[1-9]/);
    // No engine process in the unit's cgroup, and 127.0.0.1 does not answer.
    const engines = await h.sh(`for p in $(cat /sys/fs/cgroup/system.slice/k2s-dnsproxy.service/cgroup.procs 2>/dev/null); do cat /proc/$p/comm; done | grep -cx ${comm}; true`);
    expect(engines.stdout.trim()).toBe('0');
    expect((await queryDns({ name: 'www.example.test', type: 'A', server: '127.0.0.1', timeoutMs: 1000 })).rcode).not.toBe('NOERROR');

    expect((await h.sh('chmod 0755 /etc/k2s && systemctl reset-failed k2s-dnsproxy.service; systemctl restart k2s-dnsproxy.service')).code).toBe(0);
    await until('the proxy answers once /etc/k2s is safe again', 20_000, async () => (await queryDns({ name: 'www.example.test', type: 'A', server: '127.0.0.1', timeoutMs: 1000 })).rcode === 'NOERROR');
    expect((await h.run(['cat', `/proc/${await mainPid(h)}/comm`])).stdout.trim()).toBe(comm);
    const stop = await hostCli(h, ['stop', '--json']);
    expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true, exitCode: 0 });
    expect(await hostResolver(h)).toBe(original);
  }, 180_000);

  it.skipIf(skip)('a manual systemctl stop, then k2s-dns stop restores; uninstall leaves no unit, config or logrotate file', async () => {
    const start = await hostCli(h, hostStartArgs(engine));
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true });
    expect((await h.run(['systemctl', 'stop', 'k2s-dnsproxy.service'])).code).toBe(0);
    expect(await isActive(h)).toBe('inactive');
    const stop = await hostCli(h, ['stop', '--json']);
    expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true, exitCode: 0 });
    expect(await hostResolver(h)).toBe(original);

    const again = await hostCli(h, hostStartArgs(engine));
    expect(again.result, again.stdout + again.stderr).toMatchObject({ ok: true });
    const un = await hostCli(h, ['uninstall', '--json']);
    expect(un.result, un.stdout + un.stderr).toMatchObject({ ok: true, exitCode: 0 });
    expect(await hostResolver(h)).toBe(original);
    const left = await h.sh(`ls -d ${UNIT_PATH} /etc/systemd/system/k2s-dnsproxy*.service /etc/systemd/system/*/k2s-dnsproxy* /etc/k2s/dnsproxy.yaml /etc/k2s/dnsmasq.conf /etc/logrotate.d/k2s-dnsproxy /var/lib/k2s/dns-resolver-state.json 2>/dev/null; true`);
    expect(left.stdout.trim()).toBe('');
    expect((await h.run(['systemctl', 'show', '-P', 'LoadState', 'k2s-dnsproxy.service'])).stdout.trim()).toBe('not-found');
    expect((await h.run(['systemctl', 'show', '-P', 'LoadState', 'k2s-dnsproxy-kubeswitch.service'])).stdout.trim()).toBe('not-found');
  }, 180_000);
});
