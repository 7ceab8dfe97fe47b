/** Serving the built renderer (vite output) with a strict CSP. */
import { readFile, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/**
 * Content-Security-Policy for the renderer on `port`: only our own scripts (no inline), and
 * WebSockets only to our own loopback origin. Electron uses the same policy via session headers.
 */
export function contentSecurityPolicy(port: number | null): string {
  const ws = port === null ? '' : ` ws://127.0.0.1:${port} ws://localhost:${port}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self'${ws}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers every response carries. */
export function securityHeaders(port: number): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(port),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'no-store',
  };
}

/** decodeURIComponent that answers null for malformed percent-encoding instead of throwing. */
export function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * Serves `urlPath` from `staticDir` (index.html for `/`). Paths that escape the directory or do
 * not exist get 404. Resolves true when it answered.
 */
export async function serveStatic(staticDir: string, urlPath: string, res: ServerResponse, headers: Record<string, string>): Promise<void> {
  const decoded = safeDecode(urlPath);
  if (decoded === null) return notFound(res, headers);
  const rel = urlPath === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const root = normalize(staticDir + sep);
  const file = normalize(join(root, rel));
  // Refuse `..` escapes and NUL: only files under the renderer build are served.
  if (!file.startsWith(root) || rel.includes('\0')) return notFound(res, headers);
  const st = await stat(file).catch(() => null);
  if (!st?.isFile()) return notFound(res, headers);
  const body = await readFile(file);
  res.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
  res.end(body);
}

function notFound(res: ServerResponse, headers: Record<string, string>): void {
  res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('Not found.\n');
}
