/**
 * A hostile or broken API server streaming an endless body (brk31: 2.6 GB resident in one 5 s
 * read as root during `k2s-dns start`): the body stops at the bound, the request ends there
 * (the server sees its socket closed long before the deadline's worth), and the error names
 * the size, not a timeout. An API server answering 302 to another port on the same host: node-fetch
 * followed it with the bearer token (brk31); the token must never reach the redirect target.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedHttpLibrary } from './bounded-http';
import { HttpMethod, ServerConfiguration } from './client-node-parts';
import { openKubeClient } from './kube-client';

const CHUNK = Buffer.alloc(64 * 1024, 0x20);
/** Chunks the server wrote per connection, and whether the client closed it first. */
const sent: { chunks: number; closedEarly: boolean }[] = [];
/** Stop after this many chunks (640 MiB): far past any bound, reached only by a client that reads on. */
const MAX_CHUNKS = 10_240;
let server: Server;
let url: string;
let dir: string;
/** Requests the redirect target saw, with their Authorization header. */
const reached: { url: string; authorization: string | undefined }[] = [];
let target: Server;
let redirecting: Server;
let redirectUrl: string;

beforeAll(async () => {
  server = createServer((_req, res) => {
    const row = { chunks: 0, closedEarly: false };
    sent.push(row);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"major":"1","minor":"33"');
    const pump = (): void => {
      while (row.chunks < MAX_CHUNKS) {
        row.chunks++;
        if (!res.write(CHUNK)) return void res.once('drain', pump);
      }
      res.end('}');
    };
    res.on('close', () => {
      if (row.chunks < MAX_CHUNKS) row.closedEarly = true;
    });
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'k2s-bounded-http-'));
  target = createServer((req, res) => {
    reached.push({ url: req.url ?? '', authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"major":"1","minor":"33"}');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  const targetPort = (target.address() as AddressInfo).port;
  redirecting = createServer((req, res) => res.writeHead(302, { location: `http://127.0.0.1:${targetPort}${req.url ?? '/'}` }).end());
  await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
  redirectUrl = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await new Promise((r) => target.close(r));
  await new Promise((r) => redirecting.close(r));
  await rm(dir, { recursive: true, force: true });
});

/** Waits (bounded) until the server saw the latest connection close. */
async function closedEarly(): Promise<boolean> {
  const row = sent.at(-1)!;
  for (let i = 0; i < 200 && !row.closedEarly && row.chunks < MAX_CHUNKS; i++) await new Promise((r) => setTimeout(r, 50));
  return row.closedEarly;
}

describe('boundedHttpLibrary', () => {
  it('rejects a body past maxBytes with FetchError max-size and closes the connection', async () => {
    const request = new ServerConfiguration(url, {}).makeRequestContext('/version/', HttpMethod.GET);
    const response = await boundedHttpLibrary(60_000, 1024 * 1024).send(request).toPromise();
    expect(response.httpStatusCode).toBe(200);
    await expect(response.body.text()).rejects.toMatchObject({ name: 'FetchError', type: 'max-size' });
    expect(await closedEarly()).toBe(true);
    expect(sent.at(-1)!.chunks).toBeLessThan(MAX_CHUNKS);
  });

  it('openKubeClient: a /version answer past the 64 MiB bound is CLUSTER_BAD_RESPONSE naming the size, not a timeout', async () => {
    const kubeconfig = join(dir, 'config');
    await writeFile(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${url}\n    insecure-skip-tls-verify: true\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c\nusers:\n- name: u\n  user: {token: t}\n`,
    );
    const kc = openKubeClient(kubeconfig, 60_000);
    const err = await kc.call('the version', () => kc.version.getCode()).then(
      () => null,
      (e: unknown) => e as { code?: string; message?: string },
    );
    expect(err?.code).toBe('CLUSTER_BAD_RESPONSE');
    expect(err?.message).toContain(`answered the version with more than ${64 * 1024 * 1024} bytes`);
    expect(await closedEarly()).toBe(true);
  });

  it('follows no redirect: a 302 rejects with FetchError no-redirect and the target sees no request', async () => {
    const request = new ServerConfiguration(redirectUrl, {}).makeRequestContext('/version/', HttpMethod.GET);
    request.setHeaderParam('Authorization', 'Bearer secret-token');
    await expect(boundedHttpLibrary(60_000).send(request).toPromise()).rejects.toMatchObject({ name: 'FetchError', type: 'no-redirect' });
    expect(reached).toEqual([]);
  });

  it('openKubeClient: a 302 to another port is CLUSTER_BAD_RESPONSE naming the redirect; the token does not follow it', async () => {
    const kubeconfig = join(dir, 'redirect-config');
    await writeFile(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${redirectUrl}\n    insecure-skip-tls-verify: true\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c\nusers:\n- name: u\n  user: {token: secret-token}\n`,
    );
    const kc = openKubeClient(kubeconfig, 60_000);
    const err = await kc.call('the version', () => kc.version.getCode()).then(
      () => null,
      (e: unknown) => e as { code?: string; message?: string },
    );
    expect(err?.code).toBe('CLUSTER_BAD_RESPONSE');
    expect(err?.message).toContain(`The Kubernetes API server at ${redirectUrl} answered the version with a redirect, which k2s-dns does not follow`);
    expect(reached).toEqual([]);
  });
});
