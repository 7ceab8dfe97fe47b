import dgram from 'node:dgram';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { canBind, findPortHolder } from './port-holder';

const bindUdp = (address: string, port = 0) =>
  new Promise<dgram.Socket>((resolve, reject) => {
    const s = dgram.createSocket('udp4');
    s.once('error', reject);
    s.bind(port, address, () => resolve(s));
  });

describe('findPortHolder', () => {
  it('finds this test process holding a UDP socket on 127.0.0.1', async () => {
    const sock = await bindUdp('127.0.0.1');
    const { port } = sock.address();
    const holder = await findPortHolder(port, 'udp', '127.0.0.1');
    sock.close();
    expect(holder?.pid).toBe(process.pid);
    expect(holder?.command).toContain('node');
    expect(await findPortHolder(port, 'tcp', '127.0.0.1')).toBeNull();
  });

  it('a socket on 0.0.0.0 holds 127.0.0.1; a TCP listener is found too', async () => {
    const sock = await bindUdp('0.0.0.0');
    const server = net.createServer();
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
    const tcpPort = (server.address() as net.AddressInfo).port;
    const udp = await findPortHolder(sock.address().port, 'udp', '127.0.0.1');
    const tcp = await findPortHolder(tcpPort, 'tcp', '127.0.0.1');
    sock.close();
    await new Promise((res) => server.close(res));
    expect(udp?.pid).toBe(process.pid);
    expect(tcp?.pid).toBe(process.pid);
  });

  it('canBind: true for a free port and leaves it free; false while a UDP socket or a TCP listener holds it (also on 0.0.0.0)', async () => {
    const sock = await bindUdp('0.0.0.0');
    const udpPort = sock.address().port;
    expect(await canBind(udpPort, 'udp', '127.0.0.1')).toBe(false);
    const server = net.createServer();
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
    const tcpPort = (server.address() as net.AddressInfo).port;
    expect(await canBind(tcpPort, 'tcp', '127.0.0.1')).toBe(false);
    sock.close();
    await new Promise((res) => server.close(res));
    expect(await canBind(udpPort, 'udp', '127.0.0.1')).toBe(true);
    expect(await canBind(tcpPort, 'tcp', '127.0.0.1')).toBe(true);
    // Released again: the port binds for real right after.
    const again = await bindUdp('127.0.0.1', udpPort).catch(() => null);
    expect(again).not.toBeNull();
    again?.close();
    expect(await findPortHolder(tcpPort, 'tcp', '127.0.0.1')).toBeNull();
  });

  it('canBind is false for an address no interface holds (the caller then looks in /proc)', async () => {
    expect(await canBind(0, 'udp', '192.0.2.77')).toBe(false);
    expect(await canBind(0, 'tcp', '192.0.2.77')).toBe(false);
  });
});
