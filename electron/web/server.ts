/**
 * Web mode: the same contract over HTTP + WebSocket on 127.0.0.1, for headless hosts and the
 * browser tests. POST /api/<call> with a JSON body → Envelope; WebSocket /api/events pushes
 * `{event, payload}` for `lifecycle:event`, `logs:lines` and `logs:reset`; everything else is the renderer.
 * Every request needs an exact loopback Host header; API calls and the push channel need the
 * per-launch token, which the page presents itself (guards.ts says why it is never a cookie).
 * The renderer's files are served without it: they are public code and hold no data.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ContractEvents, EventName } from '../../shared/contract';
import { httpStatusFor } from '../../shared/error-codes';
import type { AppBackend } from '../core/backend';
import { dispatch } from '../core/dispatch';
import { bearerToken, hostOk, originOk, tokenEquals, upgradeToken, WS_PROTOCOL } from './guards';
import { safeDecode, securityHeaders, serveStatic } from './static';

/** Largest accepted API request body, bytes (the biggest valid input is well under 8 KiB). */
export const MAX_BODY_BYTES = 64 * 1024;

/** Options of startWebServer. `port` 0 or absent picks a free port. */
export interface WebServerOptions {
  backend: AppBackend;
  port?: number;
  /** Directory with the built renderer (index.html + assets). */
  staticDir: string;
}

/** A running web bridge; `url` carries the token in its fragment (`/#token=…`), which is never sent to a server. */
export interface WebServer {
  url: string;
  token: string;
  close(): Promise<void>;
}

/** HTTP status for an error code crossing the web bridge: the catalogue's (shared/error-codes.ts). */
export { httpStatusFor };

/** Starts the web bridge bound to 127.0.0.1 only. Rejects when the port is taken. */
export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const token = randomBytes(32).toString('hex');
  let port = 0;
  // Select only our fixed subprotocol: the token-carrying one is never echoed back.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096, handleProtocols: (offered) => (offered.has(WS_PROTOCOL) ? WS_PROTOCOL : false) });

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: { code: 'BACKEND_ERROR', message: String(err) } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers = securityHeaders(port);
    if (!hostOk(req, port)) {
      res.writeHead(421, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`Misdirected request: open http://127.0.0.1:${port}/ instead.\n`);
      return;
    }
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname.startsWith('/api/') && !tokenEquals(bearerToken(req), token)) return unauthorized(res, headers);

    if (url.pathname.startsWith('/api/')) {
      if (req.method !== 'POST') return sendJson(res, 405, fail('METHOD', 'Use POST for API calls.'), { Allow: 'POST' });
      // Browsers always send Origin on POST; a foreign one means a cross-site request.
      if (!originOk(req, port, false)) return sendJson(res, 403, fail('FORBIDDEN', 'Cross-origin API calls are refused; use the app page.'));
      // The media type exactly (parameters such as charset allowed), not a prefix.
      if ((req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/json') {
        return sendJson(res, 415, fail('INVALID_INPUT', 'Send the call input as application/json.'));
      }
      const body = await readBody(req);
      if (body === null) return sendJson(res, 413, fail('INVALID_INPUT', `Request body larger than ${MAX_BODY_BYTES} bytes; send a smaller input.`));
      let payload: unknown;
      try {
        payload = body.length === 0 ? {} : JSON.parse(body);
      } catch {
        return sendJson(res, 400, fail('INVALID_INPUT', 'Request body is not valid JSON; send a JSON object.'));
      }
      const envelope = await dispatch(opts.backend, safeDecode(url.pathname.slice('/api/'.length)) ?? '', payload);
      return sendJson(res, envelope.ok ? 200 : httpStatusFor(envelope.error.code), envelope);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...headers, Allow: 'GET' });
      res.end();
      return;
    }
    await serveStatic(opts.staticDir, url.pathname, res, headers);
  }

  // Node closes an idle keep-alive socket after 5 s by default; a POST the browser sends on it at
  // that moment fails with "Failed to fetch" and is not retried. Let the browser close first.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 125_000;

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const reject = (status: string) => {
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (!hostOk(req, port)) return reject('421 Misdirected Request');
    // WebSockets ignore the same-origin policy, so the Origin check is the only cross-site guard.
    if (!originOk(req, port, true)) return reject('403 Forbidden');
    if (!tokenEquals(upgradeToken(req), token)) return reject('401 Unauthorized');
    if (url.pathname !== '/api/events') return reject('404 Not Found');
    wss.handleUpgrade(req, socket, head, (ws) => attach(ws));
  });

  function attach(ws: WebSocket): void {
    const send = <E extends EventName>(event: E, payload: ContractEvents[E]) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event, payload }));
    };
    const offLifecycle = opts.backend.onLifecycleEvent((e) => send('lifecycle:event', e));
    const offLogs = opts.backend.followLogs((lines) => send('logs:lines', lines), (reset) => send('logs:reset', reset));
    ws.on('close', () => {
      offLifecycle();
      offLogs();
    });
    // The channel is push-only: anything the page sends closes it.
    ws.on('message', () => ws.close(1008, 'push-only channel'));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/#token=${token}`,
    token,
    close: async () => {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function fail(code: string, message: string) {
  return { ok: false as const, error: { code, message } };
}

function unauthorized(res: ServerResponse, headers: Record<string, string>): void {
  sendJson(res, 401, fail('UNAUTHORIZED', 'Missing or wrong token: open the URL that `k2s-dns ui` printed (it ends in #token=…).'), headers);
}

function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...extra, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  res.end(JSON.stringify(body));
}

/** Reads the body as UTF-8; null when it exceeds MAX_BODY_BYTES. */
function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.pause();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
