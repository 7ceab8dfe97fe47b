/**
 * Doctor's cluster finding for a kubeconfig that cannot be used (breaker finding 2: a missing
 * --kubeconfig was an INFO "No kubeconfig" with the generic fix, an invalid one an ERROR titled
 * "No kubeconfig", a malformed one named only `(Error)`): an error naming the file, what is wrong
 * with it and the fix for that case.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCluster, splitKubeconfigMessage, UNUSABLE_KUBECONFIG_TITLE } from './cluster';
import { useDoctorHosts } from '../../../e2e/support/doctor-test-host';
import { setCliName } from '../../../shared/fix';

const host = useDoctorHosts();
const tmp = mkdtempSync(join(tmpdir(), 'k2s-dns-doctorkc-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('doctor: a kubeconfig that cannot be used', () => {
  it('a missing --kubeconfig is an error naming it, with the path to check (not "No kubeconfig", not info)', async () => {
    const h = await host();
    const f = await checkCluster(await h.ctx({ kubeconfigPath: null, kubeconfigLookup: { tried: ['/nonexistent/kc'], explicit: true } }));
    expect(f).toMatchObject({
      id: 'cluster',
      severity: 'error',
      title: 'Kubeconfig cannot be used: cluster not checked',
      meaning: 'The kubeconfig /nonexistent/kc does not exist, so the cluster was not checked.',
      fix: 'Check the path (--kubeconfig; for the app: npm start -- --kubeconfig PATH).',
      detail: { state: 'no-kubeconfig', kubeconfigPath: '/nonexistent/kc' },
    });
  });

  it('a --kubeconfig only root reads: run doctor as root naming it (sudo, or su -c)', async () => {
    const h = await host();
    const f = await checkCluster(await h.ctx({ kubeconfigPath: null, kubeconfigLookup: { tried: ['/etc/kubernetes/admin.conf'], explicit: true, unreadable: [{ path: '/etc/kubernetes/admin.conf', rootOwned: true }] } }));
    expect(f.severity).toBe('error');
    expect(f.title).toBe(UNUSABLE_KUBECONFIG_TITLE);
    expect(f.meaning).toBe('The kubeconfig /etc/kubernetes/admin.conf exists, but only root can read it, so the cluster was not checked.');
    expect(f.fix).toBe("Run doctor as root: `sudo npx k2s-dns doctor --kubeconfig /etc/kubernetes/admin.conf`, or `su -c 'npx k2s-dns doctor --kubeconfig /etc/kubernetes/admin.conf'` where sudo is not installed.");
  });

  it('an existing file that does not load: not valid YAML (line N), not a regular file, a malformed entry named by its field', async () => {
    const h = await host();
    const bad = join(tmp, 'bad.yaml');
    writeFileSync(bad, 'a: [\n  b: : c\n');
    const yaml = await checkCluster(await h.ctx({ kubeconfigPath: bad, kubeconfigLookup: { tried: [bad], explicit: true } }), 2000);
    expect(yaml).toMatchObject({ severity: 'error', title: UNUSABLE_KUBECONFIG_TITLE, meaning: `The kubeconfig ${bad} is not valid YAML (line 2), so the cluster was not checked.`, fix: 'Fix the file or pass another with --kubeconfig.' });
    const dir = join(tmp, 'a-dir');
    mkdirSync(dir);
    const notFile = await checkCluster(await h.ctx({ kubeconfigPath: dir }), 2000);
    expect(notFile).toMatchObject({ severity: 'error', title: UNUSABLE_KUBECONFIG_TITLE, meaning: `The kubeconfig ${dir} is not a regular file, so the cluster was not checked.`, fix: 'Pass the kubeconfig file itself with --kubeconfig.' });
    // An alias "bomb" whose clusters are lists of lists: client-node's own field message, not `(Error)`.
    const bomb = join(tmp, 'bomb.yaml');
    writeFileSync(bomb, 'x0: &a0 {name: c, cluster: {server: "https://127.0.0.1:1"}}\nx1: &a1 [*a0, *a0]\nx2: &a2 [*a1, *a1]\napiVersion: v1\nclusters: *a2\ncurrent-context: x\ncontexts: [{name: x, context: {cluster: c, user: u}}]\nusers: [{name: u, user: {token: t}}]\n');
    const malformed = await checkCluster(await h.ctx({ kubeconfigPath: bomb }), 2000);
    expect(malformed.meaning).toBe(`The kubeconfig ${bomb} is not one the Kubernetes client can load (clusters[0].name is missing), so the cluster was not checked.`);
    expect(malformed.fix).toBe(`Check it with \`kubectl config view --kubeconfig ${bomb}\` or pass another with --kubeconfig.`);
  });

  it('in the sandbox (a wrapper) the missing file\'s fix names no `npm start`, which would run on the host', async () => {
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true, '192.0.2.53');
    try {
      const h = await host();
      const f = await checkCluster(await h.ctx({ kubeconfigPath: null, kubeconfigLookup: { tried: ['/nonexistent/kc'], explicit: true } }));
      expect(f.fix).toBe('Check the path (--kubeconfig).');
    } finally {
      setCliName('npx k2s-dns');
    }
  });

  it('without --kubeconfig and none found it stays the info finding', async () => {
    const h = await host();
    const none = await checkCluster(await h.ctx({ kubeconfigPath: null, kubeconfigLookup: { tried: ['/etc/kubernetes/admin.conf', '/root/.kube/config'], explicit: false }, sudoLookup: { uid: 0, user: 'root', env: {}, exists: () => false } }));
    expect(none).toMatchObject({ severity: 'info', title: 'No kubeconfig: cluster not checked', fix: 'Pass --kubeconfig PATH or start K2s so /etc/kubernetes/admin.conf exists.' });
  });

  it('splitKubeconfigMessage splits after the path (a path with "; " stays whole), and keeps `k2s-dns` lower case', () => {
    expect(splitKubeconfigMessage('The kubeconfig /a; b/kc is not valid YAML; fix it.', '/a; b/kc', 'F.')).toEqual({ meaning: 'The kubeconfig /a; b/kc is not valid YAML, so the cluster was not checked.', fix: 'Fix it.' });
    expect(splitKubeconfigMessage('The kubeconfig /k uses x; k2s-dns runs as root.', '/k', 'F.')).toEqual({ meaning: 'The kubeconfig /k uses x, so the cluster was not checked.', fix: 'k2s-dns runs as root.' });
    expect(splitKubeconfigMessage('Something else.', '/k', 'F.')).toEqual({ meaning: 'Something else.', fix: 'F.' });
  });
});
