/**
 * an answer over 512 bytes to a UDP client without EDNS (RFC 1035 §4.2.1, RFC 6891
 * §6.2.3) must come back truncated with the TC bit set, so the client retries over TCP — from
 * both engines, for the first answer (from the upstream) and the cached one. dnsproxy v0.83.1
 * truncates in proxy/dnscontext.go scrub() (miekg/dns Msg.Truncate to 512 without OPT);
 * dnsmasq truncates to 512 for clients without EDNS (dnsmasq(8) --edns-packet-max is for EDNS).
 * The upstream is a dnsmasq with 60 A records on one name (~1 KB); the engines run directly
 * with the product's config (engine-process.ts).
 */
import dgram from 'node:dgram';
import * as dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertSandbox } from './bed/testbed';
import { startDnsmasq, type DnsmasqServer } from './bed/dnsmasq-server';
import { startEngine } from './bed/engine-process';
import { engineMissing } from './bed/engines';
import { runCmd } from './bed/run-cmd';
import { queryDns } from '../electron/core/probes/dns-query';
import type { EngineName } from '../shared/types';

const UPSTREAM = '198.18.1.1';
const KUBE_DNS = '198.18.1.2';
const BIG = 'big.trunc.test';
const ADDRESSES = Array.from({ length: 60 }, (_, i) => `10.30.${Math.floor(i / 250)}.${(i % 250) + 1}`);

/** One plain UDP query without OPT; resolves to the raw reply's size, TC bit and answer count. */
function rawUdp(server: string, name: string): Promise<{ bytes: number; tc: boolean; answers: number }> {
  return new Promise((resolve, reject) => {
    const sock = dgram.createSocket('udp4');
    const id = Math.floor(Math.random() * 65535);
    const t = setTimeout(() => (sock.close(), reject(new Error(`no UDP reply from ${server} within 5 s`))), 5000);
    sock.on('message', (msg) => {
      const p = dnsPacket.decode(msg);
      if (p.id !== id) return;
      clearTimeout(t);
      sock.close();
      resolve({ bytes: msg.length, tc: p.flag_tc ?? false, answers: p.answers?.length ?? 0 });
    });
    sock.send(dnsPacket.encode({ type: 'query', id, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: 'A', name }] }), 53, server);
  });
}

describe('TC bit for oversized UDP answers to clients without EDNS', () => {
  const servers: DnsmasqServer[] = [];
  beforeAll(async () => {
    await assertSandbox();
    for (const a of [UPSTREAM, KUBE_DNS]) await runCmd('ip', ['addr', 'add', `${a}/32`, 'dev', 'lo']);
    await runCmd('ip', ['link', 'set', 'lo', 'up']);
    servers.push(await startDnsmasq({ listenAddress: UPSTREAM, port: 53, records: { localZones: ['#'], hosts: ADDRESSES.map((ip) => [BIG, ip] as [string, string]) }, localTtl: 60 }));
    servers.push(await startDnsmasq({ listenAddress: KUBE_DNS, port: 53, records: { localZones: ['cluster.test'], hosts: [['kubernetes.default.svc.cluster.test', '172.21.0.1']] }, localTtl: 0 }));
  }, 60_000);
  afterAll(async () => {
    for (const s of servers) await s.stop();
    for (const a of [UPSTREAM, KUBE_DNS]) await runCmd('ip', ['addr', 'del', `${a}/32`, 'dev', 'lo']).catch(() => undefined);
  });

  for (const engine of ['adguard', 'dnsmasq'] as EngineName[]) {
    it(`${engine}: ≤ 512 bytes with TC over UDP, the whole answer over TCP`, async (ctx) => {
      if (engine === 'adguard' && (await engineMissing('dnsproxy'))) {
        console.warn(`skipped: ${await engineMissing('dnsproxy')}`);
        ctx.skip();
      }
      const direct = await rawUdp(UPSTREAM, BIG);
      const proc = await startEngine(
        {
          engine,
          listeners: [{ address: '127.0.0.1', port: 53 }],
          zones: [{ zone: 'cluster.test', upstream: KUBE_DNS, source: 'corefile', reason: 'test', clusterDomain: true, reverse: false }],
          upstreams: [UPSTREAM],
          clusterCidrs: [],
          logFile: '/unused',
          timeoutMs: 2000,
          verbose: false,
        },
        'kubernetes.default.svc.cluster.test',
      );
      try {
        const first = await rawUdp('127.0.0.1', BIG);
        const cached = await rawUdp('127.0.0.1', BIG);
        const tcp = await queryDns({ name: BIG, type: 'A', server: '127.0.0.1:53', transport: 'tcp', timeoutMs: 5000 });
        console.log(`${engine}: upstream direct ${direct.bytes} B tc=${direct.tc}; through the proxy first ${first.bytes} B tc=${first.tc} (${first.answers} records), cached ${cached.bytes} B tc=${cached.tc}; TCP ${tcp.answers.length} records`);
        for (const r of [first, cached]) {
          expect(r.bytes).toBeLessThanOrEqual(512);
          expect(r.tc).toBe(true);
        }
        expect(tcp.answers.map((a) => a.data).sort()).toEqual([...ADDRESSES].sort());
      } finally {
        await proc.stop();
      }
    });
  }
});
