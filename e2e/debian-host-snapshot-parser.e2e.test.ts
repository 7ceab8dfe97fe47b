/**
 * Fault injection against the installed package's packet parser run from the CLI's startup
 * snapshot (`node --snapshot-blob BLOB -- capture-rows` as nobody, capture/parser-program.ts) on a
 * booted Debian 13 host with the .deb installed: the blob's key gone (a rebuild under way), the
 * blob rebuilt while K2s DNS runs, NODE_OPTIONS in the manager's environment, and a cache
 * directory the parser's user cannot enter. After each, a lookup on 127.0.0.1:53 is still a row
 * of /var/log/dnsproxy/queries.jsonl.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parserLine } from '../electron/core/capture/pipeline';
import type { CapturedQuery } from '../electron/core/capture/pairing';
import { buildPackages } from '../scripts/package/main';
import { createDebianHost, debianHostMissing, HOST_SRC, REPO_ROOT, type DebianHost } from './bed/debian-host';
import { hostResolver, isActive, PLAIN_NSSWITCH, PLAIN_RESOLV_CONF } from './bed/debian-host-cli';
import { udpQuery } from './bed/fixed-port-query';
import { startTestbed, type Testbed } from './bed/testbed';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
const why = inSandbox ? await debianHostMissing() : 'the Debian host boots only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)';
if (why) console.warn(`skipped: snapshot parser faults on a booted Debian 13 host (${why})`);

const BLOB = '/var/cache/k2s-dns/k2s-dns-cli.blob';
const CAPTURE = 'k2s-dnsproxy-capture.service';
const ROWS = '/var/log/dnsproxy/queries.jsonl';
const OUT = join(REPO_ROOT, '.tmp', 'snapshot-parser-e2e');
const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const inHost = (p: string) => `${HOST_SRC}/${p.slice(REPO_ROOT.length).replace(/^\/+/, '')}`;

describe.skipIf(why !== null)('the packet parser from the startup snapshot, under faults (installed .deb, Debian 13 host)', { retry: 0 }, () => {
  let tb: Testbed;
  let h: DebianHost;
  let original: string;
  let id = 5100;

  beforeAll(async () => {
    const pkg = await buildPackages({ version: VERSION, out: OUT, skipBuild: true });
    tb = await startTestbed();
    h = await createDebianHost({ files: { '/etc/resolv.conf': PLAIN_RESOLV_CONF, '/etc/nsswitch.conf': PLAIN_NSSWITCH, '/root/.kube/config': await readFile(tb.kubeconfigPath, 'utf8') } });
    await h.boot();
    await h.waitRunning();
    original = await hostResolver(h);
    const inst = await h.run(['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', '-y', '-o', 'Acquire::Retries=0', 'install', '--no-install-recommends', inHost(pkg.deb)], { timeoutMs: 180_000 });
    expect(inst.code, inst.stdout + inst.stderr).toBe(0);
  }, 300_000);
  afterAll(async () => {
    await h?.destroy();
    await tb?.stop();
  }, 120_000);

  const k2s = async (args: string[]) => {
    const r = await h.run(['k2s-dns', ...args, '--json'], { timeoutMs: 90_000 });
    const result = r.stdout.split('\n').filter((l) => l.startsWith('{"type":"result"')).at(-1);
    return { ...r, result: result ? (JSON.parse(result) as { ok: boolean; warnings?: unknown[] }) : undefined };
  };
  const start = () => k2s(['start', '--kubeconfig', '/root/.kube/config', '--engine', 'dnsmasq', '--verify-name', 'www.example.test']);
  /** The parser's argv and user, inside the capture unit's cgroup ('' when none runs). */
  const parser = async () => (await h.sh(`for p in $(cat /sys/fs/cgroup/system.slice/${CAPTURE}/cgroup.procs); do c=$(tr '\\0' ' ' < /proc/$p/cmdline); case "$c" in *capture-rows*) echo "$(stat -c %U /proc/$p) $c";; esac; done`)).stdout.trim();
  /** One lookup on 127.0.0.1:53 with a fresh DNS id; true once its row is in the log (20 s bound, polled). */
  const logged = async (): Promise<boolean> => {
    const mine = ++id;
    expect(await udpQuery(43000 + (mine % 1000), mine, 'web.demo.svc.cluster.local')).toBe('NOERROR');
    const t0 = Date.now();
    while (Date.now() - t0 < 20_000) {
      const rows = (await h.run(['cat', ROWS])).stdout.split('\n').map(parserLine).filter((v): v is CapturedQuery => v !== null && !('counts' in v));
      if (rows.some((r) => r.id === mine && r.rcode !== null)) return true;
      await new Promise((r) => setTimeout(r, 200));
    }
    return false;
  };
  const journal = async () => (await h.run(['journalctl', '-u', CAPTURE, '-o', 'cat', '--no-pager', '-n', '15'])).stdout;

  it('baseline: the parser runs from the blob as nobody and logs', async () => {
    const r = await start();
    expect(r.result, r.stdout.slice(-600) + r.stderr).toMatchObject({ ok: true });
    expect(await parser()).toBe(`nobody /usr/bin/node --snapshot-blob ${BLOB} -- capture-rows`);
    expect(await logged()).toBe(true);
  }, 120_000);

  it('the blob rebuilt (k2s-dns-snapshot, as dpkg\'s trigger runs it) while K2s DNS runs, then the capture restarted: it logs', async () => {
    const b = await h.run(['/usr/lib/k2s-dns/k2s-dns-snapshot'], { timeoutMs: 120_000 });
    expect(b.code, b.stderr).toBe(0);
    expect(await logged()).toBe(true);
    expect((await h.run(['systemctl', 'restart', CAPTURE])).code).toBe(0);
    await h.run(['sh', '-c', 'i=0; while [ ! -s /run/k2s/capture.ready ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done']);
    console.log(`after rebuild: ${await parser()}`);
    expect(await logged(), await journal()).toBe(true);
  }, 180_000);

  it('the blob\'s key gone (a rebuild under way) when the capture restarts: the parser runs from the script and logs', async () => {
    await h.run(['mv', `${BLOB}.key`, '/root/blob.key']);
    try {
      expect((await h.run(['systemctl', 'restart', CAPTURE])).code).toBe(0);
      await h.run(['sh', '-c', 'i=0; while [ ! -s /run/k2s/capture.ready ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done']);
      console.log(`without key: ${await parser()}`);
      expect(await parser()).toMatch(/^nobody \/usr\/bin\/node \/run\/k2s\/capture-rows\.cjs/);
      expect(await logged(), await journal()).toBe(true);
    } finally {
      await h.run(['mv', '/root/blob.key', `${BLOB}.key`]);
    }
  }, 120_000);

  it('NODE_OPTIONS in the manager\'s environment: stop, start; the capture and its parser run and log', async () => {
    expect((await k2s(['stop'])).result).toMatchObject({ ok: true });
    await h.run(['systemctl', 'set-environment', 'NODE_OPTIONS=--max-old-space-size=256']);
    try {
      const r = await start();
      expect(r.result, r.stdout.slice(-600) + r.stderr).toMatchObject({ ok: true });
      expect(r.result?.warnings ?? []).toEqual([]);
      console.log(`with NODE_OPTIONS: ${await parser()}`);
      expect(await isActive(h, CAPTURE)).toBe('active');
      expect(await logged(), await journal()).toBe(true);
    } finally {
      await h.run(['systemctl', 'unset-environment', 'NODE_OPTIONS']);
    }
  }, 120_000);

  it('a followed network change (the search list only) while the capture is marked failed: the follower keeps the proxy and restarts the capture, whose parser runs from the blob and logs', async () => {
    const follower = (await h.run(['systemctl', 'show', '-P', 'MainPID', 'k2s-dnsproxy-follow.service'])).stdout.trim();
    console.log(`follower: ${(await h.run(['cat', `/proc/${follower}/cmdline`])).stdout.split('\0').join(' ')}`);
    const before = (await h.run(['systemctl', 'show', '-P', 'MainPID', CAPTURE])).stdout.trim();
    const proxyBefore = (await h.run(['systemctl', 'show', '-P', 'MainPID', 'k2s-dnsproxy.service'])).stdout.trim();
    await h.run(['sh', '-c', 'echo "2026-01-01T00:00:00Z the capture did not start: injected" > /run/k2s/capture.failed']);
    // The network's DHCP client writes a new file (another search domain, the same nameserver).
    await h.run(['sh', '-c', 'printf "nameserver 192.0.2.53\\nsearch other.test\\n" > /etc/resolv.conf.dhcp && mv /etc/resolv.conf.dhcp /etc/resolv.conf']);
    const t0 = Date.now();
    let after = before;
    while (Date.now() - t0 < 30_000) {
      after = (await h.run(['systemctl', 'show', '-P', 'MainPID', CAPTURE])).stdout.trim();
      if (after !== before && after !== '0' && (await h.run(['test', '-s', '/run/k2s/capture.ready'])).code === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const state = JSON.parse((await h.run(['cat', '/var/lib/k2s/dns-resolver-state.json'])).stdout) as { lastNetworkChange?: unknown };
    console.log(`follow: capture ${before} → ${after}; parser: ${await parser()}; change: ${JSON.stringify(state.lastNetworkChange)}; follow log: ${(await h.run(['sh', '-c', 'tail -n 5 /var/log/dnsproxy/follow.log 2>/dev/null || journalctl -u k2s-dnsproxy-follow.service -o cat -n 5 --no-pager'])).stdout}`);
    expect(after).not.toBe(before);
    // Only the search list changed: the proxy kept running (same process, its cache kept), the
    // capture marked failed restarted, and the record says both.
    expect((await h.run(['systemctl', 'show', '-P', 'MainPID', 'k2s-dnsproxy.service'])).stdout.trim()).toBe(proxyBefore);
    expect(state.lastNetworkChange).toMatchObject({ outcome: 'followed', to: ['192.0.2.53'], proxy: 'kept', capture: { why: 'failed', ok: true } });
    expect(await parser()).toBe(`nobody /usr/bin/node --snapshot-blob ${BLOB} -- capture-rows`);
    expect(await logged(), await journal()).toBe(true);
  }, 120_000);

  it('the cache directory the parser\'s user cannot enter (mode 0700, root\'s: the launcher still runs from the blob): stop, start; the capture logs', async () => {
    expect((await k2s(['stop'])).result).toMatchObject({ ok: true });
    await h.run(['chmod', '0700', '/var/cache/k2s-dns']);
    try {
      const r = await start();
      console.log(`cache dir 0700: start ${JSON.stringify(r.result)}; parser: ${await parser()}; journal: ${await journal()}`);
      expect(r.result, r.stdout.slice(-600) + r.stderr).toMatchObject({ ok: true });
      expect(r.result?.warnings ?? []).toEqual([]);
      expect(await logged(), await journal()).toBe(true);
    } finally {
      await h.run(['chmod', '0755', '/var/cache/k2s-dns']);
    }
    expect((await k2s(['stop'])).result).toMatchObject({ ok: true });
    // The followed network's file is the one stop puts back.
    expect(await hostResolver(h)).not.toBe('');
    void original;
  }, 120_000);
});
