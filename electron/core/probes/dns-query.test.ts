import dgram from 'node:dgram';
import net from 'node:net';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DNSMASQ_BIN, startDnsmasq, type DnsmasqServer } from '../../../e2e/bed/dnsmasq-server';
import { queryDns, socketErrorText } from './dns-query';

const haveDnsmasq = existsSync(DNSMASQ_BIN);
if (!haveDnsmasq) console.warn(`skipped: ${DNSMASQ_BIN} is missing (apt-get install dnsmasq-base)`);

describe.skipIf(!haveDnsmasq)('queryDns against a real dnsmasq on 127.0.0.1', () => {
  let dns: DnsmasqServer;
  beforeAll(async () => {
    dns = await startDnsmasq({
      listenAddress: '127.0.0.1',
      localTtl: 30,
      records: {
        localZones: ['cluster.local', '21.172.in-addr.arpa'],
        hosts: [
          ['kubernetes.default.svc.cluster.local', '172.21.0.1'],
          ['kube-dns.kube-system.svc.cluster.local', '172.21.0.10'],
          ['web.demo.svc.cluster.local', 'fd00::7'],
        ],
        txts: [['txt.cluster.local', ['hello world', 'two']]],
        srvs: [
          {
            name: '_dns._udp.kube-dns.kube-system.svc.cluster.local',
            target: 'kube-dns.kube-system.svc.cluster.local',
            port: 53,
            priority: 0,
            weight: 100,
          },
        ],
        mxs: [{ name: 'cluster.local', exchange: 'mail.cluster.local', preference: 10 }],
      },
    });
  });
  afterAll(async () => {
    await dns?.stop();
  });

  it('answers an A record over UDP with address and TTL', async () => {
    const r = await queryDns({ name: 'kubernetes.default.svc.cluster.local', type: 'A', server: dns.server });
    expect(r).toMatchObject({
      name: 'kubernetes.default.svc.cluster.local',
      type: 'A',
      server: `127.0.0.1:${dns.port}`,
      transport: 'udp',
      rcode: 'NOERROR',
      answers: [{ name: 'kubernetes.default.svc.cluster.local', type: 'A', ttl: 30, data: '172.21.0.1' }],
    });
    expect(r.error).toBeUndefined();
    expect(r.latencyMs).toBeGreaterThan(0);
    expect(r.latencyMs).toBeLessThan(2000);
  });

  it('answers over TCP with the 2-byte length prefix', async () => {
    const r = await queryDns({ name: 'KUBE-DNS.kube-system.svc.cluster.local.', type: 'A', server: dns.server, transport: 'tcp' });
    expect(r.transport).toBe('tcp');
    expect(r.rcode).toBe('NOERROR');
    expect(r.name).toBe('kube-dns.kube-system.svc.cluster.local');
    expect(r.answers.map((a) => a.data)).toEqual(['172.21.0.10']);
  });

  it('reports NXDOMAIN for an unknown name in a local zone', async () => {
    const r = await queryDns({ name: 'nope.cluster.local', type: 'A', server: dns.server });
    expect(r.rcode).toBe('NXDOMAIN');
    expect(r.answers).toEqual([]);
  });

  it('turns an IP into its PTR name and renders the target', async () => {
    const r = await queryDns({ name: '172.21.0.10', type: 'PTR', server: dns.server });
    expect(r.name).toBe('10.0.21.172.in-addr.arpa');
    expect(r.rcode).toBe('NOERROR');
    expect(r.answers).toEqual([
      { name: '10.0.21.172.in-addr.arpa', type: 'PTR', ttl: 30, data: 'kube-dns.kube-system.svc.cluster.local' },
    ]);
  });

  it('renders AAAA, SRV, TXT and MX', async () => {
    const q = (name: string, type: 'AAAA' | 'SRV' | 'TXT' | 'MX') => queryDns({ name, type, server: dns.server });
    expect((await q('web.demo.svc.cluster.local', 'AAAA')).answers[0]?.data).toBe('fd00::7');
    expect((await q('_dns._udp.kube-dns.kube-system.svc.cluster.local', 'SRV')).answers[0]?.data).toBe(
      '0 100 53 kube-dns.kube-system.svc.cluster.local',
    );
    expect((await q('txt.cluster.local', 'TXT')).answers[0]?.data).toBe('"hello world" "two"');
    expect((await q('cluster.local', 'MX')).answers[0]?.data).toBe('10 mail.cluster.local');
  });

  it('gets REFUSED for a name outside its zones (no upstreams configured)', async () => {
    const r = await queryDns({ name: 'www.example.test', type: 'A', server: dns.server });
    expect(r.rcode).toBe('REFUSED');
  });
});

describe('queryDns without an answer', () => {
  it('returns TIMEOUT (never throws) when a bound UDP socket never answers', async () => {
    const silent = dgram.createSocket('udp4');
    await new Promise<void>((res) => silent.bind(0, '127.0.0.1', () => res()));
    let received = 0;
    silent.on('message', () => received++);
    const port = silent.address().port;
    const r = await queryDns({ name: 'kubernetes.default.svc.cluster.local', type: 'A', server: `127.0.0.1:${port}`, timeoutMs: 300 });
    silent.close();
    expect(r.rcode).toBe('TIMEOUT');
    expect(r.error).toBe(`no answer from 127.0.0.1:${port} over UDP`);
    expect(r.answers).toEqual([]);
    expect(received).toBe(1);
    expect(r.latencyMs).toBeGreaterThanOrEqual(290);
    expect(r.latencyMs).toBeLessThan(1500);
  });

  it('ignores a reply with the wrong ID and still times out', async () => {
    const liar = dgram.createSocket('udp4');
    await new Promise<void>((res) => liar.bind(0, '127.0.0.1', () => res()));
    liar.on('message', (msg, rinfo) => {
      const forged = Buffer.from(msg);
      forged.writeUInt16BE((msg.readUInt16BE(0) + 1) & 0xffff, 0); // wrong ID
      forged[2] = (forged[2] ?? 0) | 0x80; // QR: response
      liar.send(forged, rinfo.port, rinfo.address);
    });
    const r = await queryDns({ name: 'x.test', type: 'A', server: `127.0.0.1:${liar.address().port}`, timeoutMs: 300 });
    liar.close();
    expect(r.rcode).toBe('TIMEOUT');
  });

  it('returns ERROR when TCP is refused', async () => {
    // Take a free port, then close it so nobody listens there.
    const srv = net.createServer();
    await new Promise<void>((res) => srv.listen(0, '127.0.0.1', () => res()));
    const port = (srv.address() as net.AddressInfo).port;
    await new Promise<void>((res) => srv.close(() => res()));
    const r = await queryDns({ name: 'x.test', type: 'A', server: `127.0.0.1:${port}`, transport: 'tcp', timeoutMs: 1000 });
    expect(r.rcode).toBe('ERROR');
    expect(r.error).toContain('ECONNREFUSED');
  });

  it('mend30: a socket error names the server as [addr]:port (Node writes `fe80::1:53`) with its errno: connect(2) of a link-local address without its interface is EINVAL', async () => {
    const r = await queryDns({ name: 'x.test', type: 'A', server: '[fe80::1]:5353', timeoutMs: 1000 });
    expect(r.rcode).toBe('ERROR');
    expect(r.error).toBe('connect EINVAL [fe80::1]:5353');
  });

  it('socketErrorText: syscall, errno and [addr]:port; Node\'s message when it has no code', () => {
    const e = Object.assign(new Error('connect EADDRNOTAVAIL fd00::53:53'), { code: 'EADDRNOTAVAIL', syscall: 'connect' });
    expect(socketErrorText(e, { address: 'fd00::53', port: 53 })).toBe('connect EADDRNOTAVAIL [fd00::53]:53');
    expect(socketErrorText(Object.assign(new Error('send ENETUNREACH 192.0.2.53:53'), { code: 'ENETUNREACH', syscall: 'send' }), { address: '192.0.2.53', port: 53 })).toBe('send ENETUNREACH 192.0.2.53:53');
    expect(socketErrorText(new Error('odd'), { address: 'fd00::53', port: 53 })).toBe('odd');
  });

  it('throws for a server that is not an IP endpoint', async () => {
    await expect(queryDns({ name: 'x.test', type: 'A', server: 'dns.example.test' })).rejects.toThrow('is not an IP address');
  });
});
