import { describe, expect, it } from 'vitest';
import * as dnsPacket from 'dns-packet';
import type { Answer } from 'dns-packet';
import { renderAnswer } from './render-answer';

/** Round-trips the records through the wire format so the test sees what a real response decodes to. */
function viaWire(answers: Answer[]): Answer[] {
  const buf = dnsPacket.encode({ type: 'response', id: 1, questions: [], answers });
  return dnsPacket.decode(buf).answers ?? [];
}

describe('renderAnswer', () => {
  it('renders each record type dig-like without trailing dots', () => {
    const got = viaWire([
      { type: 'A', name: 'kubernetes.default.svc.cluster.local', ttl: 30, data: '172.21.0.1' },
      { type: 'AAAA', name: 'web.demo.svc.cluster.local', ttl: 5, data: 'fd00::7' },
      { type: 'PTR', name: '10.0.21.172.in-addr.arpa', ttl: 30, data: 'kube-dns.kube-system.svc.cluster.local' },
      { type: 'CNAME', name: 'www.example.test', ttl: 60, data: 'mirror.example.test' },
      { type: 'MX', name: 'example.test', ttl: 60, data: { preference: 10, exchange: 'mail.example.test' } },
      {
        type: 'SRV',
        name: '_dns._udp.kube-dns.kube-system.svc.cluster.local',
        ttl: 30,
        data: { priority: 0, weight: 100, port: 53, target: 'kube-dns.kube-system.svc.cluster.local' },
      },
      { type: 'TXT', name: 'example.test', ttl: 60, data: ['v=spf1 -all', 'say "hi"\\'] },
      {
        type: 'SOA',
        name: 'cluster.local',
        ttl: 30,
        data: {
          mname: 'ns.dns.cluster.local',
          rname: 'hostmaster.cluster.local',
          serial: 1700000000,
          refresh: 7200,
          retry: 1800,
          expire: 86400,
          minimum: 30,
        },
      },
    ]).map(renderAnswer);
    expect(got).toEqual([
      { name: 'kubernetes.default.svc.cluster.local', type: 'A', ttl: 30, data: '172.21.0.1' },
      { name: 'web.demo.svc.cluster.local', type: 'AAAA', ttl: 5, data: 'fd00::7' },
      { name: '10.0.21.172.in-addr.arpa', type: 'PTR', ttl: 30, data: 'kube-dns.kube-system.svc.cluster.local' },
      { name: 'www.example.test', type: 'CNAME', ttl: 60, data: 'mirror.example.test' },
      { name: 'example.test', type: 'MX', ttl: 60, data: '10 mail.example.test' },
      {
        name: '_dns._udp.kube-dns.kube-system.svc.cluster.local',
        type: 'SRV',
        ttl: 30,
        data: '0 100 53 kube-dns.kube-system.svc.cluster.local',
      },
      { name: 'example.test', type: 'TXT', ttl: 60, data: '"v=spf1 -all" "say \\"hi\\"\\\\"' },
      {
        name: 'cluster.local',
        type: 'SOA',
        ttl: 30,
        data: 'ns.dns.cluster.local hostmaster.cluster.local 1700000000 7200 1800 86400 30',
      },
    ]);
  });

  it('renders unknown types in the RFC 3597 generic form', () => {
    const [rec] = viaWire([{ type: 'NULL', name: 'x.test', ttl: 1, data: Buffer.from([0xde, 0xad]) }]);
    expect(renderAnswer(rec!)).toEqual({ name: 'x.test', type: 'NULL', ttl: 1, data: '\\# 2 dead' });
  });
});
