/** The fake API server the cluster tests (and the UI sandbox) rely on, over raw HTTP. */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parseCliArgs, routeKey } from '../../../e2e/bed/fake-apiserver';
import { startTestApiServer } from '../../../e2e/support/cluster-test-bed';

let server: Awaited<ReturnType<typeof startTestApiServer>>;
beforeAll(async () => {
  server = await startTestApiServer();
});
afterAll(async () => {
  await server.stop();
});

const get = (p: string, token: string | null = server.token) =>
  fetch(server.url + p, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('fake API server', () => {
  it('writes a kubeconfig with context k2s-test, the token and insecure-skip-tls-verify over http', async () => {
    const kc = YAML.parse(await readFile(server.kubeconfigPath, 'utf8'));
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(kc['current-context']).toBe('k2s-test');
    expect(kc.clusters[0].cluster).toEqual({ server: server.url, 'insecure-skip-tls-verify': true });
    expect(kc.users[0].user).toEqual({ token: server.token });
    expect(kc.contexts[0]).toEqual({ name: 'k2s-test', context: { cluster: 'k2s-test', user: 'k2s-test-admin' } });
  });

  it('serves the recorded objects at the README paths, however the selector is encoded', async () => {
    const svc = await (await get('/api/v1/namespaces/kube-system/services?labelSelector=k8s-app=kube-dns')).json();
    expect(svc.items[0].spec.clusterIP).toBe('172.21.0.10');
    const version = await (await get('/version')).json();
    expect(version.gitVersion).toBe('v1.33.3');
  });

  it('answers 404 with a Kubernetes Status for coredns-custom and unknown paths', async () => {
    const res = await get('/api/v1/namespaces/kube-system/configmaps/coredns-custom');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "coredns-custom" not found',
      reason: 'NotFound',
      details: { name: 'coredns-custom', kind: 'configmaps' },
      code: 404,
    });
    expect((await get('/apis/apps/v1/deployments')).status).toBe(404);
  });

  it('requires the bearer token', async () => {
    expect((await get('/version', null)).status).toBe(401);
    expect((await get('/version', 'wrong')).status).toBe(401);
  });

  it('setObject overrides and removes objects', async () => {
    server.setObject('/api/v1/namespaces/kube-system/configmaps/coredns-custom', { kind: 'ConfigMap', data: { 'a.server': 'x' } });
    expect((await (await get('/api/v1/namespaces/kube-system/configmaps/coredns-custom')).json()).data).toEqual({ 'a.server': 'x' });
    server.setObject('/api/v1/namespaces/kube-system/configmaps/coredns-custom', null);
    expect((await get('/api/v1/namespaces/kube-system/configmaps/coredns-custom')).status).toBe(404);
  });

  it('modes: unauthorized → 401 Status, garbage → 200 non-JSON, down → connection refused, ok again', async () => {
    await server.setMode('unauthorized');
    const r401 = await get('/version');
    expect(r401.status).toBe(401);
    expect((await r401.json()).reason).toBe('Unauthorized');
    await server.setMode('garbage');
    const rg = await get('/version');
    expect(rg.status).toBe(200);
    const body = await rg.text();
    expect(body).toBe('<html><body>502 Bad Gateway (captive portal)</body></html>');
    expect(() => JSON.parse(body)).toThrow(SyntaxError);
    await server.setMode('down');
    await expect(get('/version')).rejects.toThrow(/fetch failed/);
    await server.setMode('ok');
    expect((await get('/version')).status).toBe(200);
  });
});

describe('fake API server helpers', () => {
  it('routeKey normalises selector encoding and drops other parameters', () => {
    expect(routeKey('/api/v1/namespaces/kube-system/pods?labelSelector=k8s-app%3Dkube-dns&limit=500')).toBe(
      '/api/v1/namespaces/kube-system/pods?labelSelector=k8s-app%3Dkube-dns',
    );
    expect(routeKey('/api/v1/nodes/?pretty=true')).toBe('/api/v1/nodes');
  });

  it('parseCliArgs reads the stand-alone flags and rejects unknown ones', () => {
    expect(parseCliArgs(['--fixtures', 'fixtures/k8s', '--kubeconfig-dir', 'd', '--port', '6443'])).toEqual({
      fixturesDir: 'fixtures/k8s',
      kubeconfigDir: 'd',
      port: 6443,
    });
    expect(() => parseCliArgs(['--fixtures', 'f'])).toThrow(/Missing --fixtures or --kubeconfig-dir/);
    expect(() => parseCliArgs(['--bogus', 'x'])).toThrow(/Unexpected argument "--bogus"/);
    expect(() => parseCliArgs(['--fixtures', 'f', '--kubeconfig-dir', 'd', '--port', 'x'])).toThrow(/is not a port number/);
  });
});

// Walk 9 M1: the sandbox's printed `kubectl … logs -l k8s-app=kube-dns` got "the server has asked
// for the client to provide credentials": kubectl sends no token over http. The sandbox's API
// answers tokenless reads (anonymousReads) and serves the recorded CoreDNS pods' log (podLog).
describe('fake API server for kubectl (anonymousReads, podLog)', () => {
  it('off by default: no token is 401, and a pod log is an unrecorded path', async () => {
    expect((await get('/api/v1', null)).status).toBe(401);
    expect((await get('/api/v1/namespaces/kube-system/pods/coredns-674b8bbfcf-9x7kq/log')).status).toBe(404);
  });

  it('on: tokenless GETs and discovery answer, a wrong token is still 401, the log of a recorded pod is text', async () => {
    const { startFakeApiServer } = await import('../../../e2e/bed/fake-apiserver');
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'k2sdns-fake-api-'));
    const api = await startFakeApiServer({ fixturesDir: join(__dirname, '../../../fixtures/k8s'), kubeconfigDir: dir, anonymousReads: true, podLog: async (ns, pod) => `log of ${ns}/${pod}\n` });
    try {
      const at = (p: string, headers: Record<string, string> = {}) => fetch(api.url + p, { headers });
      expect(await (await at('/api/v1')).json()).toMatchObject({ kind: 'APIResourceList', groupVersion: 'v1' });
      expect((await at('/api/v1/namespaces/kube-system/pods?labelSelector=k8s-app%3Dkube-dns')).status).toBe(200);
      expect((await at('/api/v1', { authorization: 'Bearer wrong' })).status).toBe(401);
      const log = await at('/api/v1/namespaces/kube-system/pods/coredns-674b8bbfcf-9x7kq/log?container=coredns&tailLines=10');
      expect(log.headers.get('content-type')).toBe('text/plain');
      expect(await log.text()).toBe('log of kube-system/coredns-674b8bbfcf-9x7kq\n');
      expect((await at('/api/v1/namespaces/kube-system/pods/not-a-pod/log')).status).toBe(404);
      expect((await fetch(api.url + '/api/v1/namespaces', { method: 'POST' })).status).toBe(401);
    } finally {
      await api.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
