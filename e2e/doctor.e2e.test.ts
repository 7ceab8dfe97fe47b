/**
 * `k2s-dns doctor` on the test bed: each condition is made real inside the sandbox (a socket on
 * 127.0.0.1:53, resolv.conf contents, an unassigned KubeSwitch, a kubelet config while K2s DNS
 * runs, chattr +i), doctor runs as the real CLI, and the test undoes the condition afterwards.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createSocket, type Socket } from 'node:dgram';
import { execFile, spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { DoctorFinding } from '../shared/doctor';
import { startTestbed, type Testbed } from './bed/testbed';
import { k2sDns } from './cli';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: doctor e2e runs only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)');

/** `chattr ARGS` → exit status and stderr. */
function chattr(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('chattr', args, (err, _stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stderr: stderr.trim() || String(err?.message ?? '') }));
  });
}

/** Runs `k2s-dns doctor --json`; returns the exit status and findings by id. */
async function doctor(kubeconfig: string): Promise<{ code: number; byId: Record<string, DoctorFinding>; stdout: string }> {
  const r = await k2sDns(['doctor', '--kubeconfig', kubeconfig, '--json']);
  const findings = JSON.parse(r.stdout) as DoctorFinding[];
  return { code: r.code, byId: Object.fromEntries(findings.map((f) => [f.id, f])), stdout: r.stdout + r.stderr };
}

/** Replaces /etc/resolv.conf (a regular file in the `file` layout) with `text`. */
const writeResolv = (text: string) => writeFile('/etc/resolv.conf', text, { mode: 0o644 });

describe.skipIf(!inSandbox)('k2s-dns doctor on the test bed (KubeSwitch assigned)', () => {
  let tb: Testbed;
  let before: Awaited<ReturnType<Testbed['snapshotResolver']>>;

  beforeAll(async () => {
    tb = await startTestbed();
    before = await tb.snapshotResolver();
  });
  afterEach(async () => {
    // Every test leaves the bed's original resolver behind, byte for byte.
    // The immutable test's flag goes first: nothing can replace the file while it is set.
    await chattr(['-i', '/etc/resolv.conf']);
    await k2sDns(['stop', '--on-drift', 'restore']);
    await tb.setResolvLayout('file');
    expect(await tb.snapshotResolver()).toEqual(before);
  });
  afterAll(async () => {
    await tb?.stop();
  });

  it('the clean bed: cluster ok, port free, nameservers fine, KubeSwitch assigned, dnsmasq engine; exit matches the findings', async () => {
    const d = await doctor(tb.kubeconfigPath);
    expect(d.byId.cluster).toMatchObject({ severity: 'ok', detail: { state: 'ok', kubeDnsIp: '172.21.0.10' } });
    expect(d.byId['port-53']!.severity).toBe('ok');
    expect(d.byId['nameserver-loop']).toMatchObject({ severity: 'ok', detail: { nameservers: ['192.0.2.53'] } });
    expect(d.byId['nameserver-count']!.severity).toBe('ok');
    expect(d.byId.kubeswitch).toMatchObject({ severity: 'ok', detail: { address: '172.19.1.1' } });
    expect(d.byId['dnsproxy-version']).toMatchObject({ severity: 'info', detail: { engine: 'dnsmasq' } });
    expect(d.byId['lifecycle-state']).toMatchObject({ severity: 'ok', detail: { state: 'stopped' } });
    expect(d.code).toBe(Object.values(d.byId).some((f) => f.severity === 'error') ? 1 : 0);
  });

  describe('with 127.0.0.1:53 taken by this test', () => {
    let squatter: Socket;
    beforeAll(async () => {
      squatter = createSocket('udp4');
      await new Promise<void>((resolve) => squatter.bind(53, '127.0.0.1', resolve));
    });
    afterAll(() => squatter.close());

    it('reports the holder with this test process PID and exits 1', async () => {
      const d = await doctor(tb.kubeconfigPath);
      expect(d.byId['port-53']).toMatchObject({ severity: 'error', detail: { proto: 'udp', pid: process.pid, ours: false } });
      expect(d.byId['port-53']!.meaning).toContain(`(PID ${process.pid})`);
      expect(d.code).toBe(1);
    });
  });

  it('K2s DNS\'s own proxy left running with no start recorded: a warning that it is ours (never "stop dnsmasq"), and the printed stop ends it', async () => {
    const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json']);
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
    const pid = Number(JSON.parse((await k2sDns(['status', '--json'])).stdout).pid);
    const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter((a) => a !== '');
    // Stop keeps /etc/k2s/dnsmasq.conf (only uninstall removes it): the same proxy started again
    // by hand is one no start records, as one a killed k2s-dns leaves behind.
    expect((await k2sDns(['stop'])).code).toBe(0);
    const left = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: 'ignore' });
    onTestFinished(() => {
      if (left.exitCode === null && left.signalCode === null) left.kill('SIGKILL');
    });
    // Until it has bound the port (a few ms for dnsmasq; the deadline is for a busy machine).
    let d = await doctor(tb.kubeconfigPath);
    await expect.poll(async () => (d = await doctor(tb.kubeconfigPath)).byId['port-53']!.severity, { timeout: 20_000 }).toBe('warn');
    expect(d.byId['port-53'], d.stdout).toMatchObject({ severity: 'warn', detail: { pid: left.pid, ours: true, leftOver: true } });
    expect(d.byId['port-53']!.title).toBe(`127.0.0.1:53 is held by K2s DNS's own proxy left running (PID ${left.pid})`);
    expect(d.byId['port-53']!.fix).toMatch(/^Run `[^`]*k2s-dns stop`: it stops K2s DNS's own proxy/);
    // The printed fix, as printed: stop finds it by its config argument and ends it.
    expect((await k2sDns(['stop'])).code).toBe(0);
    await expect.poll(() => left.exitCode ?? left.signalCode, { timeout: 10_000 }).not.toBeNull();
    expect((await doctor(tb.kubeconfigPath)).byId['port-53']).toMatchObject({ severity: 'ok', title: '127.0.0.1:53 is free for the proxy' });
  });

  it('warns for 4 nameservers, naming the one glibc never asked', async () => {
    await writeResolv('nameserver 192.0.2.53\nnameserver 192.0.2.54\nnameserver 192.0.2.55\nnameserver 192.0.2.56\n');
    const d = await doctor(tb.kubeconfigPath);
    expect(d.byId['nameserver-count']).toMatchObject({ severity: 'warn', detail: { ignoredByGlibc: ['192.0.2.56'] } });
  });

  it('errors when the only nameserver is 127.0.0.1 (loop), and start indeed refuses', async () => {
    await writeResolv('nameserver 127.0.0.1\nsearch corp.example\n');
    const d = await doctor(tb.kubeconfigPath);
    expect(d.byId['nameserver-loop']).toMatchObject({ severity: 'error', detail: { loops: ['127.0.0.1'] } });
    expect(d.code).toBe(1);
    const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json']);
    expect(start.code).toBe(3);
  });

  // Walk 7 H2/M4: doctor and start share one rule for a file that is not text; the fix is prose.
  it('a NUL-byte resolv.conf: doctor says NOT_RESOLVER_FILE without offering Upstreams, and start --upstream indeed refuses it, with no placeholder command', async () => {
    await writeResolv('this is not\0 a resolver\n');
    const d = await doctor(tb.kubeconfigPath);
    expect(d.byId['nameserver-loop']).toMatchObject({ severity: 'error', title: '/etc/resolv.conf is no resolver file', detail: { reason: 'the new file is not text (it holds NUL bytes)' } });
    expect(d.byId['nameserver-loop']!.meaning).toContain('start refuses with NOT_RESOLVER_FILE, with or without --upstream');
    expect(d.byId['nameserver-loop']!.remedy?.gui).not.toContain('under Start options → Upstreams, then Start');
    // Walk 11 L5: the loop error carries start's fix; the health finding points at it, never repeats it.
    expect(d.byId.health).toMatchObject({ severity: 'error', fix: 'See the error "/etc/resolv.conf is no resolver file" below: its fix is this one\'s.' });
    expect(d.byId.health!.title).toContain('and start would refuse this /etc/resolv.conf (NOT_RESOLVER_FILE)');
    const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--upstream', '192.0.2.53', '--verify-name', 'www.example.test']);
    expect(start.code).toBe(3);
    const out = start.stdout + start.stderr;
    expect(out).toContain('/etc/resolv.conf is not text (it holds NUL bytes)');
    expect(out).toContain('a line such as `nameserver 192.0.2.1`');
    expect(out).not.toContain('<your router');
  });

  it('WSL header below a script\'s lines (line 6): doctor and start agree (error, WSL_RESOLV_CONF); with wsl.conf generateResolvConf = false both let it be managed', async () => {
    const line7 = await readFile(new URL('../fixtures/wsl/resolv-header-line7.conf', import.meta.url), 'utf8');
    await writeResolv(line7.replace('nameserver 172.29.64.1', 'nameserver 192.0.2.53').replace('nameserver 10.8.0.1\n', ''));
    const start = ['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json'];
    expect((await doctor(tb.kubeconfigPath)).byId.wsl).toMatchObject({ severity: 'error', detail: { headerLine: 6, generateResolvConf: null } });
    const refused = await k2sDns(start);
    expect(refused.result).toMatchObject({ exitCode: 3, code: 'WSL_RESOLV_CONF' });
    expect(refused.result!.message).toContain('its header is on line 6');
    await writeFile('/etc/wsl.conf', await readFile(new URL('../fixtures/wsl/wsl-disabled.conf', import.meta.url), 'utf8'));
    const d = await doctor(tb.kubeconfigPath);
    await rm('/etc/wsl.conf');
    expect(d.byId.wsl).toMatchObject({ severity: 'info', detail: { headerLine: 6, generateResolvConf: false, wslConfLine: 6 } });
    await writeFile('/etc/wsl.conf', '[network]\ngenerateResolvConf = false\n');
    const ok = await k2sDns(start);
    await rm('/etc/wsl.conf');
    expect(ok.result, ok.stdout + ok.stderr).toMatchObject({ ok: true, exitCode: 0 });
  });

  it('errors for a WSL-generated resolv.conf', async () => {
    await writeResolv('# This file was automatically generated by WSL. To stop automatic generation of this file, add the following entry to /etc/wsl.conf:\n# [network]\n# generateResolvConf = false\nnameserver 192.0.2.53\n');
    const d = await doctor(tb.kubeconfigPath);
    expect(d.byId.wsl).toMatchObject({ severity: 'error' });
    expect(d.byId.wsl!.fix).toContain('generateResolvConf = false');
    expect(d.code).toBe(1);
  });

  it('errors when kubelet resolvConf is /etc/resolv.conf while K2s DNS runs; our own proxy on :53 is fine', async () => {
    await mkdir('/var/lib/kubelet', { recursive: true });
    onTestFinished(() => rm('/var/lib/kubelet', { recursive: true, force: true }));
    await writeFile('/var/lib/kubelet/config.yaml', 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nclusterDNS:\n- 172.21.0.10\nclusterDomain: cluster.local\nresolvConf: /etc/resolv.conf\n');
    const stopped = await doctor(tb.kubeconfigPath);
    expect(stopped.byId['kubelet-resolvconf']).toMatchObject({ severity: 'warn', detail: { resolvConf: '/etc/resolv.conf', managed: false } });

    const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json']);
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
    const running = await doctor(tb.kubeconfigPath);
    expect(running.byId['kubelet-resolvconf']).toMatchObject({ severity: 'error', detail: { resolvConf: '/etc/resolv.conf', managed: true } });
    expect(running.byId['kubelet-resolvconf']!.meaning).toContain('Loop … detected');
    expect(running.byId['port-53']).toMatchObject({ severity: 'ok', detail: { ours: true } });
    expect(running.byId['lifecycle-state']).toMatchObject({ severity: 'ok', detail: { state: 'running', resolverOwner: 'k2s' } });
    // While running, the loop check looks at the saved original, not the K2s-owned 127.0.0.1 file.
    expect(running.byId['nameserver-loop']).toMatchObject({ severity: 'ok', detail: { nameservers: ['192.0.2.53'] } });
    expect(running.code).toBe(1);
  });

  it('the loop doctor warns about is real: a CoreDNS pod given the K2s-owned resolv.conf logs [FATAL] plugin/loop and exits 1', async (ctx) => {
    if (tb.kubeDnsKind !== 'coredns') {
      console.warn('skipped: reproducing the CoreDNS loop needs real CoreDNS (bash scripts/build-engines.sh needs Go)');
      ctx.skip();
    }
    await mkdir('/var/lib/kubelet', { recursive: true });
    onTestFinished(() => rm('/var/lib/kubelet', { recursive: true, force: true }));
    await writeFile('/var/lib/kubelet/config.yaml', 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nresolvConf: /etc/resolv.conf\n');
    // Beforehand (K2s DNS stopped) doctor already names the cause and the fix.
    const beforehand = await doctor(tb.kubeconfigPath);
    expect(beforehand.byId['kubelet-resolvconf']).toMatchObject({ severity: 'warn', detail: { resolvConf: '/etc/resolv.conf', managed: false } });
    expect(beforehand.byId['kubelet-resolvconf']!.fix).toContain('resolvConf');

    const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json']);
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
    // What kubelet copies into a new CoreDNS pod: the file its resolvConf names, now K2s-owned.
    const podResolv = await readFile('/etc/resolv.conf', 'utf8');
    expect(podResolv).toMatch(/^nameserver 127\.0\.0\.1$/m);
    // In the pod, 127.0.0.1 is the pod's own loopback: `forward . /etc/resolv.conf` sends
    // CoreDNS's HINFO probe back to CoreDNS (plugin/loop/loop.go), which logs FATAL and exits.
    const { pod, remove } = await tb.runCoreDnsPod({ resolvConf: podResolv, address: '172.20.0.3' });
    try {
      const code = await Promise.race([pod.exited, new Promise<null>((r) => setTimeout(() => r(null), 60_000))]);
      const log = await pod.log();
      expect(code, log).toBe(1);
      const fatal = /\[FATAL\] plugin\/loop: Loop \(127\.0\.0\.1:\d+ -> :53\) detected for zone "\."[^\n]*/.exec(log);
      expect(fatal, log).not.toBeNull();
      console.info(`CoreDNS said: ${fatal![0]}`);
    } finally {
      await remove();
    }
    const running = await doctor(tb.kubeconfigPath);
    expect(running.byId['kubelet-resolvconf']).toMatchObject({ severity: 'error', detail: { managed: true } });
    expect(running.byId['kubelet-resolvconf']!.meaning).toContain('Loop … detected');
    expect(running.byId['kubelet-resolvconf']!.fix).toContain('/run/systemd/resolve/resolv.conf');
    // Two doctor runs, a start and up to 60 s for the pod's exit: more than the default 60 s test
    // budget on a busy machine, which would hide the pod's log behind a plain timeout.
  }, 180_000);

  it('errors for an immutable resolv.conf (chattr +i)', async (ctx) => {
    const set = await chattr(['+i', '/etc/resolv.conf']);
    // afterEach clears the flag (it runs before onTestFinished callbacks, and must before setResolvLayout).
    if (set.code !== 0) ctx.skip(`skipped: chattr +i does not work on this sandbox's /etc filesystem (${set.stderr})`);
    const d = await doctor(tb.kubeconfigPath);
    expect(d.byId['resolv-immutable']).toMatchObject({ severity: 'error' });
    expect(d.byId['resolv-immutable']!.fix).toContain('chattr -i /etc/resolv.conf');
    expect(d.code).toBe(1);
  });
});

describe.skipIf(!inSandbox)('k2s-dns doctor on the test bed (KubeSwitch not assigned)', () => {
  let tb: Testbed;
  beforeAll(async () => {
    tb = await startTestbed({ kubeSwitch: false });
  });
  afterAll(async () => {
    await tb?.stop();
  });

  it('warns that 172.19.1.1 is not assigned, naming k2s-proxy0', async () => {
    const d = await doctor(tb.kubeconfigPath);
    expect(d.byId.kubeswitch).toMatchObject({ severity: 'warn', detail: { address: '172.19.1.1' } });
    expect((d.byId.kubeswitch!.detail as { assigned: string[] }).assigned).not.toContain('172.19.1.1');
    expect(d.byId.kubeswitch!.meaning).toContain('k2s-proxy0');
  });
});
