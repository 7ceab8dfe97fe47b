import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createFakeBackend } from '../../e2e/support/backend-fake';
import { startWebServer, type WebServer } from './server';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Raw HTTP request with full control over Host and other headers. */
function http(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let data = '';
      res.setEncoding('utf8').on('data', (d: string) => (data += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Opens a WebSocket; resolves with the first message or the rejection status. */
function wsFirst(url: string, options: WebSocket.ClientOptions, protocols: string[] = []): Promise<{ status?: number; message?: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, protocols, options);
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
    ws.on('message', (m) => {
      resolve({ message: String(m) });
      ws.close();
    });
    ws.on('error', () => undefined);
  });
}

describe('the web bridge and states the window shows (walk 6 L9)', () => {
  it('zones:list while the API server does not answer: HTTP 200 with the CLUSTER_UNREACHABLE envelope, never a 504 the browser logs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'k2s-web-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>k2s-dns</title>');
    const server = await startWebServer({ backend: createFakeBackend({ stepDelayMs: 1, api: { up: false } }), staticDir: dir });
    try {
      const port = Number(new URL(server.url).port);
      const r = await http(port, 'POST', '/api/zones:list', { Host: `127.0.0.1:${port}`, 'Content-Type': 'application/json', Authorization: `Bearer ${server.token}` }, '{}');
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body)).toEqual({ ok: false, error: { code: 'CLUSTER_UNREACHABLE', message: 'Cannot reach the Kubernetes API at https://172.19.1.100:6443: connect ECONNREFUSED.' } });
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('startWebServer', () => {
  let dir: string;
  let server: WebServer;
  let port: number;
  const backend = createFakeBackend({ stepDelayMs: 1 });
  const json = () => ({ Host: `127.0.0.1:${port}`, 'Content-Type': 'application/json', Authorization: `Bearer ${server.token}` });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'k2s-web-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>k2s-dns</title>');
    server = await startWebServer({ backend, staticDir: dir });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('binds 127.0.0.1 with a 64-hex-digit token in the URL fragment (never sent to a server)', () => {
    expect(server.url).toBe(`http://127.0.0.1:${port}/#token=${server.token}`);
    expect(server.token).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers 401 without a token and with a wrong one', async () => {
    const noToken = await http(port, 'POST', '/api/dns:status', { Host: `127.0.0.1:${port}`, 'Content-Type': 'application/json' }, '{}');
    expect(noToken.status).toBe(401);
    expect(JSON.parse(noToken.body)).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
    const wrong = await http(port, 'POST', '/api/dns:status', { ...json(), Authorization: `Bearer ${'0'.repeat(64)}` }, '{}');
    expect(wrong.status).toBe(401);
  });

  // Regression: main turned ?token= into a cookie `k2s_dns_token`, which browsers
  // send to every server on 127.0.0.1 whatever its port (RFC 6265 §8.5).
  it('sets no cookie and accepts no cookie: only the Bearer header authorizes', async () => {
    const legacy = await http(port, 'GET', `/?token=${server.token}`, { Host: `127.0.0.1:${port}` });
    expect(legacy.headers['set-cookie']).toBeUndefined();
    expect(legacy.status).toBe(200);
    const page = await http(port, 'GET', '/', { Host: `127.0.0.1:${port}` });
    expect(page.headers['set-cookie']).toBeUndefined();
    const cookieOnly = await http(port, 'POST', '/api/dns:status', { Host: `127.0.0.1:${port}`, 'Content-Type': 'application/json', Cookie: `k2s_dns_token=${server.token}` }, '{}');
    expect(cookieOnly.status).toBe(401);
    expect((await http(port, 'POST', '/api/dns:status', json(), '{}')).status).toBe(200);
  });

  it('refuses a foreign Host header (DNS rebinding) even with the token', async () => {
    const r = await http(port, 'POST', '/api/dns:status', { ...json(), Host: `evil.example:${port}` }, '{}');
    expect(r.status).toBe(421);
    expect((await http(port, 'POST', '/api/dns:status', { ...json(), Host: '127.0.0.1' }, '{}')).status).toBe(421);
    expect((await http(port, 'POST', '/api/dns:status', { ...json(), Host: `localhost:${port}` }, '{}')).status).toBe(200);
  });

  it('serves the renderer without the token (public code, no data) under a strict CSP', async () => {
    const page = await http(port, 'GET', '/', { Host: `127.0.0.1:${port}` });
    expect(page.status).toBe(200);
    expect(page.body).toBe('<!doctype html><title>k2s-dns</title>');
    expect(page.headers['content-security-policy']).toBe(
      `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    expect((await http(port, 'GET', '/', { Host: `evil.example:${port}` })).status).toBe(421);
  });

  it('does not serve files outside the static dir', async () => {
    const r = await http(port, 'GET', '/..%2f..%2fetc%2fpasswd', { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${server.token}` });
    expect(r.status).toBe(404);
  });

  it('answers malformed percent-encoding with 404, not a 500', async () => {
    const page = await http(port, 'GET', '/%E0%A4%A', { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${server.token}` });
    expect(page.status).toBe(404);
    const api = await http(port, 'POST', '/api/%E0%A4%A', json(), '{}');
    expect(api.status).toBe(404);
    expect(JSON.parse(api.body)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CALL' } });
  });

  it('answers 404 for an unknown call', async () => {
    const r = await http(port, 'POST', '/api/dns:format', json(), '{}');
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CALL' } });
  });

  it('answers 400 with a message for an unknown field or a too long name', async () => {
    const extra = await http(port, 'POST', '/api/logs:tail', json(), JSON.stringify({ lines: 10, follow: true }));
    expect(extra.status).toBe(400);
    expect(JSON.parse(extra.body)).toEqual({ ok: false, error: { code: 'INVALID_INPUT', message: 'Invalid input for logs:tail: Unrecognized key: "follow".' } });
    const long = await http(port, 'POST', '/api/query:run', json(), JSON.stringify({ name: `${'a'.repeat(60)}.`.repeat(5), type: 'A', target: 'proxy', transport: 'udp' }));
    expect(long.status).toBe(400);
    expect(JSON.parse(long.body).error.message).toBe('Invalid input for query:run: name: Too big: expected string to have <=253 characters.');
    const notJson = await http(port, 'POST', '/api/dns:status', json(), '{');
    expect(notJson.status).toBe(400);
  });

  it('refuses cross-origin POSTs and non-JSON bodies', async () => {
    expect((await http(port, 'POST', '/api/dns:status', { ...json(), Origin: 'http://evil.example' }, '{}')).status).toBe(403);
    expect((await http(port, 'POST', '/api/dns:status', { ...json(), 'Content-Type': 'text/plain' }, '{}')).status).toBe(415);
    expect((await http(port, 'POST', '/api/dns:status', { ...json(), 'Content-Type': 'application/jsonfoo' }, '{}')).status).toBe(415);
    expect((await http(port, 'POST', '/api/dns:status', { ...json(), 'Content-Type': 'application/json; charset=utf-8' }, '{}')).status).toBe(200);
    expect((await http(port, 'GET', '/api/dns:status', json())).status).toBe(405);
  });

  it('returns data from the backend for a valid call', async () => {
    const r = await http(port, 'POST', '/api/cluster:status', { ...json(), Origin: `http://127.0.0.1:${port}` }, '{}');
    expect(r.status).toBe(200);
    const body = JSON.parse(r.body);
    expect(body.ok).toBe(true);
    expect(body.data.kubeDnsIp).toBe('172.21.0.10');
    expect(body.data.nodes).toEqual([{ name: 'k2s-host', ready: true, kubeletVersion: 'v1.33.3' }]);
  });

  it('rejects cross-origin and tokenless WebSockets', async () => {
    const url = `ws://127.0.0.1:${port}/api/events`;
    expect(await wsFirst(url, { origin: 'http://evil.example', headers: { Authorization: `Bearer ${server.token}` } })).toEqual({ status: 403 });
    expect(await wsFirst(url, { origin: `http://127.0.0.1:${port}` })).toEqual({ status: 401 });
    expect(await wsFirst(url, { headers: { Authorization: `Bearer ${server.token}` } })).toEqual({ status: 403 });
    expect(await wsFirst(url, { origin: `http://127.0.0.1:${port}`, headers: { Cookie: `k2s_dns_token=${server.token}` } })).toEqual({ status: 401 });
    expect(await wsFirst(url, { origin: `http://127.0.0.1:${port}` }, ['k2s-dns', `k2s-dns.token.${'0'.repeat(64)}`])).toEqual({ status: 401 });
  });

  it('pushes lifecycle events over the WebSocket', async () => {
    // What the page sends: the token as a subprotocol; the server selects only `k2s-dns`.
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/events`, ['k2s-dns', `k2s-dns.token.${server.token}`], { origin: `http://localhost:${port}` });
    await new Promise((r) => ws.once('open', r));
    expect(ws.protocol).toBe('k2s-dns');
    const events: { event: string; payload: { type?: string; step?: string; status?: string } }[] = [];
    const result = new Promise<void>((resolve) =>
      ws.on('message', (m) => {
        const e = JSON.parse(String(m));
        events.push(e);
        if (e.event === 'lifecycle:event' && e.payload.type === 'result') resolve();
      }),
    );
    const r = await http(port, 'POST', '/api/dns:start', json(), JSON.stringify({ engine: 'adguard' }));
    expect(JSON.parse(r.body)).toMatchObject({ ok: true, data: { type: 'result', ok: true, exitCode: 0 } });
    await result;
    ws.close();
    const lifecycle = events.filter((e) => e.event === 'lifecycle:event');
    expect(lifecycle[0]!.payload).toMatchObject({ type: 'step', step: 'preflight', status: 'running' });
    expect(lifecycle.at(-2)!.payload).toMatchObject({ type: 'step', step: 'ready', status: 'done' });
    expect(events.some((e) => e.event === 'logs:lines')).toBe(true);
  });
});
