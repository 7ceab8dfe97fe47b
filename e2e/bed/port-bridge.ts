/**
 * Bridges one TCP port across network namespaces through a Unix socket (Unix sockets are
 * file-system objects, so a socket in a directory both sides see crosses netns boundaries):
 *
 *   browser → 127.0.0.1:P (host netns, `startTcpToUnix`) → DIR/bridge.sock
 *           → `startUnixToTcp` (sandbox netns) → 127.0.0.1:P (the web server)
 *
 * Both ends use the SAME port P, so the web server's Host-header check (127.0.0.1:P) passes.
 * Bytes are piped unchanged in both directions, so HTTP keep-alive and WebSocket upgrades pass.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** A running forwarder: `address` is what it listens on; close() ends every piped connection. */
export interface Forwarder {
  /** `127.0.0.1:P` for the TCP side, the socket path for the Unix side. */
  address: string;
  /** Connections piped so far (for tests and logs). */
  connections(): number;
  close(): Promise<void>;
}

/** Pipes `a` ↔ `b` both ways (half-close carried over); an error on either side ends both. */
function splice(a: Socket, b: Socket): void {
  a.pipe(b);
  b.pipe(a);
  const end = () => {
    a.destroy();
    b.destroy();
  };
  a.on('error', end);
  b.on('error', end);
  a.on('close', end);
  b.on('close', end);
}

/** Listens with `server`, then wraps it as a Forwarder that dials `dial()` per connection. */
async function forward(server: Server, listen: (s: Server) => void, address: () => string, dial: () => Socket): Promise<Forwarder> {
  const open = new Set<Socket>();
  let count = 0;
  server.on('connection', (client) => {
    count++;
    const upstream = dial();
    open.add(client).add(upstream);
    client.on('close', () => open.delete(client));
    upstream.on('close', () => open.delete(upstream));
    splice(client, upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      resolve();
    });
    listen(server);
  });
  return {
    address: address(),
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Host side: listens on `host:port` (default 127.0.0.1) and pipes each TCP connection into the
 * Unix socket `socketPath`. Rejects with EADDRINUSE when the port is taken in this namespace.
 */
export function startTcpToUnix(o: { port: number; socketPath: string; host?: string }): Promise<Forwarder> {
  const host = o.host ?? '127.0.0.1';
  const server = createServer({ allowHalfOpen: true });
  return forward(
    server,
    (s) => s.listen({ port: o.port, host, exclusive: true }),
    () => `${host}:${o.port}`,
    () => createConnection({ path: o.socketPath, allowHalfOpen: true }),
  );
}

/**
 * Sandbox side: listens on the Unix socket `socketPath` (mode 0600: only root, who runs the
 * sandbox, can connect) and pipes each connection to `host:port` (default 127.0.0.1).
 */
export async function startUnixToTcp(o: { socketPath: string; port: number; host?: string }): Promise<Forwarder> {
  const host = o.host ?? '127.0.0.1';
  const server = createServer({ allowHalfOpen: true });
  const f = await forward(
    server,
    (s) => s.listen({ path: o.socketPath, readableAll: false, writableAll: false }),
    () => o.socketPath,
    () => createConnection({ port: o.port, host, allowHalfOpen: true }),
  );
  return f;
}
