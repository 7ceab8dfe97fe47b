/**
 * Request guards of the web bridge: Host header (DNS-rebinding defence), Origin of WebSocket
 * upgrades and state-changing POSTs, and the per-launch token (Bearer header or cookie).
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Name of the HttpOnly cookie that carries the token after the first page load. */
export const TOKEN_COOKIE = 'k2s_dns_token';

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

/** The token a request presents: `Authorization: Bearer T` or the cookie. */
export function presentedToken(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice('Bearer '.length).trim();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === TOKEN_COOKIE) return v.join('=');
  }
  return undefined;
}

/** Set-Cookie value for the token: HttpOnly (no script access), SameSite=Strict (no CSRF). */
export function tokenCookie(token: string): string {
  return `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}
