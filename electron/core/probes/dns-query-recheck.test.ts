import dgram from 'node:dgram';
import * as dnsPacket from 'dns-packet';
import { afterEach, describe, expect, it } from 'vitest';
import { isBareNoerror, queryDns } from './dns-query';
import { recheckWords } from '../../../shared/health';

/** A UDP server on 127.0.0.1 answering each query with `reply(query, n)` (n: 0-based count); records every query. */
async function scripted(reply: (q: dnsPacket.DecodedPacket, n: number) => (Partial<dnsPacket.Packet> & { rcode?: string }) | null): Promise<{ server: string; seen: dnsPacket.DecodedPacket[]; close(): void }> {
  const socket = dgram.createSocket('udp4');
  const seen: dnsPacket.DecodedPacket[] = [];
  socket.on('message', (msg, rinfo) => {
    const q = dnsPacket.decode(msg);
    const n = seen.push(q) - 1;
    const r = reply(q, n);
    if (!r) return; // silent
    const flags = (q.flags ?? 0) & dnsPacket.RECURSION_DESIRED;
    const rcode = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 }[r.rcode ?? 'NOERROR'] ?? 0;
    socket.send(dnsPacket.encode({ type: 'response', id: q.id, flags: flags | dnsPacket.RECURSION_AVAILABLE | rcode, questions: q.questions, answers: r.answers ?? [], authorities: r.authorities ?? [] }), rinfo.port, rinfo.address);
  });
  await new Promise<void>((res) => socket.bind(0, '127.0.0.1', res));
  return { server: `127.0.0.1:${socket.address().port}`, seen, close: () => socket.close() };
}

const SOA = { type: 'SOA' as const, name: 'cluster.local', ttl: 5, data: { mname: 'ns.dns.cluster.local', rname: 'hostmaster.cluster.local', serial: 1, refresh: 7200, retry: 1800, expire: 86400, minimum: 5 } };

describe('queryDns: a bare NOERROR (no record, no SOA) is asked again with CD', () => {
  let close: (() => void) | undefined;
  afterEach(() => {
    close?.();
    close = undefined;
  });

  it('isBareNoerror: NOERROR without records or SOA only', () => {
    expect(isBareNoerror({ rcode: 'NOERROR', answers: [], authorities: [] })).toBe(true);
    expect(isBareNoerror({ rcode: 'NOERROR', answers: [{ type: 'OPT', name: '.', options: [] } as never], authorities: [] })).toBe(true);
    expect(isBareNoerror({ rcode: 'NOERROR', answers: [], authorities: [SOA] })).toBe(false);
    expect(isBareNoerror({ rcode: 'NOERROR', answers: [{ type: 'A', name: 'a', data: '1.2.3.4' }], authorities: [] })).toBe(false);
    expect(isBareNoerror({ rcode: 'SERVFAIL', answers: [], authorities: [] })).toBe(false);
  });

  it("dnsproxy's merged copy of a SERVFAIL, then SERVFAIL alone: the result is SERVFAIL, recheck names the first reply", async () => {
    const s = await scripted((_q, n) => (n === 0 ? {} : { rcode: 'SERVFAIL' }));
    close = s.close;
    const r = await queryDns({ name: 'kubernetes.default.svc.cluster.local', type: 'A', server: s.server });
    expect(r.rcode).toBe('SERVFAIL');
    expect(r.answers).toEqual([]);
    expect(r.recheck?.rcode).toBe('NOERROR');
    expect(s.seen).toHaveLength(2);
    // The second question carries CD (dnsproxy neither merges nor caches it) and RD as before, under another ID.
    expect((s.seen[1]!.flags ?? 0) & dnsPacket.CHECKING_DISABLED).toBe(dnsPacket.CHECKING_DISABLED);
    expect((s.seen[1]!.flags ?? 0) & dnsPacket.RECURSION_DESIRED).toBe(dnsPacket.RECURSION_DESIRED);
    expect((s.seen[0]!.flags ?? 0) & dnsPacket.CHECKING_DISABLED).toBe(0);
    expect(s.seen[1]!.id).not.toBe(s.seen[0]!.id);
    expect(recheckWords(r)).toMatch(/^the first reply \(in \d+ ms\) was NOERROR with no record and no SOA, .*asked again on its own \(CD bit: not merged, not from the cache\): SERVFAIL$/);
  });

  it('a bare NOERROR that stays bare: the first result, no recheck', async () => {
    const s = await scripted(() => ({}));
    close = s.close;
    const r = await queryDns({ name: 'web.demo.svc.cluster.local', type: 'AAAA', server: s.server });
    expect(r).toMatchObject({ rcode: 'NOERROR', answers: [] });
    expect(r.recheck).toBeUndefined();
    expect(s.seen).toHaveLength(2);
  });

  it('a NODATA with its SOA, an answer, NXDOMAIN: asked once', async () => {
    for (const reply of [{ authorities: [SOA] }, { answers: [{ type: 'A' as const, name: 'x.cluster.local', ttl: 5, data: '10.0.0.1' }] }, { rcode: 'NXDOMAIN', authorities: [SOA] }]) {
      const s = await scripted(() => reply);
      const r = await queryDns({ name: 'x.cluster.local', type: 'A', server: s.server });
      s.close();
      expect(r.recheck).toBeUndefined();
      expect(s.seen).toHaveLength(1);
    }
  });

  it('recheckBare: false asks once', async () => {
    const s = await scripted((_q, n) => (n === 0 ? {} : { rcode: 'SERVFAIL' }));
    close = s.close;
    const r = await queryDns({ name: 'x.cluster.local', type: 'A', server: s.server, recheckBare: false });
    expect(r.rcode).toBe('NOERROR');
    expect(s.seen).toHaveLength(1);
  });

  it('the second ask gets its own deadline: silent, the result is TIMEOUT and recheck keeps the bare reply', async () => {
    const s = await scripted((_q, n) => (n === 0 ? {} : null));
    close = s.close;
    const r = await queryDns({ name: 'x.cluster.local', type: 'A', server: s.server, timeoutMs: 300 });
    expect(r.rcode).toBe('TIMEOUT');
    expect(r.latencyMs).toBeGreaterThanOrEqual(290);
    expect(r.recheck?.rcode).toBe('NOERROR');
    expect(recheckWords(r)).toMatch(/: no answer in time \(TIMEOUT\)$/);
  });
});
