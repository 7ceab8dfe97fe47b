/**
 * openKubeClient's reads over TLS with the kubeconfig's own CA and token (kube-api.ts applies
 * KubeConfig.applySecurityAuthentication to each request): the CA verifies the server, the token
 * reaches it, and a server certificate of another CA is refused with the TLS message.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCerts, type TestCerts } from '../../../e2e/bed/test-ca';
import { ClusterUnreachableError } from './errors';
import { openKubeClient } from './kube-client';

let dir: string;
let certs: TestCerts;
let other: TestCerts;
let server: https.Server;
let url: string;
const seen: { path: string; auth: string | undefined }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'k2sdns-tls-'));
  [certs, other] = await Promise.all([makeTestCerts('127.0.0.1'), makeTestCerts('127.0.0.1')]);
  server = https.createServer({ key: certs.serverKey, cert: certs.serverCert }, (req, res) => {
    seen.push({ path: req.url ?? '', auth: req.headers.authorization });
    if (req.headers.authorization !== 'Bearer s3cret') {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"kind":"Status","code":401}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"kind":"NodeList","items":[{"metadata":{"name":"n1"},"spec":{"podCIDRs":["172.20.0.0/24"]}}]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 30_000);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** A kubeconfig for the test server with CA `ca` and token `token`, mode 0600. */
function kubeconfig(name: string, ca: string, token: string): string {
  const path = join(dir, name);
  const b64 = Buffer.from(ca).toString('base64');
  writeFileSync(path, `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${url}\n    certificate-authority-data: ${b64}\nusers:\n- name: u\n  user:\n    token: ${token}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n`, { mode: 0o600 });
  return path;
}

describe('openKubeClient over TLS', () => {
  it('verifies the server with the kubeconfig CA and sends its token; the answer is the JSON as sent', async () => {
    const client = openKubeClient(kubeconfig('good', certs.caCert, 's3cret'), 5000);
    const nodes = await client.call('the Node list', () => client.core.listNode());
    expect(nodes.items.map((n) => [n.metadata?.name, n.spec?.podCIDRs])).toEqual([['n1', ['172.20.0.0/24']]]);
    expect(seen.at(-1)).toEqual({ path: '/api/v1/nodes', auth: 'Bearer s3cret' });
  });

  it('a server certificate another CA signed is refused before any request reaches it; a wrong token is 401', async () => {
    const before = seen.length;
    const untrusted = openKubeClient(kubeconfig('other-ca', other.caCert, 's3cret'), 5000);
    const err = await untrusted.call('the Node list', () => untrusted.core.listNode()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClusterUnreachableError);
    expect((err as Error).message).toMatch(/presented a TLS certificate the kubeconfig's CA does not verify/);
    expect(seen.length).toBe(before);
    const wrong = openKubeClient(kubeconfig('wrong-token', certs.caCert, 'nope'), 5000);
    await expect(wrong.call('the Node list', () => wrong.core.listNode())).rejects.toThrow(/rejected the credentials .* \(401 Unauthorized\)/);
  });
});
