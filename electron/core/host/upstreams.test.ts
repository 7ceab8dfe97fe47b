import { describe, expect, it } from 'vitest';
import type { ResolvConf } from '../../../shared/types';
import type { Exec } from './exec';
import { defaultPortOmitted } from './parse-server';
import { parseResolvectlDns, pickUpstreams, readResolvedLinkServers, sameServerKey } from './upstreams';

const conf = (...nameservers: string[]): ResolvConf => ({ nameservers, search: [], options: [], sortlist: [], unknown: [] });
const LISTENERS = [
  { address: '127.0.0.1', port: 53 },
  { address: '172.19.1.1', port: 53 },
];

/** Realistic `resolvectl dns` output (systemd 257, Debian 13) with a DoT SNI and an empty link. */
const RESOLVECTL = `Global: 1.1.1.1#cloudflare-dns.com 9.9.9.9
Link 2 (enp1s0): 192.168.1.1 fe80::1%2
Link 3 (wlp2s0): 192.168.1.1
Link 4 (docker0):
Link 7 (tailscale0): 100.100.100.100
`;

describe('pickUpstreams', () => {
  it('one server however it is spelled: 192.0.2.53, 192.0.2.53:53 and 192.0.2.53:053 are one upstream (the first spelling kept); another port is another server', () => {
    const r = pickUpstreams({ resolvConf: conf('192.0.2.53', '192.0.2.53:53', '192.0.2.53:053', '192.0.2.53:5353', 'FD00::A', '[fd00::a]:53'), listeners: LISTENERS });
    expect(r.upstreams).toEqual(['192.0.2.53', '192.0.2.53:5353', 'FD00::A']);
  });

  it('left28 #4: a server given with port 53 is named as resolv.conf names it (10.0.0.1, fd00::1, fe80::1%eth0); another port is kept as written', () => {
    const r = pickUpstreams({ resolvConf: conf('10.0.0.1:53', '10.0.0.2:5353', '[fd00::1]:53', '[fd00::2]:5353', '[fe80::1%eth0]:53'), listeners: LISTENERS, interfaces: ['eth0'] });
    expect(r.upstreams).toEqual(['10.0.0.1', '10.0.0.2:5353', 'fd00::1', '[fd00::2]:5353', 'fe80::1%eth0']);
    expect(defaultPortOmitted(' 10.0.0.1:053 ')).toBe('10.0.0.1');
    expect(defaultPortOmitted('not a server')).toBe('not a server');
  });

  it('names an IPv4-mapped server as the IPv4 server it reaches (brk30: dnsmasq answered REFUSED through server=::ffff:192.0.2.53)', () => {
    const r = pickUpstreams({ resolvConf: conf('::ffff:192.0.2.53', '[::FFFF:c000:235]:5353', '0:0:0:0:0:ffff:198.51.100.1', '::ffff:192.0.2.53%eth0', 'fd00::ffff:1'), listeners: LISTENERS, interfaces: ['eth0'] });
    expect(r.upstreams).toEqual(['192.0.2.53', '192.0.2.53:5353', '198.51.100.1', '::ffff:192.0.2.53%eth0', 'fd00::ffff:1']);
    // One server with its IPv4 spelling: kept once, as the IPv4 server.
    expect(pickUpstreams({ resolvConf: conf('::ffff:192.0.2.53', '192.0.2.53'), listeners: LISTENERS }).upstreams).toEqual(['192.0.2.53']);
  });

  it('drops our own listeners and keeps order, IPv6 zones and other servers', () => {
    const r = pickUpstreams({ resolvConf: conf('127.0.0.1', '192.168.1.1', 'fe80::1%eth0', '172.19.1.1', '192.168.1.1'), listeners: LISTENERS });
    expect(r.upstreams).toEqual(['192.168.1.1', 'fe80::1%eth0']);
    expect(r.dropped).toEqual([
      { server: '127.0.0.1', listed: '127.0.0.1', kind: 'loop', reason: "it reaches the proxy's own listener 127.0.0.1:53; forwarding there would loop" },
      { server: '172.19.1.1', listed: '172.19.1.1', kind: 'loop', reason: "it reaches the proxy's own listener 172.19.1.1:53; forwarding there would loop" },
    ]);
  });

  it.each(['0.0.0.0', '::', '::ffff:127.0.0.1', '127.0.0.1:53', '[::ffff:127.0.0.1]:53', '0.0.0.0:53', '::ffff:7f00:1', '0:0:0:0:0:ffff:127.0.0.1', '::ffff:0.0.0.0', '0:0:0:0:0:0:0:1'])(
    'treats %s as a loop into the 127.0.0.1:53 listener',
    (server) => {
      const r = pickUpstreams({ resolvConf: conf(server), listeners: [{ address: '127.0.0.1', port: 53 }, { address: '::1', port: 53 }] });
      expect(r.upstreams).toEqual([]);
      expect(r.dropped).toEqual([expect.objectContaining({ server, kind: 'loop' })]);
    },
  );

  it('sees the KubeSwitch address in its IPv4-mapped spelling', () => {
    const r = pickUpstreams({ resolvConf: conf('::ffff:ac13:101'), listeners: [{ address: '172.19.1.1', port: 53 }] });
    expect(r.dropped).toEqual([expect.objectContaining({ kind: 'loop' })]);
  });

  it('keeps 127.0.0.1 on another port and drops link-local servers on interfaces that do not exist', () => {
    const r = pickUpstreams({
      resolvConf: conf('127.0.0.1:5353', 'fe80::1%nosuchif0', 'fe80::2%eth0', 'fe80::3%1', '192.0.2.53'),
      listeners: [{ address: '127.0.0.1', port: 53 }],
      interfaces: ['lo', 'eth0'],
    });
    expect(r.upstreams).toEqual(['127.0.0.1:5353', 'fe80::2%eth0', '192.0.2.53']);
    expect(r.dropped).toEqual([
      { server: 'fe80::1%nosuchif0', listed: 'fe80::1%nosuchif0', kind: 'no-interface', reason: 'its interface nosuchif0 does not exist on this host' },
      { server: 'fe80::3%1', listed: 'fe80::3%1', kind: 'no-interface', reason: 'its scope id %1 is a number; write the interface name (e.g. %eth0)' },
    ]);
  });

  it('replaces the systemd-resolved stub with its link servers', () => {
    const r = pickUpstreams({
      resolvConf: conf('127.0.0.53'),
      listeners: LISTENERS,
      resolvedLinkServers: ['192.168.1.1', 'fe80::1%2', '127.0.0.1'],
    });
    expect(r.upstreams).toEqual(['192.168.1.1', 'fe80::1%2']);
    expect(r.dropped.map((d) => d.server)).toEqual(['127.0.0.53', '127.0.0.1']);
    expect(r.dropped[1]?.reason).toContain('(from resolvectl)');
    // The nameserver line it came from, for messages that name what the file says.
    expect(r.dropped[1]?.listed).toBe('127.0.0.53');
  });

  it('drops the stub with a reason when resolved reports no link servers', () => {
    const r = pickUpstreams({ resolvConf: conf('127.0.0.53', '127.0.0.54'), listeners: LISTENERS });
    expect(r.upstreams).toEqual([]);
    expect(r.dropped.map((d) => d.server)).toEqual(['127.0.0.53', '127.0.0.54']);
  });

  it('the stub in any spelling (IPv4-mapped, with :53) is the stub, not an upstream 127.0.0.53 that resolved forwards back to the proxy', () => {
    const r = pickUpstreams({ resolvConf: conf('::ffff:127.0.0.53', '[::ffff:7f00:36]:53', '127.0.0.53:53', '127.0.0.53:5353'), listeners: LISTENERS, resolvedLinkServers: ['192.168.1.1', '::ffff:127.0.0.54'] });
    expect(r.upstreams).toEqual(['192.168.1.1', '127.0.0.53:5353']);
    expect(r.dropped.map((d) => [d.server, d.kind])).toEqual([
      ['::ffff:127.0.0.53', 'resolved-stub'],
      ['::ffff:127.0.0.54', 'resolved-stub'],
      ['[::ffff:7f00:36]:53', 'resolved-stub'],
      ['::ffff:127.0.0.54', 'resolved-stub'],
      ['127.0.0.53:53', 'resolved-stub'],
      ['::ffff:127.0.0.54', 'resolved-stub'],
    ]);
  });

  it('a wildcard listener on port 53 also catches loopback nameservers; other ports do not loop', () => {
    expect(pickUpstreams({ resolvConf: conf('127.0.1.1', '10.0.0.1'), listeners: [{ address: '0.0.0.0', port: 53 }] }).upstreams).toEqual(['10.0.0.1']);
    expect(pickUpstreams({ resolvConf: conf('127.0.0.1'), listeners: [{ address: '127.0.0.1', port: 5353 }] }).upstreams).toEqual(['127.0.0.1']);
  });
});

describe('pickUpstreams with glibcMaxns (resolv.conf(5) MAXNS)', () => {
  const listeners = [{ address: '127.0.0.1', port: 53 }];
  it('takes the first 3 nameserver lines, loops and stubs counted, and drops the rest as past-maxns', () => {
    const r = pickUpstreams({ resolvConf: conf('127.0.0.1', '192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4'), listeners, glibcMaxns: true });
    expect(r.upstreams).toEqual(['192.0.2.1', '192.0.2.2']);
    expect(r.dropped.map((d) => [d.server, d.kind])).toEqual([['127.0.0.1', 'loop'], ['192.0.2.3', 'past-maxns'], ['192.0.2.4', 'past-maxns']]);
    expect(r.dropped[2]!.reason).toBe('nameserver line 5 of 5: glibc reads only the first 3 (resolv.conf(5) MAXNS), so the host never asked it, and neither does the proxy');
  });
  it('an explicit --upstream list is taken whole', () => {
    const r = pickUpstreams({ resolvConf: conf('192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4'), listeners });
    expect(r.upstreams).toHaveLength(4);
  });
});

describe('resolvectl dns', () => {
  it('parses global and link lines', () => {
    expect(parseResolvectlDns(RESOLVECTL)).toEqual([
      { link: null, servers: ['1.1.1.1', '9.9.9.9'] },
      { link: { index: 2, name: 'enp1s0' }, servers: ['192.168.1.1', 'fe80::1%2'] },
      { link: { index: 3, name: 'wlp2s0' }, servers: ['192.168.1.1'] },
      { link: { index: 4, name: 'docker0' }, servers: [] },
      { link: { index: 7, name: 'tailscale0' }, servers: ['100.100.100.100'] },
    ]);
  });

  it('readResolvedLinkServers: link servers first, then global, deduplicated; [] without resolvectl', async () => {
    const exec: Exec = { run: async (file, args) => ({ code: file === 'resolvectl' && args[0] === 'dns' ? 0 : 1, stdout: RESOLVECTL, stderr: '' }) };
    expect(await readResolvedLinkServers(exec)).toEqual(['192.168.1.1', 'fe80::1%2', '100.100.100.100', '1.1.1.1', '9.9.9.9']);
    const missing: Exec = { run: () => Promise.reject(Object.assign(new Error('spawn resolvectl ENOENT'), { code: 'ENOENT' })) };
    expect(await readResolvedLinkServers(missing)).toEqual([]);
  });
});

describe('sameServerKey', () => {
  it('one IPv6 server however it is spelled (zeros, case, brackets, port 53): one key, the canonical address (RFC 5952)', () => {
    const keys = ['fd00:0::53', 'fd00::53', '[fd00::53]:53', 'FD00:0:0:0:0:0:0:53', '[fd00:0000::0053]'].map(sameServerKey);
    expect(new Set(keys)).toEqual(new Set(['fd00::53|53']));
    // Another port, another zone or another address: another key.
    expect(sameServerKey('[fd00::53]:5353')).toBe('fd00::53|5353');
    expect(sameServerKey('fe80:0::1%eth0')).toBe('fe80::1%eth0|53');
    expect(sameServerKey('fe80::1%eth1')).not.toBe(sameServerKey('fe80::1%eth0'));
    expect(sameServerKey('192.0.2.53')).toBe(sameServerKey('192.0.2.53:53'));
    expect(sameServerKey('not a server')).toBe('not a server');
    // Interface names are case-sensitive on Linux; an IPv4-mapped address is the IPv4 server.
    expect(sameServerKey('FE80::1%ETH0')).toBe('fe80::1%ETH0|53');
    expect(sameServerKey('FE80::1%ETH0')).not.toBe(sameServerKey('fe80::1%eth0'));
    expect(sameServerKey('::ffff:192.0.2.1')).toBe('192.0.2.1|53');
    expect(sameServerKey('[::FFFF:192.0.2.1]:53')).toBe(sameServerKey('192.0.2.1'));
  });

  it('pickUpstreams keeps the first spelling of an IPv6 server once', () => {
    expect(pickUpstreams({ resolvConf: conf('fd00:0::53', '[fd00::53]:53', 'fd00::53', '192.0.2.53'), listeners: [] }).upstreams).toEqual(['fd00:0::53', '192.0.2.53']);
  });
});

