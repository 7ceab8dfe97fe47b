import { describe, expect, it } from 'vitest';
import { boundAddressCovers, decodeProcNetAddress, parseProcNet, parseProcNetLine } from './proc-net';

/** Real /proc/net/udp (x86_64) with systemd-resolved's stub and a dnsmasq on 0.0.0.0:53. */
const UDP = `   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
  1042: 3500007F:0035 00000000:0000 07 00000000:00000000 00:00000000 00000000   991        0 21543 2 0000000000000000 0
  1059: 00000000:0035 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 30811 2 0000000000000000 0
  2132: 0100007F:630A 0101A8C0:0035 01 00000000:00000000 00:00000000 00000000  1000        0 14321 2 00000000b1573792 0
`;

/** Real /proc/net/tcp6: sshd on [::]:22, something on [::1]:631, a mapped and a link-local socket. */
const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000000000000:0016 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 19733 1 0000000000000000 100 0 0 10 0
   1: 00000000000000000000000001000000:0277 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 24051 1 0000000000000000 100 0 0 10 0
   2: 0000000000000000FFFF00000100007F:1F90 0000000000000000FFFF00000100007F:D2F4 01 00000000:00000000 00:00000000 00000000  1000        0 0 1 0000000000000000 20 4 30 10 -1
   3: 000080FE00000000000000000100000A:0035 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 40001 1 0000000000000000 100 0 0 10 0
`;

describe('/proc/net parser', () => {
  it('decodes little-endian IPv4 and IPv6 words', () => {
    expect(decodeProcNetAddress('0100007F')).toBe('127.0.0.1');
    expect(decodeProcNetAddress('3500007F')).toBe('127.0.0.53');
    expect(decodeProcNetAddress('7F000001', false)).toBe('127.0.0.1');
    expect(decodeProcNetAddress('00000000000000000000000001000000')).toBe('::1');
    expect(decodeProcNetAddress('00000000000000000000000000000000')).toBe('::');
    expect(decodeProcNetAddress('0000000000000000FFFF00000100007F')).toBe('::ffff:127.0.0.1');
    expect(decodeProcNetAddress('000080FE00000000000000000100000A')).toBe('fe80::a00:1');
    expect(() => decodeProcNetAddress('123')).toThrow('is not a /proc/net address');
  });

  it('parses rows: address, port, state, uid, inode; skips the header', () => {
    expect(parseProcNetLine('   sl  local_address rem_address   st')).toBeNull();
    expect(parseProcNet(UDP)).toEqual([
      { localAddress: '127.0.0.53', localPort: 53, remoteAddress: '0.0.0.0', remotePort: 0, state: 7, uid: 991, inode: 21543 },
      { localAddress: '0.0.0.0', localPort: 53, remoteAddress: '0.0.0.0', remotePort: 0, state: 7, uid: 0, inode: 30811 },
      { localAddress: '127.0.0.1', localPort: 25354, remoteAddress: '192.168.1.1', remotePort: 53, state: 1, uid: 1000, inode: 14321 },
    ]);
    expect(parseProcNet(TCP6).map((s) => [s.localAddress, s.localPort, s.state, s.inode])).toEqual([
      ['::', 22, 10, 19733],
      ['::1', 631, 10, 24051],
      ['::ffff:127.0.0.1', 8080, 1, 0],
      ['fe80::a00:1', 53, 10, 40001],
    ]);
  });

  it('wildcards cover addresses: 0.0.0.0 holds 127.0.0.1, :: holds everything', () => {
    expect(boundAddressCovers('0.0.0.0', '127.0.0.1')).toBe(true);
    expect(boundAddressCovers('0.0.0.0', '::1')).toBe(false);
    expect(boundAddressCovers('::', '127.0.0.1')).toBe(true);
    expect(boundAddressCovers('::', '::1')).toBe(true);
    expect(boundAddressCovers('::ffff:127.0.0.1', '127.0.0.1')).toBe(true);
    expect(boundAddressCovers('127.0.0.53', '127.0.0.1')).toBe(false);
    expect(boundAddressCovers('::1', '0:0:0:0:0:0:0:1')).toBe(true);
    expect(boundAddressCovers('fe80::a00:1', 'fe80::a00:1%eth0')).toBe(true);
  });
});
