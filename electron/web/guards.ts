/**
 * Request guards of the web bridge: Host header (DNS-rebinding defence), Origin of WebSocket
 * upgrades and state-changing POSTs, and the per-launch token.
 *
 * Why no cookie: cookies are scoped by host, not port (RFC 6265 §8.5), so a cookie set by
 * 127.0.0.1:PORT is sent by the browser to every other server on 127.0.0.1, including one an
 * unprivileged local user runs (SameSite does not help: same site). The token therefore never
 * becomes browser-managed state: the printed URL carries it in the fragment (`#token=…`, never
 * sent in a request), the page keeps it in memory and presents it itself, as
 * `Authorization: Bearer T` on API calls and as a WebSocket subprotocol `k2s-dns.token.T` on the
 * push channel (a page cannot set headers on a WebSocket; the subprotocol header is sent only to
 * the server the page connects to). A host-name bound cookie would need a per-launch name that
 * resolves to loopback; the fragment needs nothing from the host.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The subprotocol the server selects for the push channel. */
export const WS_PROTOCOL = 'k2s-dns';
/** Prefix of the subprotocol that carries the token (`k2s-dns.token.<64 hex>`). */
export const WS_TOKEN_PREFIX = 'k2s-dns.token.';

/** Host header values accepted for a server on `port`: loopback names only, exact match. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** Origins accepted for WebSocket upgrades and POSTs on `port`. */
export function allowedOrigins(port: number): string[] {
  return allowedHosts(port).map((h) => `http://${h}`);
}

/**
 * True when the Host header is exactly one of ours. A DNS-rebinding page reaches us with its
 * own name in Host (`evil.example:PORT`), so anything else is refused.
 */
export function hostOk(req: IncomingMessage, port: number): boolean {
  return allowedHosts(port).includes(req.headers.host ?? '');
}

/** True when Origin is absent (same-origin GET/navigation) or one of ours. */
export function originOk(req: IncomingMessage, port: number, required: boolean): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return !required;
  return allowedOrigins(port).includes(origin);
}

/** Constant-time comparison, so the token cannot be guessed byte by byte from timings. */
export function tokenEquals(given: string | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token an API request presents: `Authorization: Bearer T` only (cookies are ignored). */
export function bearerToken(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice('Bearer '.length).trim();
  return undefined;
}

/** The subprotocols a WebSocket upgrade offers (`Sec-WebSocket-Protocol`, comma-separated). */
export function offeredProtocols(req: IncomingMessage): string[] {
  return (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '');
}

/** The token a WebSocket upgrade presents: the `k2s-dns.token.T` subprotocol, else a Bearer header (non-browser clients). */
export function upgradeToken(req: IncomingMessage): string | undefined {
  const p = offeredProtocols(req).find((x) => x.startsWith(WS_TOKEN_PREFIX));
  return p !== undefined ? p.slice(WS_TOKEN_PREFIX.length) : bearerToken(req);
}
