/**
 * Web security of the running proxy on the test bed: the running proxy is not root and still answers on
 * 127.0.0.1:53, the query log is private (group adm, 0640) and uninstall removes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, stat } from 'node:fs/promises';
import { queryDns } from '../electron/core/probes/dns-query';
import { K2S_PATHS } from '../shared/k2s-paths';
import { startTestbed, type Testbed } from './bed/testbed';
import { k2sDns } from './cli';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DNSPROXY = fileURLToPath(new URL('../.tools/bin/dnsproxy', import.meta.url));

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: websec e2e runs only inside e2e/bed/sandbox.sh (as root)');

/** Real, effective, saved and fs uid of a process (proc(5) /proc/PID/status `Uid:`). */
async function uids(pid: number): Promise<number[]> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return status.match(/^Uid:\s+(.*)$/m)![1]!.trim().split(/\s+/).map(Number);
}

describe.skipIf(!inSandbox)('websec on the test bed (dnsmasq engine)', () => {
  let tb: Testbed;
  let base: string[];

  beforeAll(async () => {
    tb = await startTestbed();
    base = ['--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json'];
  });
  afterAll(async () => {
    await k2sDns(['stop', '--on-drift', 'restore']);
    await tb?.stop();
  });

  // Regression: on main dnsmasq ran as uid 0 and the log was 0644.
  it("the proxy runs as dnsmasq-base's dnsmasq user (nobody where there is none), answers on 127.0.0.1:53, and the query log is 0640 group adm, owned by that user", async () => {
    const start = await k2sDns(['start', ...base]);
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
    const pid = Number((await readFile(K2S_PATHS.pidFile, 'utf8')).trim());
    const passwd = await readFile('/etc/passwd', 'utf8');
    // dnsmasq-base's postinst creates the dnsmasq user with the binary (shared/dnsmasq-config.ts dnsmasqDropFrom).
    const own = passwd.match(/^dnsmasq:[^:]*:(\d+):/m);
    const uid = Number((own ?? passwd.match(/^nobody:[^:]*:(\d+):/m))![1]);
    expect((start.result!.warnings ?? []).map((w) => w.code).includes('SHARED_PROXY_ACCOUNT')).toBe(own === null);
    expect(await uids(pid)).toEqual([uid, uid, uid, uid]);
    const r = await queryDns({ name: 'kubernetes.default.svc.cluster.local', type: 'A', server: '127.0.0.1' });
    expect(r.answers.map((a) => a.data)).toEqual(['172.21.0.1']);
    const adm = Number((await readFile('/etc/group', 'utf8')).match(/^adm:[^:]*:(\d+):/m)![1]);
    const log = await stat(K2S_PATHS.log);
    expect(log.mode & 0o777).toBe(0o640);
    expect(log.gid).toBe(adm);
    // dnsmasq hands its log-facility file to the user it drops to (log.c log_start); group and mode stay.
    expect(log.uid).toBe(uid);
    // The query was logged (query logging is on by default) into a private file: the exact log
    // from packets where tcpdump is installed (then the engine logs no queries), else the proxy log.
    const queryLog = (await stat(K2S_PATHS.queryRows).catch(() => null)) ? K2S_PATHS.queryRows : K2S_PATHS.log;
    const q = await stat(queryLog);
    expect([q.mode & 0o777, q.gid]).toEqual([0o640, adm]);
    await expect.poll(async () => (await readFile(queryLog, 'utf8')).includes('kubernetes.default.svc.cluster.local'), { timeout: 10_000 }).toBe(true);
  });

  // Regression: main ran AdGuard dnsproxy as uid 0 (it has no user option).
  it.skipIf(!existsSync(DNSPROXY))('adguard: dnsproxy runs as nobody through setpriv with only CAP_NET_BIND_SERVICE, and answers on 127.0.0.1:53 (skipped without .tools/bin/dnsproxy)', async () => {
    await k2sDns(['stop', '--on-drift', 'restore']);
    const start = await k2sDns(['start', ...base.filter((a) => a !== 'dnsmasq' && a !== '--engine'), '--engine', 'adguard', '--dnsproxy', DNSPROXY]);
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
    const pid = Number((await readFile(K2S_PATHS.pidFile, 'utf8')).trim());
    const nobody = Number((await readFile('/etc/passwd', 'utf8')).match(/^nobody:[^:]*:(\d+):/m)![1]);
    expect(await uids(pid)).toEqual([nobody, nobody, nobody, nobody]);
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    // CAP_NET_BIND_SERVICE is bit 10: effective and bounding sets hold exactly that capability.
    expect(status.match(/^CapEff:\s+(\S+)$/m)![1]).toBe('0000000000000400');
    expect(status.match(/^CapBnd:\s+(\S+)$/m)![1]).toBe('0000000000000400');
    expect((await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0')[0]).toBe(DNSPROXY);
    const r = await queryDns({ name: 'kubernetes.default.svc.cluster.local', type: 'A', server: '127.0.0.1' });
    expect(r.answers.map((a) => a.data)).toEqual(['172.21.0.1']);
  });

  it('uninstall removes the query log and says so', async () => {
    const u = await k2sDns(['uninstall', '--json']);
    expect(u.result, u.stdout + u.stderr).toMatchObject({ ok: true, exitCode: 0 });
    expect(u.stdout).toContain(K2S_PATHS.log);
    await expect(stat(K2S_PATHS.log)).rejects.toThrow(/ENOENT/);
    await expect(stat(K2S_PATHS.queryRows)).rejects.toThrow(/ENOENT/);
  });
});
