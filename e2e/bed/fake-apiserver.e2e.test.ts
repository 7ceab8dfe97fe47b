/**
 * The fake API server's CoreDNS side (LIST, WATCH, the in-cluster HTTPS listener) and the
 * engines' version pins. Needs no namespaces (127.0.0.1, random ports), only openssl.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isWatch, startFakeApiServer, type FakeApiServer } from './fake-apiserver';
import { makeTestCerts, type TestCerts } from './test-ca';
import { pinnedVersions } from './engines';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'k8s');

describe('fake API server for CoreDNS', () => {
  let api: FakeApiServer;
  let dir: string;
  let certs: TestCerts;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'k2sdns-fakeapi-'));
    certs = await makeTestCerts('127.0.0.1');
    api = await startFakeApiServer({ fixturesDir: FIXTURES, kubeconfigDir: dir, tls: { key: certs.serverKey, cert: certs.serverCert, host: '127.0.0.1' } });
  });
  afterAll(async () => {
    await api?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** GET over the in-cluster listener, trusting only the test CA (as client-go does with ca.crt). */
  const get = (path: string): Promise<{ status: number; type: string | undefined; body: string; firstChunkMs: number }> =>
    new Promise((resolve, reject) => {
      const t0 = Date.now();
      const req = https.get(`${api.inClusterUrl}${path}`, { ca: certs.caCert, headers: { authorization: `Bearer ${api.token}` } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body, firstChunkMs: Date.now() - t0 }));
      });
      req.on('error', reject);
    });

  it('LISTs Services cluster-wide with kind, apiVersion and resourceVersion on the list and every item', async () => {
    const r = await get('/api/v1/services?limit=500&resourceVersion=0');
    expect(r.status).toBe(200);
    expect(r.type).toBe('application/json');
    const list = JSON.parse(r.body) as { kind: string; metadata: { resourceVersion: string }; items: { kind: string; apiVersion: string; metadata: { name: string; namespace: string }; spec: { clusterIP: string } }[] };
    expect(list.kind).toBe('ServiceList');
    expect(list.metadata.resourceVersion).toBe('5200');
    expect(list.items.map((s) => `${s.metadata.namespace}/${s.metadata.name}=${s.spec.clusterIP}`)).toEqual([
      'default/kubernetes=172.21.0.1',
      'kube-system/kube-dns=172.21.0.10',
      'demo/web=172.21.14.7',
    ]);
    expect(list.items.every((s) => s.kind === 'Service' && s.apiVersion === 'v1')).toBe(true);
  });

  it('LISTs EndpointSlices (service-name label, ready endpoints) and every namespace a Service uses', async () => {
    const slices = JSON.parse((await get('/apis/discovery.k8s.io/v1/endpointslices?limit=500&resourceVersion=0')).body) as {
      items: { apiVersion: string; metadata: { labels: Record<string, string> }; endpoints: { addresses: string[]; conditions: { ready: boolean } }[] }[];
    };
    const bySvc = Object.fromEntries(slices.items.map((s) => [s.metadata.labels['kubernetes.io/service-name'], s.endpoints.flatMap((e) => e.addresses)]));
    expect(bySvc).toEqual({ 'kube-dns': ['172.20.0.2', '172.20.0.3'], kubernetes: ['172.19.1.100'], web: ['172.20.0.14'] });
    expect(slices.items.every((s) => s.apiVersion === 'discovery.k8s.io/v1')).toBe(true);
    const ns = JSON.parse((await get('/api/v1/namespaces')).body) as { items: { metadata: { name: string } }[] };
    expect(ns.items.map((n) => n.metadata.name)).toEqual(expect.arrayContaining(['default', 'kube-system', 'demo']));
  });

  it('a WATCH answers 200 application/json and ends after timeoutSeconds with no events', async () => {
    const r = await get('/api/v1/namespaces?allowWatchBookmarks=true&resourceVersion=5200&timeoutSeconds=1&watch=true');
    expect(r).toMatchObject({ status: 200, type: 'application/json', body: '' });
    expect(r.firstChunkMs).toBeGreaterThanOrEqual(900);
    expect(api.inClusterRequests).toContain('/api/v1/namespaces?watch');
    expect(isWatch('/x?watch=1')).toBe(true);
    expect(isWatch('/x?watch=false')).toBe(false);
  });

  it('refuses a wrong token with a 401 Status on the in-cluster listener too', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      https.get(`${api.inClusterUrl}/api/v1/services`, { ca: certs.caCert, headers: { authorization: 'Bearer nope' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on('error', reject);
    });
    expect(status).toBe(401);
  });
});

describe('engine versions', () => {
  it('reads the pins from versions.env text', () => {
    expect(pinnedVersions('# c\nDNSPROXY_VERSION=v0.83.1\nCOREDNS_VERSION=v1.12.4\n')).toEqual({ dnsproxy: 'v0.83.1', coredns: 'v1.12.4' });
    expect(() => pinnedVersions('DNSPROXY_VERSION=v1\n')).toThrow('COREDNS_VERSION');
    expect(pinnedVersions()).toEqual({ dnsproxy: 'v0.83.1', coredns: 'v1.12.4' });
  });
});
