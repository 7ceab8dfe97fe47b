import dgram from 'node:dgram';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it('canBind leaves no socket open on any path: a held UDP or TCP port, an address no interface holds, a free port', async () => {
    /** This process's open dgram sockets and net servers (process._getActiveHandles, as e2e/support/open-after-stop.ts reads it). */
    const open = () => {
      const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
      return { udp: handles.filter((h) => h instanceof dgram.Socket).length, tcp: handles.filter((h) => h instanceof net.Server).length };
    };
    const sock = await bindUdp('127.0.0.1');
    const server = net.createServer();
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
    // Sockets earlier tests closed stay listed until libuv ran their close callbacks: let it.
    const settled = async () => {
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
    };
    await settled();
    const before = open();
    expect(before.udp).toBeGreaterThanOrEqual(1); // the holder itself: the count sees dgram sockets
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await canBind(sock.address().port, 'udp', '127.0.0.1')); // EADDRINUSE
    results.push(await canBind(0, 'udp', '192.0.2.77')); // EADDRNOTAVAIL
    results.push(await canBind((server.address() as net.AddressInfo).port, 'tcp', '127.0.0.1')); // EADDRINUSE
    results.push(await findPortHolder(sock.address().port, 'udp', '127.0.0.1').then((h) => h !== null));
    expect(results).toEqual([false, false, false, false, false, true]);
    await settled();
    expect(open()).toEqual(before);
    sock.close();
    await new Promise((res) => server.close(res));
  });

  it('canBind is false for an address no interface holds (the caller then looks in /proc)', async () => {
    expect(await canBind(0, 'udp', '192.0.2.77')).toBe(false);
    expect(await canBind(0, 'tcp', '192.0.2.77')).toBe(false);
  });
});

describe('findPortHolder on a fake /proc', () => {
  /** A /proc with one UDP socket (inode 4242) on 127.0.0.1:53 held by PID 930, its cgroup `cgroup` (none when undefined). */
  async function fakeProc(cgroup: string | undefined): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'k2sdns-proc-'));
    await mkdir(join(dir, 'net'));
    // /proc/net/udp (proc(5)): 127.0.0.1 is 0100007F on a little-endian host, port 53 is 0035.
    const local = os.endianness() === 'LE' ? '0100007F:0035' : '7F000001:0035';
    await writeFile(join(dir, 'net', 'udp'), `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   0: ${local} 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 4242 2 0000000000000000 0\n`);
    await mkdir(join(dir, '930', 'fd'), { recursive: true });
    await symlink('socket:[4242]', join(dir, '930', 'fd', '3'));
    await writeFile(join(dir, '930', 'cmdline'), '/usr/sbin/dnsmasq\0-x\0/run/dnsmasq/dnsmasq.pid\0');
    if (cgroup !== undefined) await writeFile(join(dir, '930', 'cgroup'), cgroup);
    return dir;
  }

  it('names the system service its cgroup names; none for a login session or an unreadable cgroup', async () => {
    const dirs = [await fakeProc('0::/system.slice/dnsmasq.service\n'), await fakeProc('0::/user.slice/user-1000.slice/session-2.scope\n'), await fakeProc(undefined)];
    try {
      expect(await findPortHolder(53, 'udp', '127.0.0.1', dirs[0])).toEqual({ pid: 930, command: '/usr/sbin/dnsmasq -x /run/dnsmasq/dnsmasq.pid', unit: 'dnsmasq.service' });
      expect(await findPortHolder(53, 'udp', '127.0.0.1', dirs[1])).toEqual({ pid: 930, command: '/usr/sbin/dnsmasq -x /run/dnsmasq/dnsmasq.pid' });
      expect(await findPortHolder(53, 'udp', '127.0.0.1', dirs[2])).toEqual({ pid: 930, command: '/usr/sbin/dnsmasq -x /run/dnsmasq/dnsmasq.pid' });
    } finally {
      for (const d of dirs) await rm(d, { recursive: true, force: true });
    }
  });
});
