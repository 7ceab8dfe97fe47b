import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { afterCloseCallbacks, openAfterStop } from './open-after-stop';

describe('openAfterStop', () => {
  it('names a ref’d timer and a listening server, and forgets them once cleared and closed', async () => {
    const before = openAfterStop();
    const timer = setTimeout(() => {}, 60_000);
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    const during = openAfterStop();
    expect(during).toContain(`Server on {"address":"127.0.0.1","family":"IPv4","port":${port}}`);
    expect(during.filter((l) => /^\d+ timers?$/.test(l))).not.toEqual(before.filter((l) => /^\d+ timers?$/.test(l)));
    clearTimeout(timer);
    await new Promise<void>((r) => server.close(() => r()));
    await afterCloseCallbacks();
    expect(openAfterStop()).toEqual(before);
  });

  it('names a UDP socket by its addresses, not by the source of its remoteAddress method', async () => {
    const before = openAfterStop();
    const unbound = createSocket('udp4');
    const server = createSocket('udp4');
    await new Promise<void>((r) => server.bind(0, '127.0.0.1', () => r()));
    const client = createSocket('udp4');
    await new Promise<void>((r) => client.connect(server.address().port, '127.0.0.1', () => r()));
    const added = openAfterStop().filter((l) => !before.includes(l));
    expect(added).toEqual([
      'udp (not bound)',
      `udp 127.0.0.1:${server.address().port}`,
      `udp 127.0.0.1:${client.address().port} to 127.0.0.1:${server.address().port}`,
    ]);
    for (const s of [unbound, server, client]) await new Promise<void>((r) => s.close(() => r()));
    await afterCloseCallbacks();
    expect(openAfterStop()).toEqual(before);
  });

  it('leaves out an unref’d timer: it does not hold the process', () => {
    const before = openAfterStop();
    const timer = setTimeout(() => {}, 60_000).unref();
    expect(openAfterStop()).toEqual(before);
    clearTimeout(timer);
  });
});
