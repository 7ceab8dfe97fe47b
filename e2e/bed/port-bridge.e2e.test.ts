import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, connect, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTcpToUnix, startUnixToTcp, type Forwarder } from './port-bridge';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A TCP server on a random loopback port; `onSocket` handles each connection. */
async function tcpServer(onSocket: Parameters<typeof createServer>[1]): Promise<{ server: Server; port: number }> {
  const server = createServer(onSocket);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise((r) => server.close(() => r())));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Sends `data` to 127.0.0.1:port, resolves with everything read until `until` matches. */
function roundTrip(port: number, data: Buffer | string, until: (got: Buffer) => boolean): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    let got = Buffer.alloc(0);
    s.on('data', (d) => {
      got = Buffer.concat([got, d]);
      if (until(got)) {
        s.destroy();
        resolve(got);
      }
    });
    s.on('error', reject);
    s.write(data);
  });
}

/** Inner forwarder (unix → server port) and outer forwarder (a free port → unix), as in `npm run sandbox`. */
async function bridge(targetPort: number, outerPort: number): Promise<{ inner: Forwarder; outer: Forwarder }> {
  const dir = await mkdtemp(join(tmpdir(), 'k2sdns-bridge-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const socketPath = join(dir, 'bridge.sock');
  const inner = await startUnixToTcp({ socketPath, port: targetPort });
  cleanups.push(() => inner.close());
  const outer = await startTcpToUnix({ port: outerPort, socketPath });
  cleanups.push(() => outer.close());
  return { inner, outer };
}

/** A port that is free right now (listen on 0, close). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('port bridge: TCP → Unix socket → TCP', () => {
  it('carries 1 MiB both ways byte for byte through an echo server', async () => {
    const echo = await tcpServer((s) => s.pipe(s));
    const port = await freePort();
    const { inner, outer } = await bridge(echo.port, port);
    expect(outer.address).toBe(`127.0.0.1:${port}`);
    const payload = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < payload.length; i++) payload[i] = (i * 7) & 0xff;
    const got = await roundTrip(port, payload, (g) => g.length >= payload.length);
    expect(got.equals(payload)).toBe(true);
    expect(inner.connections()).toBe(1);
    expect(outer.connections()).toBe(1);
  });

  it('passes a WebSocket-style upgrade: 101 response, then frames both ways on the same connection', async () => {
    const ws = await tcpServer((s) => {
      let upgraded = false;
      s.on('data', (d) => {
        if (!upgraded) {
          expect(d.toString()).toMatch(/^GET \/api\/events HTTP\/1\.1\r\nHost: 127\.0\.0\.1:\d+\r\nUpgrade: websocket\r\n/);
          upgraded = true;
          s.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
          return;
        }
        // After the upgrade: echo frames with the first byte flipped, proving the raw stream flows.
        s.write(Buffer.from([0x81, d.length - 2, ...d.subarray(2)]));
      });
    });
    const port = await freePort();
    await bridge(ws.port, port);
    const frames: Buffer[] = [];
    const sock = connect(port, '127.0.0.1');
    const text = await new Promise<string>((resolve, reject) => {
      let buf = '';
      sock.on('error', reject);
      sock.on('data', (d) => {
        if (!buf.includes('\r\n\r\n')) {
          buf += d.toString();
          if (buf.includes('\r\n\r\n')) {
            sock.write(Buffer.from([0x82, 5, ...Buffer.from('hello')]));
          }
          return;
        }
        frames.push(d);
        resolve(buf);
      });
      sock.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n`);
    });
    sock.destroy();
    expect(text.split('\r\n')[0]).toBe('HTTP/1.1 101 Switching Protocols');
    expect([...frames[0]!]).toEqual([0x81, 5, ...Buffer.from('hello')]);
  });

  it('refuses a port that is taken with EADDRINUSE, and close() ends open connections', async () => {
    const echo = await tcpServer((s) => s.pipe(s));
    await expect(bridge(echo.port, echo.port)).rejects.toThrow(/EADDRINUSE/);
    const port = await freePort();
    const { outer } = await bridge(echo.port, port);
    const sock = connect(port, '127.0.0.1');
    await new Promise<void>((r) => sock.once('connect', () => r()));
    const closed = new Promise<void>((r) => sock.once('close', () => r()));
    await outer.close();
    await closed;
    expect(sock.destroyed).toBe(true);
  });
});
