/**
 * The account dnsmasq drops to, on a booted Debian 13 host (e2e/bed/debian-host.ts): dnsmasq
 * hands its log-facility file (the proxy log) to the user it drops to (dnsmasq log.c log_start),
 * so k2s-dns has it drop to dnsmasq-base's own `dnsmasq` system user, not the shared `nobody`
 * (shared/dnsmasq-config.ts dnsmasqDropFrom). Measured here: what Debian 13's dnsmasq (2.91) does to a
 * root:adm 0640 file for each account, the product's start (unit argv, process owners, log
 * owner, rows in `k2s-dns queries` and query lines in the log dnsmasq writes after its chown),
 * and the fallback on a host without the dnsmasq user (nobody, with the start's warning).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debianHostMissing, type DebianHost } from './bed/debian-host';
import { bootPlainHost, hostCli, hostGetent, hostResolver, hostStartArgs } from './bed/debian-host-cli';
import type { Testbed } from './bed/testbed';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
const why = inSandbox ? await debianHostMissing() : 'the Debian host boots only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)';
if (why) console.warn(`skipped: dnsmasq's account on a booted Debian 13 host (${why})`);

const LOG = '/var/log/dnsproxy/dnsproxy.log';

describe.skipIf(why !== null)("dnsmasq's account on a booted Debian 13 host", () => {
  let tb: Testbed;
  let h: DebianHost;
  let original: string;

  /** `user:group mode` of a file inside the host (stat(1)). */
  const owner = async (path: string): Promise<string> => (await h.run(['stat', '-c', '%U:%G %a', path])).stdout.trim();
  /** The owners of the running dnsmasq processes inside the host, sorted. */
  const dnsmasqUsers = async (): Promise<string[]> =>
    (await h.sh('for p in /proc/[0-9]*; do [ "$(cat $p/comm 2>/dev/null)" = dnsmasq ] && stat -c %U $p; done; true')).stdout.trim().split('\n').filter(Boolean).sort();

  beforeAll(async () => {
    ({ tb, h, original } = await bootPlainHost());
  }, 180_000);
  afterAll(async () => {
    await h?.destroy();
    await tb?.stop();
  }, 120_000);

  it("dnsmasq itself (2.91, Debian 13): a root:adm 0640 log-facility file gets the --user account as owner; group adm and 0640 stay", async () => {
    const passwd = (await h.run(['getent', 'passwd', 'dnsmasq'])).stdout.trim();
    // dnsmasq-base's postinst: a system user with group nogroup.
    expect(passwd).toMatch(/^dnsmasq:x:\d+:65534:dnsmasq:\/var\/lib\/misc:\/usr\/sbin\/nologin$/);
    const seen: Record<string, string[]> = {};
    for (const user of ['nobody', 'dnsmasq']) {
      const f = `/run/k2s-measure-${user}.log`;
      // Without --keep-in-foreground the parent returns once the daemon has opened its log and
      // dropped root (its error pipe closes then): no wait needed before stat.
      const r = await h.sh(
        `install -o root -g adm -m 0640 /dev/null ${f} && stat -c '%U:%G %a' ${f} && ` +
          `/usr/sbin/dnsmasq --conf-file=/dev/null --port=0 --pid-file=/run/k2s-measure.pid --log-facility=${f} --user=${user} --group=nogroup && ` +
          `stat -c '%U:%G %a' ${f} && p=$(cat /run/k2s-measure.pid) && stat -c %U /proc/$p && kill $p && tail --pid=$p -f /dev/null`,
      );
      expect(r.code, r.stderr).toBe(0);
      seen[user] = r.stdout.trim().split('\n');
    }
    console.log(`debian-host-dnsmasq-user: log-facility file before → after dnsmasq --user=U: ${JSON.stringify(seen)}`);
    expect(seen).toEqual({ nobody: ['root:adm 640', 'nobody:adm 640', 'nobody'], dnsmasq: ['root:adm 640', 'dnsmasq:adm 640', 'dnsmasq'] });
  });

  it("why not systemd's DynamicUser= for dnsmasq: started as a transient uid, it cannot open its root:adm 0640 log-facility file and exits", async () => {
    const f = '/var/log/dnsproxy/k2s-measure-dynamic.log';
    await h.sh(`install -d -m 0755 /var/log/dnsproxy && install -o root -g adm -m 0640 /dev/null ${f}`);
    // As the unit would run it (renderUnit's lines for a runAs engine), on a port no one uses.
    const r = await h.sh(
      'systemd-run --wait --quiet --unit k2s-measure-dynamic -p DynamicUser=yes -p AmbientCapabilities=CAP_NET_BIND_SERVICE -p CapabilityBoundingSet=CAP_NET_BIND_SERVICE -p NoNewPrivileges=yes ' +
        `/usr/sbin/dnsmasq --keep-in-foreground --conf-file=/dev/null --port=5399 --listen-address=127.0.0.1 --bind-interfaces --pid-file= --log-facility=${f}`,
    );
    expect(r.code).not.toBe(0);
    const journal = (await h.run(['journalctl', '-u', 'k2s-measure-dynamic', '-o', 'cat', '--no-pager'])).stdout;
    console.log(`debian-host-dnsmasq-user: dnsmasq under DynamicUser=yes: exit ${r.code}; ${journal.trim().split('\n').slice(-2).join(' / ')}`);
    expect(journal).toContain(`cannot open log ${f}: Permission denied`);
    expect(await owner(f)).toBe('root:adm 640');
    await h.run(['rm', '-f', f]);
  });

  it('start --engine dnsmasq: both units run dnsmasq as dnsmasq, the log is dnsmasq:adm 0640, rows reach k2s-dns queries, and dnsmasq still logs (its query lines without tcpdump)', async () => {
    const start = await hostCli(h, hostStartArgs('dnsmasq'));
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
    expect((start.result!.warnings ?? []).map((w) => w.code)).not.toContain('SHARED_PROXY_ACCOUNT');
    const unit = (await h.run(['systemctl', 'cat', 'k2s-dnsproxy.service', 'k2s-dnsproxy-kubeswitch.service'])).stdout;
    expect(unit.match(/ --user=\S+ --group=\S+\n/g)).toEqual([' --user=dnsmasq --group=nogroup\n', ' --user=dnsmasq --group=nogroup\n']);
    expect(await dnsmasqUsers()).toEqual(['dnsmasq', 'dnsmasq']);
    const after = await owner(LOG);
    console.log(`debian-host-dnsmasq-user: ${LOG} after start --engine dnsmasq: ${after}`);
    expect(after).toBe('dnsmasq:adm 640');

    expect(await hostGetent(h, 'web.demo.svc.cluster.local')).toEqual(['172.21.14.7']);
    expect(await hostGetent(h, 'www.example.test')).toEqual(['198.51.100.7']);
    // The exact query log (tcpdump is installed on the host) has the rows.
    await expect
      .poll(async () => {
        const q = await hostCli(h, ['queries', '--lines', '200', '--json']);
        return JSON.stringify(JSON.parse(q.stdout).rows ?? []);
      }, { timeout: 20_000 })
      .toContain('web.demo.svc.cluster.local');
    // dnsmasq writes its own lines into the file it was handed (its start line, after the drop).
    expect((await h.run(['cat', LOG])).stdout).toMatch(/dnsmasq\[\d+\]: started, version 2\.\d+/);
    let stop = await hostCli(h, ['stop', '--json']);
    expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true, exitCode: 0 });

    // Without tcpdump the engine logs every query itself (log-queries): its lines reach the log it owns.
    expect((await h.run(['chmod', '-x', '/usr/bin/tcpdump'])).code).toBe(0);
    const again = await hostCli(h, hostStartArgs('dnsmasq'));
    expect(again.result, again.stdout + again.stderr).toMatchObject({ ok: true, exitCode: 0 });
    expect((again.result!.warnings ?? []).map((w) => w.code)).toEqual(['CAPTURE_UNAVAILABLE']);
    expect(await owner(LOG)).toBe('dnsmasq:adm 640');
    expect(await hostGetent(h, 'web.demo.svc.cluster.local')).toEqual(['172.21.14.7']);
    await expect.poll(async () => (await h.run(['cat', LOG])).stdout, { timeout: 10_000 }).toMatch(/dnsmasq\[\d+\]: .*query\[A\] web\.demo\.svc\.cluster\.local from 127\.0\.0\.1/);
    stop = await hostCli(h, ['stop', '--json']);
    expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true, exitCode: 0 });
    expect((await h.run(['chmod', '+x', '/usr/bin/tcpdump'])).code).toBe(0);
    expect(await hostResolver(h)).toBe(original);
  }, 180_000);

  it('a host without the dnsmasq user: dnsmasq runs as nobody, the start says so once (SHARED_PROXY_ACCOUNT), the log is nobody:adm 0640', async () => {
    expect((await h.run(['userdel', 'dnsmasq'])).code).toBe(0);
    const start = await hostCli(h, hostStartArgs('dnsmasq'));
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
    expect((start.result!.warnings ?? []).map((w) => w.code)).toEqual(['SHARED_PROXY_ACCOUNT']);
    expect(start.result!.message).toContain('dnsmasq runs as the shared account nobody');
    const unit = (await h.run(['systemctl', 'cat', 'k2s-dnsproxy.service'])).stdout;
    expect(unit).toContain(' --user=nobody --group=nogroup\n');
    expect(await dnsmasqUsers()).toEqual(['nobody', 'nobody']);
    expect(await owner(LOG)).toBe('nobody:adm 640');
    expect(await hostGetent(h, 'kubernetes.default.svc.cluster.local')).toEqual(['172.21.0.1']);
    const stop = await hostCli(h, ['stop', '--json']);
    expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true, exitCode: 0 });
    expect(await hostResolver(h)).toBe(original);
  }, 180_000);
});
