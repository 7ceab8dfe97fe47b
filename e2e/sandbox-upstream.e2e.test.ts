/**
 * `npm run sandbox:ctl -- upstream down|up` (walk 12 M4): the sandbox network's nameserver, the
 * test bed's upstream dnsmasq on 192.0.2.53, stops answering and comes back with the same records
 * (www.example.test → 198.51.100.7, e2e/bed/testbed.ts UPSTREAM_RECORDS) — also after someone
 * killed it in the sandbox's root shell, which before no control brought back. Runs the control
 * script as the separate process a user runs (e2e/sandbox-ctl.ts), against the control channel
 * the sandbox's inner side serves (e2e/sandbox-control.ts), on the real bed.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryDns } from '../electron/core/probes/dns-query';
import type { Testbed } from './bed/testbed';
import type { ControlServer } from './sandbox-control';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: sandbox-upstream e2e runs only inside e2e/bed/sandbox.sh (as root)');

/** `npm run sandbox:ctl -- --dir DIR …words` (the script npm runs, without npm's banner) → exit code and output. */
function ctl(dir: string, words: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'e2e/sandbox-ctl.ts', '--dir', dir, ...words.split(' ')], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out: out.trim() }));
  });
}

/** The bed's external name asked of its upstream → rcode and addresses. */
async function askUpstream(tb: Testbed): Promise<{ rcode: string; answers: string[] }> {
  const r = await queryDns({ name: 'www.example.test', type: 'A', server: `${tb.addresses.upstream}:53`, timeoutMs: 1000 });
  return { rcode: r.rcode, answers: r.answers.map((a) => a.data) };
}

describe.skipIf(!inSandbox)('sandbox:ctl -- upstream down|up', () => {
  let tb: Testbed;
  let control: ControlServer;
  let dir: string;

  beforeAll(async () => {
    const { startTestbed } = await import('./bed/testbed');
    const { startControlServer } = await import('./sandbox-control');
    tb = await startTestbed();
    dir = await mkdtemp(join(tmpdir(), 'k2sdns-ctl-up-'));
    control = await startControlServer(tb, join(dir, 'control.sock'));
  }, 120_000);

  afterAll(async () => {
    await control?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
    await tb?.stop();
  });

  it('down: www.example.test gets no answer from 192.0.2.53; up: 198.51.100.7 again, from a new dnsmasq', async () => {
    expect(await askUpstream(tb)).toEqual({ rcode: 'NOERROR', answers: ['198.51.100.7'] });
    const first = tb.upstreamPid();
    expect(first).not.toBeNull();

    const down = await ctl(dir, 'upstream down');
    expect(down).toEqual({ code: 0, out: "ok: the upstream (dnsmasq, the sandbox network's nameserver 192.0.2.53:53) stopped: names outside the cluster that the proxy has not cached get SERVFAIL with AdGuard dnsproxy, and no answer with dnsmasq (the query times out: k2s-dns query says TIMEOUT after 2 s); cached ones (www.example.test once asked through this run of the proxy: a fresh start begins with an empty cache) still answer from its cache while it lasts; cluster names still resolve" });
    expect(tb.upstreamPid()).toBeNull();
    // Nothing listens on 192.0.2.53:53 now: the port refuses (ICMP port unreachable), no answer.
    const gone = await askUpstream(tb);
    expect(gone.answers).toEqual([]);
    expect(['ERROR', 'TIMEOUT']).toContain(gone.rcode);
    expect((await ctl(dir, 'status')).out).toMatch(/; the upstream \(dnsmasq, the sandbox network's nameserver 192\.0\.2\.53:53\) down$/);
    expect(await ctl(dir, 'upstream down')).toEqual({ code: 0, out: "ok: the upstream (dnsmasq, the sandbox network's nameserver 192.0.2.53:53) is already down" });

    const up = await ctl(dir, 'upstream up');
    const pid = tb.upstreamPid();
    expect(pid).not.toBeNull();
    expect(pid).not.toBe(first);
    expect(up).toEqual({ code: 0, out: `ok: the upstream (dnsmasq, the sandbox network's nameserver 192.0.2.53:53) answers again (PID ${pid}); names outside the cluster resolve again` });
    expect(await askUpstream(tb)).toEqual({ rcode: 'NOERROR', answers: ['198.51.100.7'] });
    expect((await ctl(dir, 'status')).out).toMatch(new RegExp(`; the upstream \\(dnsmasq, the sandbox network's nameserver 192\\.0\\.2\\.53:53\\) up \\(PID ${pid}\\)$`));
  });

  it('killed in the root shell (kill -9 of its PID, as walk 12 did): up starts it again with the same records', async () => {
    const pid = tb.upstreamPid()!;
    expect(pid).not.toBeNull();
    const gone = new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (tb.upstreamPid() === null) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    process.kill(pid, 'SIGKILL'); // the bed's own child, started by this test's startTestbed
    await gone; // the bed saw it exit (node reaped it)
    expect((await askUpstream(tb)).answers).toEqual([]);
    const up = await ctl(dir, 'upstream up');
    expect(up.code, up.out).toBe(0);
    expect(up.out).toMatch(/^ok: the upstream \(dnsmasq, the sandbox network's nameserver 192\.0\.2\.53:53\) answers again \(PID \d+\)/);
    expect(tb.upstreamPid()).not.toBe(pid);
    expect(await askUpstream(tb)).toEqual({ rcode: 'NOERROR', answers: ['198.51.100.7'] });
    // A name only the upstream's records hold, asked again: the same server, not a bare one.
    const k8s = await queryDns({ name: 'kubernetes.io', type: 'A', server: '192.0.2.53:53', timeoutMs: 1000 });
    expect(k8s.answers.map((a) => a.data)).toEqual(['198.51.100.11']);
  });
});
