/**
 * Walk 9 M1: the CoreDNS-down fix `k2s-dns status` prints works as printed. Before it was
 * `kubectl -n kube-system logs … then … ip route get "$(kubectl … get service kube-dns …)"`: no
 * kubeconfig (kubectl asked localhost:8080), so `ip route get ""`. Here, with CoreDNS stopped on
 * the test bed, each command of the printed fix is run as is (`sh -c`): kubectl, with the
 * kubeconfig K2s DNS uses, gets the CoreDNS pods' log from the bed's API (the sandbox's setting:
 * anonymous reads, as kubectl sends no token over http), and `ip route get` names the kube-dns
 * ClusterIP. Runs only inside e2e/bed/sandbox.sh, and needs kubectl on the PATH.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { K2S_PATHS } from '../shared/k2s-paths';
import { startTestbed, type Testbed } from './bed/testbed';
import { k2sDns } from './cli';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
/** `sh -c CMD` → exit code and output, bounded to 30 s. */
const sh = (cmd: string): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile('sh', ['-c', cmd], { timeout: 30_000 }, (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }));
  });
const kubectl = inSandbox ? (await sh('command -v kubectl')).code === 0 : false;
if (!inSandbox) console.warn('skipped: coredns-down-fix e2e runs only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)');
else if (!kubectl) console.warn('skipped: coredns-down-fix e2e needs kubectl on the PATH');
const skip = !inSandbox || !kubectl;
const exists = (p: string) => access(p).then(() => true, () => false);

describe.skipIf(skip)('CoreDNS down: the fix status prints works as printed', () => {
  let tb: Testbed;
  beforeAll(async () => {
    tb = await startTestbed({ anonymousApiReads: true });
    const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json']);
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
    await tb.stopCoreDns();
  }, 120_000);
  afterAll(async () => {
    if ((await exists(K2S_PATHS.stateFile)) || (await exists(K2S_PATHS.pidFile))) await k2sDns(['stop', '--on-drift', 'restore']);
    await tb?.startCoreDns();
    await tb?.stop();
  }, 120_000);

  it('kubectl gets the CoreDNS logs from the cluster K2s DNS uses, and ip route get names the ClusterIP', async () => {
    const status = await k2sDns(['status']);
    const health = status.stdout.split('\n').find((l) => l.startsWith('health:')) ?? '';
    const m = /— (kubectl .+) \(pods can be Ready while the ClusterIP does not answer\), then check the pod network \/ KubeSwitch route: (ip route get \S+)$/.exec(health);
    expect(m, status.stdout).not.toBeNull();
    const [, logs, route] = m!;
    expect(logs).toBe(`kubectl --kubeconfig ${tb.kubeconfigPath} -n kube-system logs -l k8s-app=kube-dns`);
    expect(route).toBe(`ip route get ${tb.addresses.kubeDns}`);
    const l = await sh(logs!);
    expect(l.code, l.stderr).toBe(0);
    // CoreDNS's own start-up lines (coredns.go prints "CoreDNS-VERSION"), or the stand-in's sentence.
    expect(l.stdout).toMatch(tb.kubeDnsKind === 'coredns' ? /CoreDNS-\d/ : /dnsmasq stand-in/);
    const r = await sh(route!);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(tb.addresses.kubeDns);
  }, 120_000);
});
