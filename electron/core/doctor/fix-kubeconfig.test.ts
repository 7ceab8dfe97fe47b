/**
 * Suggested commands that read a kubeconfig (start, zones, doctor) name the one in use when
 * `sudo k2s-dns …` would not find it by itself (issue 20 low: the sandbox's Diagnostics said
 * `sudo npx k2s-dns doctor`, which finds no kubeconfig there).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cliCommand, setCliKubeconfig } from '../../../shared/fix';
import { fixText } from '../../../shared/health';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { kubeconfigForSudo, kubeconfigToName } from '../cluster/kubeconfig-default';
import { createRealBackend } from '../backend-real';
import { useDoctorHosts } from '../../../e2e/support/doctor-test-host';

const host = useDoctorHosts();
const tmp = mkdtempSync(join(tmpdir(), 'k2s-dns-fixkc-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
afterEach(() => setCliKubeconfig(null));

/** A kubeconfig whose API refuses at once (the cluster check ends fast). */
const KC = join(tmp, 'sandbox.kubeconfig');
writeFileSync(KC, 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\nusers:\n- name: u\n  user: {token: t}\n');

describe('cliCommand with a kubeconfig to name', () => {
  it('start, zones and doctor end with --kubeconfig PATH; stop, diff and query do not; a path with a space is one shell word', () => {
    setCliKubeconfig('/tmp/k2sdns-kubeconfig-0fI2nd/k2s-test-41545.kubeconfig');
    expect(cliCommand('start --upstream IP', true)).toBe('sudo npx k2s-dns start --upstream IP --kubeconfig /tmp/k2sdns-kubeconfig-0fI2nd/k2s-test-41545.kubeconfig');
    expect(cliCommand('zones')).toBe('npx k2s-dns zones --kubeconfig /tmp/k2sdns-kubeconfig-0fI2nd/k2s-test-41545.kubeconfig');
    expect(cliCommand('doctor', true)).toBe('sudo npx k2s-dns doctor --kubeconfig /tmp/k2sdns-kubeconfig-0fI2nd/k2s-test-41545.kubeconfig');
    expect(cliCommand('stop', true)).toBe('sudo npx k2s-dns stop');
    expect(cliCommand('query kubernetes.io --server <upstream>')).toBe('npx k2s-dns query kubernetes.io --server <upstream>');
    expect(fixText('restart', 'cli')).toBe('sudo npx k2s-dns stop && sudo npx k2s-dns start --kubeconfig /tmp/k2sdns-kubeconfig-0fI2nd/k2s-test-41545.kubeconfig');
    setCliKubeconfig("/home/ada/my kube/it's.yaml");
    expect(cliCommand('start', true)).toBe("sudo npx k2s-dns start --kubeconfig '/home/ada/my kube/it'\\''s.yaml'");
    setCliKubeconfig(null);
    expect(cliCommand('start', true)).toBe('sudo npx k2s-dns start');
  });

  it('the live loop\'s fix: Stop and Start in the app, the commands with the kubeconfig in the CLI', () => {
    setCliKubeconfig('/tmp/k.kubeconfig');
    expect(fixText('fix-coredns-loop', 'cli')).toMatch(/; then run `sudo npx k2s-dns stop` and `sudo npx k2s-dns start --kubeconfig \/tmp\/k\.kubeconfig` again: start keeps such zones off the host routes\.$/);
    expect(fixText('fix-coredns-loop', 'gui')).toMatch(/; then Stop and Start K2s DNS: start keeps such zones off the host routes\.$/);
    expect(fixText('fix-coredns-loop', 'gui')).not.toMatch(/k2s-dns|sudo/);
  });
});

describe('kubeconfigToName: what sudo k2s-dns would find by itself', () => {
  const exec = { run: async () => ({ code: 0, stdout: 'ada:x:1000:1000::/home/ada:/bin/bash\n', stderr: '' }) } as never;
  it('the sandbox\'s kubeconfig (nothing in the lookup finds it) is named; the one the lookup finds is not', async () => {
    const none = { uid: 0, user: 'root', env: {}, exists: () => false, exec };
    expect(await kubeconfigToName('/tmp/k2sdns-kubeconfig-x/k.kubeconfig', none)).toBe('/tmp/k2sdns-kubeconfig-x/k.kubeconfig');
    expect(await kubeconfigToName(null, none)).toBeNull();
    const admin = { ...none, exists: (p: string) => p === '/etc/kubernetes/admin.conf' };
    expect(await kubeconfigToName('/etc/kubernetes/admin.conf', admin)).toBeNull();
  });

  it('a user\'s ~/.kube/config: not named when sudo finds it as the caller\'s, named when a root-only admin.conf comes first', async () => {
    const user = { uid: 1000, user: 'ada', env: { KUBECONFIG: '/home/ada/other.yaml' }, exec };
    expect(await kubeconfigToName('/home/ada/.kube/config', { ...user, exists: (p: string) => p === '/home/ada/.kube/config' })).toBeNull();
    expect(await kubeconfigToName('/home/ada/.kube/config', { ...user, exists: (p: string) => p === '/home/ada/.kube/config' || p === '/etc/kubernetes/admin.conf' })).toBe('/home/ada/.kube/config');
    // $KUBECONFIG does not survive sudo: a file only it names is named.
    expect(await kubeconfigToName('/home/ada/other.yaml', { ...user, exists: (p: string) => p === '/home/ada/other.yaml' })).toBe('/home/ada/other.yaml');
  });

  it("kubeconfigForSudo: a user's `sudo k2s-dns start` finds a root-only admin.conf (existence is enough for root), else the user's own, never $KUBECONFIG", async () => {
    const user = { uid: 1000, user: 'ada', env: { KUBECONFIG: '/home/ada/other.yaml' }, exec };
    expect(await kubeconfigForSudo({ ...user, exists: (p: string) => p === '/etc/kubernetes/admin.conf' || p === '/home/ada/.kube/config' })).toBe('/etc/kubernetes/admin.conf');
    expect(await kubeconfigForSudo({ ...user, exists: (p: string) => p === '/home/ada/.kube/config' })).toBe('/home/ada/.kube/config');
    expect(await kubeconfigForSudo({ ...user, exists: (p: string) => p === '/home/ada/other.yaml' })).toBeNull();
  });

  it('kubeconfigForSudo as this user with its passwd home known: no `getent passwd` process, the same answer', async () => {
    const calls: string[][] = [];
    const counting = { run: async (file: string, args: string[]) => (calls.push([file, ...args]), { code: 0, stdout: 'ada:x:1000:1000::/home/ada:/bin/bash\n', stderr: '' }) } as never;
    const ada = { uid: 1000, user: 'ada', home: '/home/ada', env: {}, exec: counting };
    expect(await kubeconfigForSudo({ ...ada, exists: (p: string) => p === '/home/ada/.kube/config' })).toBe('/home/ada/.kube/config');
    expect(await kubeconfigForSudo({ ...ada, exists: () => false })).toBeNull();
    expect(calls).toEqual([]);
    // Home unknown (no `home`): asked of getent, as the root helper asks for its caller.
    expect(await kubeconfigForSudo({ uid: 1000, user: 'ada', env: {}, exec: counting, exists: (p: string) => p === '/home/ada/.kube/config' })).toBe('/home/ada/.kube/config');
    expect(calls).toEqual([['getent', 'passwd', 'ada']]);
  });
});

describe('the app\'s Diagnostics', () => {
  it('an app started with --kubeconfig (the sandbox) shows `sudo npx k2s-dns doctor --kubeconfig PATH`, a line that works as printed', async () => {
    // As a user while K2s DNS runs: the check that sends to `sudo k2s-dns doctor` (unreadable-original.test.ts).
    const h = await host('nameserver 192.0.2.53\n');
    await h.start();
    const lstat = h.deps.fs.lstat.bind(h.deps.fs);
    h.deps.fs.lstat = async (p: string) => (p.startsWith(`${K2S_PATHS.stateDir}/`) ? Promise.reject(Object.assign(new Error('EACCES'), { code: 'EACCES' })) : lstat(p));
    h.deps.uid = () => 1000;
    const backend = createRealBackend({ deps: h.deps, kubeconfig: KC });
    const findings = await backend.doctorRun({});
    const loop = findings.find((f) => f.id === 'nameserver-loop')!;
    expect(loop.remedy?.gui).toBe(`Run \`sudo npx k2s-dns doctor --kubeconfig ${KC}\` in a terminal to check the saved original.`);
    expect(loop.fix).toBe(`To check the saved original, run as root: \`sudo npx k2s-dns doctor --kubeconfig ${KC}\`, or \`su -c 'npx k2s-dns doctor --kubeconfig ${KC}'\` where sudo is not installed.`);
  });
});
