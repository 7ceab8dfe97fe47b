import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSocket, type Socket } from 'node:dgram';
import { access, chown, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { execFile, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { queryDns } from '../electron/core/probes/dns-query';
import { K2S_PATHS } from '../shared/k2s-paths';
import { WATCHDOG_PID_FILE } from '../electron/core/host/supervised-service';
import { RESOLV_LAYOUTS, type ResolvLayout } from './bed/resolv-layout';
import { startTestbed, type Testbed } from './bed/testbed';
import { ENGINE_BIN, engineArgs, engineMissing, PROXY_ENGINES, type ProxyEngine } from './bed/engines';
import { clusterLanChecks } from './bed/cluster-lan-checks';
import { configPathFor } from '../electron/core/lifecycle/proxy-config';
import { runCmd } from './bed/run-cmd';
import { k2sDns, getentHosts } from './cli';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: lifecycle e2e runs only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)');
/** Why the real AdGuard dnsproxy cannot run here, or null. */
const dnsproxyMissing = inSandbox ? await engineMissing('dnsproxy') : null;
if (dnsproxyMissing) console.warn(`skipped: lifecycle e2e with --engine adguard (${dnsproxyMissing})`);

const HELPER = fileURLToPath(new URL('../bin/k2s-dns-helper.mjs', import.meta.url));
const exists = (p: string) => access(p).then(() => true, () => false);
/** A host tool with the bed's 30 s deadline (runCmd), stdout trimmed. */
const run = async (cmd: string, args: string[]) => (await runCmd(cmd, args, 30_000)).trim();

describe.each(PROXY_ENGINES.map((e) => [e]))('k2s-dns lifecycle on the test bed (%s engine)', (engine: ProxyEngine) => {
  const skip = !inSandbox || (engine === 'adguard' && dnsproxyMissing !== null);
  let tb: Testbed;
  let base: string[];

  beforeAll(async () => {
    if (skip) return;
    tb = await startTestbed();
    base = ['--kubeconfig', tb.kubeconfigPath, ...engineArgs(engine), '--verify-name', 'www.example.test', '--json'];
  });
  afterEach(async () => {
    // Whatever a test left running, stop it so the next one starts from the original resolver
    // (no state file and no pid file: nothing to stop, and a CLI run costs seconds on a busy host).
    if (skip || !((await exists(K2S_PATHS.stateFile)) || (await exists(K2S_PATHS.pidFile)))) return;
    await k2sDns(['stop', '--on-drift', 'restore']);
  });
  afterAll(async () => {
    await tb?.stop();
  });

  for (const layout of RESOLV_LAYOUTS) {
    it.skipIf(skip)(`start → cluster names, external, cluster PTR via CoreDNS, LAN PTR via the original nameserver → stop restores the ${layout} layout byte for byte`, async () => {
      await tb.setResolvLayout(layout as ResolvLayout);
      const before = await tb.snapshotResolver();
      // A dangling link has no nameservers to read: the upstream is given explicitly.
      const extra = layout === 'dangling-symlink' ? ['--upstream', '192.0.2.53'] : [];
      const start = await k2sDns(['start', ...base, ...extra]);
      expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
      expect(start.code).toBe(0);

      expect(await getentHosts('kubernetes.default.svc.cluster.local')).toEqual(['172.21.0.1']);
      expect(await getentHosts('web.demo.svc.cluster.local')).toEqual(['172.21.14.7']);
      await clusterLanChecks(tb, '127.0.0.1', 'udp');
      const nx = await queryDns({ name: 'nope.example.test', type: 'A', server: '127.0.0.1' });
      expect(nx.rcode).toBe('NXDOMAIN');
      const pubPtr = await queryDns({ name: '198.51.100.7', type: 'PTR', server: '127.0.0.1' });
      expect(pubPtr.answers.map((a) => a.data)).toEqual(['www.example.test']);
      // The KubeSwitch listener answers too (pods and the Windows side use it in K2s).
      const viaSwitch = await queryDns({ name: 'kubernetes.default.svc.cluster.local', type: 'A', server: '172.19.1.1', transport: 'tcp' });
      expect(viaSwitch.answers.map((a) => a.data)).toEqual(['172.21.0.1']);

      const stop = await k2sDns(['stop', '--json']);
      // A link to nothing put back resolves nothing (glibc asks 127.0.0.1, where the proxy was):
      // stop says so, RESOLVER_DOWN with exit 5, as status does right after (walk 10 M5).
      const down = layout === 'dangling-symlink';
      expect(stop.result).toMatchObject({ ok: true, exitCode: down ? 5 : 0 });
      expect(stop.code).toBe(down ? 5 : 0);
      expect(stop.result?.warnings?.map((w) => w.code)).toEqual(down ? ['RESOLVER_DOWN'] : undefined);
      expect(await tb.snapshotResolver()).toEqual(before);
      expect(await getentHosts('kubernetes.default.svc.cluster.local')).toEqual([]);
      expect(await exists(K2S_PATHS.stateFile)).toBe(false);
    });
  }

  it.skipIf(skip)('a second start keeps the saved original and says it is already running; one with the other --engine is refused', async () => {
    await tb.setResolvLayout('relative-symlink-run');
    const before = await tb.snapshotResolver();
    expect((await k2sDns(['start', ...base])).code).toBe(0);
    const again = await k2sDns(['start', ...base]);
    expect(again.result).toMatchObject({ ok: true, exitCode: 0 });
    expect(again.result?.message).toMatch(/already running/);
    // The other engine asked with --engine (fourth walk M3): refused, not "nothing changed".
    const other: ProxyEngine = engine === 'adguard' ? 'dnsmasq' : 'adguard';
    if (other === 'dnsmasq' || dnsproxyMissing === null) {
      const switched = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs(other), '--verify-name', 'www.example.test', '--json']);
      expect(switched.code, switched.stdout + switched.stderr).toBe(3);
      expect(switched.result).toMatchObject({ ok: false, exitCode: 3, code: 'RUNNING_OTHER_OPTIONS' });
      expect(switched.result?.message).toContain(`(engine ${other} asked, ${engine} running)`);
      // The refusal is the preflight step's: never a done preflight before REFUSED (walk 6 L7).
      expect(switched.events.filter((e) => e.type === 'step').map((e) => `${e.step} ${e.status}`)).toEqual(['preflight running', 'preflight failed']);
    }
    expect((await k2sDns(['stop', '--json'])).code).toBe(0);
    expect(await tb.snapshotResolver()).toEqual(before);
  });

  if (engine === 'dnsmasq') it.skipIf(skip)('a start while the watchdog restarts the proxy is refused (PROXY_RESTARTING, exit 3), and the watchdog goes on to restart it', async () => {
    await tb.setResolvLayout('file');
    const before = await tb.snapshotResolver();
    expect((await k2sDns(['start', ...base])).code).toBe(0);
    const dog = Number((await readFile(WATCHDOG_PID_FILE, 'utf8')).trim());
    const proxy = Number((await readFile(K2S_PATHS.pidFile, 'utf8')).trim());
    // The watchdog held (SIGSTOP) before the proxy dies: its restart stays in progress, no timing.
    process.kill(dog, 'SIGSTOP');
    try {
      process.kill(proxy, 'SIGKILL');
      const refused = await k2sDns(['start', ...base]);
      expect(refused.code, refused.stdout + refused.stderr).toBe(3);
      expect(refused.result).toMatchObject({ ok: false, exitCode: 3, code: 'PROXY_RESTARTING' });
      expect(refused.result?.message).toMatch(/^k2s-dnsproxy is not running: the watchdog is restarting it \(restart 1 of 6, 1 s after the exit\); nothing changed\. Wait up to 1 s, then run \S.* status: /);
      expect(refused.events.filter((e) => e.type === 'step').map((e) => `${e.step} ${e.status}`)).toEqual(['preflight running', 'preflight failed']);
    } finally {
      process.kill(dog, 'SIGCONT');
    }
    // Let go, the watchdog restarts it (1 s backoff); the same start then says it runs.
    const deadline = Date.now() + 20_000;
    let st = JSON.parse((await k2sDns(['status', '--json'])).stdout) as { state: string; pid: number | null };
    while (!(st.state === 'running' && st.pid !== null && st.pid !== proxy) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      st = JSON.parse((await k2sDns(['status', '--json'])).stdout) as { state: string; pid: number | null };
    }
    expect(st.state).toBe('running');
    expect((await k2sDns(['start', ...base])).result?.message).toMatch(/already running/);
    expect((await k2sDns(['stop', '--json'])).code).toBe(0);
    expect(await tb.snapshotResolver()).toEqual(before);
  });

  it.skipIf(skip)('stop without start changes nothing and exits 0', async () => {
    await tb.setResolvLayout('file');
    const before = await tb.snapshotResolver();
    const stop = await k2sDns(['stop', '--json']);
    expect(stop.result).toMatchObject({ ok: true, exitCode: 0 });
    expect(stop.result?.message).toMatch(/not running/);
    expect(await tb.snapshotResolver()).toEqual(before);
  });

  it.skipIf(skip)('uninstall restores the resolver and leaves no K2s-owned file', async () => {
    await tb.setResolvLayout('file');
    const before = await tb.snapshotResolver();
    expect((await k2sDns(['start', ...base])).code).toBe(0);
    expect(await exists(configPathFor(engine))).toBe(true);
    const un = await k2sDns(['uninstall', '--json']);
    expect(un.result).toMatchObject({ ok: true, exitCode: 0 });
    expect(await tb.snapshotResolver()).toEqual(before);
    for (const f of [K2S_PATHS.dnsmasqConfig, K2S_PATHS.proxyConfig, K2S_PATHS.unit, K2S_PATHS.resolvedDropIn, K2S_PATHS.stateFile, K2S_PATHS.pidFile]) {
      expect(await exists(f), f).toBe(false);
    }
    const status = await k2sDns(['status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ state: 'stopped', resolverOwner: 'original', pid: null });
    // The bed's kubeconfig is in no place the lookup reads, and no start is recorded: the stopped
    // verdict's fix names --kubeconfig, as `k2s-dns --help` writes it (third walk: it said only start).
    const text = await k2sDns(['status']);
    expect(text.stdout).toMatch(/^health: +Cluster names do not resolve on this host: K2s DNS is stopped — as root: `sudo (npx )?k2s-dns start --kubeconfig PATH`, or `su -c '(npx )?k2s-dns start --kubeconfig PATH'` where sudo is not installed$/m);
  });

  describe.skipIf(skip)('with 127.0.0.1:53 taken', () => {
    let squatter: Socket;
    beforeAll(async () => {
      squatter = createSocket('udp4');
      await new Promise<void>((resolve) => squatter.bind(53, '127.0.0.1', resolve));
    });
    afterAll(() => squatter.close());

    it('refuses with exit 3, names the holder and its PID, resolver unchanged', async () => {
      await tb.setResolvLayout('file');
      const before = await tb.snapshotResolver();
      const start = await k2sDns(['start', ...base]);
      expect(start.code).toBe(3);
      expect(start.result).toMatchObject({ ok: false, exitCode: 3, code: 'PORT_IN_USE' });
      expect(start.result?.message).toContain(`(PID ${process.pid})`);
      expect(await tb.snapshotResolver()).toEqual(before);
    });
  });

  it.skipIf(skip)('rolls back when kube-dns is down (exit 1, resolver byte-identical, proxy stopped)', async () => {
    await tb.setResolvLayout('absolute-symlink');
    const before = await tb.snapshotResolver();
    await tb.stopCoreDns();
    try {
      const start = await k2sDns(['start', ...base]);
      expect(start.code).toBe(1);
      expect(start.result).toMatchObject({ ok: false, exitCode: 1, code: 'VERIFY_PROXY' });
      // Verify asks until its 15 s deadline: once, about 2 s in, a progress event says what it waits for (new user: 15.9 s of silence).
      const waiting = start.events.filter((e) => e.type === 'step' && e.step === 'verify' && e.status === 'running' && e.detail?.waiting === true);
      // No answer, or (AdGuard dnsproxy, CoreDNS's port unreachable) SERVFAIL so far: both are said as what they are.
      // getaddrinfo says glibc's EAI_AGAIN (its SERVFAIL or its timeout) when that check is the one still unanswered.
      expect(waiting.map((e) => e.message)).toEqual([expect.stringMatching(/^kubernetes\.default\.svc\.cluster\.local through (the proxy|getaddrinfo) (not answered yet \(TIMEOUT(: (no answer from|EAI_AGAIN: temporary failure) [^)]*)?\)|answered SERVFAIL so far); asking again until the verify deadline, 15 s after it began …$/)]);
      const began = start.events.find((e) => e.type === 'step' && e.step === 'verify' && e.status === 'running')!.at;
      expect(waiting[0]!.at - began).toBeGreaterThanOrEqual(2_000);
      expect(start.events.some((e) => e.type === 'step' && e.step === 'rollback' && e.status === 'done')).toBe(true);
      expect(await tb.snapshotResolver()).toEqual(before);
      const status = JSON.parse((await k2sDns(['status', '--json'])).stdout);
      expect(status).toMatchObject({ state: 'stopped', pid: null });
    } finally {
      await tb.startCoreDns();
    }
  });

  it.skipIf(skip)('rolls back when the API server is down, naming it', async () => {
    await tb.setResolvLayout('file');
    const before = await tb.snapshotResolver();
    await tb.api.setMode('down');
    try {
      const start = await k2sDns(['start', ...base]);
      expect(start.code).toBe(1);
      expect(start.result).toMatchObject({ code: 'DISCOVERY_FAILED' });
      expect(start.result?.message).toContain(tb.api.url.replace(/\/$/, ''));
      expect(await tb.snapshotResolver()).toEqual(before);
    } finally {
      await tb.api.setMode('ok');
    }
  });

  // Once, with the adguard engine (registered only there, so the other engine reports no skip).
  if (engine === 'adguard') it.skipIf(skip)('adguard without --dnsproxy: refused with exit 3 while the K2s install dir has no dnsproxy, runs the one installed there', async () => {
    await tb.setResolvLayout('file');
    const before = await tb.snapshotResolver();
    const bare = ['--kubeconfig', tb.kubeconfigPath, '--engine', 'adguard', '--verify-name', 'www.example.test', '--json'];
    const refused = await k2sDns(['start', ...bare]);
    expect(refused.code).toBe(3);
    expect(refused.result).toMatchObject({ code: 'NO_ENGINE' });
    expect(refused.result?.message).toContain('/opt/k2s/bin/dnsproxy');
    // /opt is the sandbox's tmpfs: install the built v0.83.1 where K2s puts it.
    await mkdir('/opt/k2s/bin', { recursive: true });
    await copyFile(ENGINE_BIN.dnsproxy, '/opt/k2s/bin/dnsproxy');
    try {
      const start = await k2sDns(['start', ...bare]);
      expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
      expect(await getentHosts('kubernetes.default.svc.cluster.local')).toEqual(['172.21.0.1']);
      expect((await k2sDns(['stop', '--json'])).code).toBe(0);
      expect(await tb.snapshotResolver()).toEqual(before);
    } finally {
      await rm('/opt/k2s', { recursive: true, force: true });
    }
  });

  // Once, with the adguard engine (registered only there, so the other engine reports no skip).
  if (engine === 'adguard') it.skipIf(skip)('the v0.68+ private-rDNS trap is real on this dnsproxy: a [/21.172.in-addr.arpa/] route in `upstream` alone gives NXDOMAIN', async () => {
    // dnsproxy proxy/server.go isForbiddenARPA + proxy.go selectUpstreams (docs/engines.md "Private PTR"): private
    // PTRs never use `upstream`; without use-private-rdns they get NXDOMAIN. The product's
    // config (checked in every case above) routes them via private-rdns-upstream instead.
    const child = spawn(ENGINE_BIN.dnsproxy, ['-l', '127.0.0.1', '-p', '5353', '-u', '[/21.172.in-addr.arpa/]172.21.0.10:53', '-u', '192.0.2.53:53'], {
      stdio: 'ignore',
    });
    try {
      const deadline = Date.now() + 15_000;
      let ext = await queryDns({ name: 'www.example.test', type: 'A', server: '127.0.0.1:5353', timeoutMs: 500 });
      while (ext.rcode !== 'NOERROR' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200)); // poll until the listener answers, bounded
        ext = await queryDns({ name: 'www.example.test', type: 'A', server: '127.0.0.1:5353', timeoutMs: 500 });
      }
      expect(ext.answers.map((a) => a.data)).toEqual(['198.51.100.7']);
      const trapped = await queryDns({ name: '172.21.0.10', type: 'PTR', server: '127.0.0.1:5353' });
      expect(trapped.rcode).toBe('NXDOMAIN');
      expect(trapped.answers).toEqual([]);
      const lan = await queryDns({ name: tb.addresses.lanPrinter, type: 'PTR', server: '127.0.0.1:5353' });
      expect(lan.rcode).toBe('NXDOMAIN');
    } finally {
      child.kill('SIGKILL');
    }
  });

  // Once, with the dnsmasq engine (registered only there, so the other engine reports no skip).
  if (engine === 'dnsmasq') it.skipIf(skip)('the root helper never runs a credential plugin from a kubeconfig a user could write (exit 3, nothing run)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'k2s-evil-'));
    const marker = join(dir, 'ran-as-root');
    const kubeconfig = join(dir, 'kubeconfig');
    await writeFile(kubeconfig, [
      'apiVersion: v1', 'kind: Config', 'current-context: x',
      `clusters: [{ name: c, cluster: { server: '${tb.api.url}', insecure-skip-tls-verify: true } }]`,
      `users: [{ name: u, user: { exec: { apiVersion: client.authentication.k8s.io/v1, command: /bin/sh, args: [-c, 'id > ${marker}'] } } }]`,
      'contexts: [{ name: x, context: { cluster: c, user: u } }]', '',
    ].join('\n'));
    await chown(kubeconfig, 1000, 1000);
    const before = await tb.snapshotResolver();
    const r = await new Promise<{ code: number | null; stdout: string }>((resolve) =>
      execFile(process.execPath, [HELPER, 'start', '--kubeconfig', kubeconfig, '--engine', 'dnsmasq'], (err, stdout) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout }),
      ),
    );
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('"code":"BAD_KUBECONFIG"');
    expect(await exists(marker)).toBe(false);
    expect(await tb.snapshotResolver()).toEqual(before);
    await rm(dir, { recursive: true, force: true });
  });

  // Once, with the dnsmasq engine (registered only there, so the other engine reports no skip).
  if (engine === 'dnsmasq') it.skipIf(skip)('zones prints each zone with its upstream and reason, without changing anything', async () => {
    const z = await k2sDns(['zones', '--kubeconfig', tb.kubeconfigPath]);
    expect(z.code).toBe(0);
    expect(z.stdout).toMatch(/^cluster\.local \(cluster domain\)\s+172\.21\.0\.10\s+Corefile server block/m);
    expect(z.stdout).toMatch(/^21\.172\.in-addr\.arpa\s+172\.21\.0\.10\s+service CIDR 172\.21\.0\.0\/16/m);
    expect(z.stdout).toMatch(/^20\.172\.in-addr\.arpa\s+172\.21\.0\.10\s+pod CIDR 172\.20\.0\.0\/16/m);
  });

  // --- Never stranded: engine-independent, so run once (dnsmasq). ---

  // Once, with the dnsmasq engine (registered only there, so the other engine reports no skip).
  if (engine === 'dnsmasq') it.skipIf(skip)('rm /etc/resolv.conf while running: status exits 1 naming it, stop restores the original byte for byte', async () => {
    await tb.setResolvLayout('file');
    const before = await tb.snapshotResolver();
    expect((await k2sDns(['start', ...base])).code).toBe(0);
    await rm('/etc/resolv.conf');
    const status = await k2sDns(['status', '--json']);
    expect(status.code).toBe(1);
    expect(JSON.parse(status.stdout)).toMatchObject({ state: 'degraded' });
    expect(status.stdout).toContain('/etc/resolv.conf was deleted while K2s ran');
    const stop = await k2sDns(['stop', '--json']);
    expect(stop.result).toMatchObject({ ok: true, exitCode: 0 });
    expect(stop.result?.message).toContain('/etc/resolv.conf had been deleted while K2s ran; restored the original');
    expect(await tb.snapshotResolver()).toEqual(before);
    expect(await exists(K2S_PATHS.stateFile)).toBe(false);
    expect((await k2sDns(['status', '--json'])).code).toBe(0);
  });

  // Once, with the dnsmasq engine (registered only there, so the other engine reports no skip).
  // Walk 10 M5: with no /etc/resolv.conf, start --upstream saved "(absent)" and the later stop said
  // "back as it was", exit 0, though no name resolved after it.
  if (engine === 'dnsmasq') it.skipIf(skip)('no /etc/resolv.conf: start refuses naming it; start --upstream warns; stop ends RESOLVER_DOWN, exit 5, as status', async () => {
    await tb.setResolvLayout('file');
    const before = await tb.snapshotResolver();
    try {
      await rm('/etc/resolv.conf');
      const refusedStart = await k2sDns(['start', ...base]);
      expect(refusedStart.result).toMatchObject({ ok: false, exitCode: 3, code: 'NO_UPSTREAM' });
      expect(refusedStart.result?.message).toContain('/etc/resolv.conf does not exist');
      const started = await k2sDns(['start', ...base, '--upstream', '192.0.2.53']);
      expect(started.code, started.stdout + started.stderr).toBe(0);
      expect(started.events.some((e) => e.type === 'step' && e.step === 'preflight' && (e.message ?? '').includes('warning: /etc/resolv.conf does not exist'))).toBe(true);
      const stop = await k2sDns(['stop', '--json']);
      expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true, exitCode: 5, warnings: [{ code: 'RESOLVER_DOWN' }] });
      expect(stop.code).toBe(5);
      expect(stop.result?.message).not.toContain('back as it was');
      expect(await exists('/etc/resolv.conf')).toBe(false);
      const status = await k2sDns(['status']);
      expect(status.code, status.stdout).toBe(5);
      expect(status.stdout).toContain('/etc/resolv.conf does not exist');
      expect(status.stdout).not.toContain('no nameserver line');
    } finally {
      await tb.setResolvLayout('file');
      expect(await tb.snapshotResolver()).toEqual(before);
    }
  });

  // Once, with the dnsmasq engine (registered only there, so the other engine reports no skip).
  // Walk 6 L2 + L3: after `stop --on-drift keep` of a garbage file, status printed "No names resolve
  // on this host" and exited 0, and its 127.0.0.1:53 probe said "TIMEOUT in 1500 ms".
  if (engine === 'dnsmasq') it.skipIf(skip)('a garbage file kept by stop --on-drift keep: status exits 5 (no name resolves) and says the upstream does not answer (refused: port unreachable), at once', async () => {
    await tb.setResolvLayout('file');
    try {
      expect((await k2sDns(['start', ...base])).code).toBe(0);
      await writeFile('/etc/resolv.conf', Buffer.concat([Buffer.from('garbage\n'), Buffer.from([0, 0xff, 0xfe, 10])]));
      const keep = await k2sDns(['stop', '--on-drift', 'keep', '--json']);
      // Walk 9 M2: stopped as asked, yet no name resolves: a warning and status's exit 5, never OK / 0.
      expect(keep.result, keep.stdout + keep.stderr).toMatchObject({ ok: true, exitCode: 5, warnings: [{ code: 'RESOLVER_DOWN' }] });
      expect(keep.code).toBe(5);
      const started = Date.now();
      const status = await k2sDns(['status']);
      expect(status.code, status.stdout + status.stderr).toBe(5);
      expect(status.stdout).toContain('K2s DNS: stopped');
      expect(status.stdout).toContain('health:     No names resolve on this host: nothing answers on 127.0.0.1:53');
      expect(status.stdout).toMatch(/upstream 127\.0\.0\.1:53: does not answer \(refused: port unreachable\)$/m);
      expect(status.stdout).not.toContain('TIMEOUT in');
      // Before: 1.5 s for the upstream probe and 2 s more for getaddrinfo's questions, on top of the CLI's start-up.
      console.log(`status with nothing on 127.0.0.1:53 took ${Date.now() - started} ms`);
    } finally {
      await tb.setResolvLayout('file');
    }
  });

  // Once, with the dnsmasq engine (registered only there, so the other engine reports no skip).
  if (engine === 'dnsmasq') it.skipIf(skip)('--upstream 127.0.0.2 with nothing listening: start rolls back with VERIFY_UPSTREAM naming it (exit 1, resolver byte-identical)', async () => {
    await tb.setResolvLayout('file');
    const before = await tb.snapshotResolver();
    const start = await k2sDns(['start', ...base, '--upstream', '127.0.0.2']);
    expect(start.code, start.stdout + start.stderr).toBe(1);
    expect(start.result).toMatchObject({ ok: false, exitCode: 1, code: 'VERIFY_UPSTREAM' });
    expect(start.result?.message).toContain('The --upstream you named does not resolve www.example.test: 127.0.0.2 gave no answer');
    expect(await tb.snapshotResolver()).toEqual(before);
    expect(await exists(K2S_PATHS.stateFile)).toBe(false);
    expect(await exists(K2S_PATHS.pidFile)).toBe(false);
  });

  // Once, with the dnsmasq engine (registered only there, so the other engine reports no skip).
  if (engine === 'dnsmasq') it.skipIf(skip)('tidy29: --upstream fe80::1%lo (connect ENETUNREACH at once): VERIFY_UPSTREAM says it was refused on each try, not asked until the deadline; resolver byte-identical', async () => {
    await tb.setResolvLayout('file');
    const before = await tb.snapshotResolver();
    const start = await k2sDns(['start', ...base, '--upstream', 'fe80::1%lo']);
    expect(start.code, start.stdout + start.stderr).toBe(1);
    expect(start.result).toMatchObject({ ok: false, exitCode: 1, code: 'VERIFY_UPSTREAM' });
    expect(start.result?.message).toMatch(/The --upstream you named does not resolve www\.example\.test: fe80::1%lo gave no answer: [^;(]*\((ENETUNREACH|EINVAL|EADDRNOTAVAIL): [^)]*\) \(at once on each of 3 tries: this host cannot send to it, so it was not asked again until the verify deadline\)/);
    expect(await tb.snapshotResolver()).toEqual(before);
    expect(await exists(K2S_PATHS.stateFile)).toBe(false);
  });

  // Once, with the dnsmasq engine (registered only there, so the other engine reports no skip).
  if (engine === 'dnsmasq') it.skipIf(skip)('a full /run (tmpfs at its size limit): stop still restores the resolver and stops the proxy', async () => {
    await tb.setResolvLayout('file');
    const before = await tb.snapshotResolver();
    expect((await k2sDns(['start', ...base])).code).toBe(0);
    // The sandbox's own /run tmpfs: shrink it to what it holds now, then fill the rest.
    const statfs = (await run('stat', ['-f', '-c', '%b %f %S', '/run'])).split(' ').map(Number);
    const [blocks, free, bsize] = statfs as [number, number, number];
    const originalSize = blocks * bsize;
    await run('mount', ['-o', `remount,size=${(blocks - free + 2) * bsize}`, '/run']);
    try {
      await run('dd', ['if=/dev/zero', 'of=/run/k2s-e2e-filler', 'bs=4096']).catch(() => undefined); // ends with ENOSPC
      await expect(writeFile('/run/k2s-e2e-probe', 'x')).rejects.toThrow(/ENOSPC/);
      const stop = await k2sDns(['stop', '--json']);
      expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true, exitCode: 0 });
      expect(await tb.snapshotResolver()).toEqual(before);
      expect(await exists(K2S_PATHS.pidFile)).toBe(false);
      expect(await exists(K2S_PATHS.stateFile)).toBe(false);
    } finally {
      await rm('/run/k2s-e2e-filler', { force: true });
      await run('mount', ['-o', `remount,size=${originalSize}`, '/run']);
    }
  });
});
