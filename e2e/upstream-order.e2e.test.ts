/**
 * for names outside the cluster the proxy answers what the host's resolver
 * answered before start. Property-style: fast-check generates ordered sets of 1–3 nameservers
 * from a pool of real servers inside the sandbox (dnsmasq instances that answer with different
 * addresses or NXDOMAIN, a SERVFAIL and a REFUSED server, one that drops every query, an address
 * where nothing listens); for each set the oracle is glibc itself (getaddrinfo with a
 * resolv.conf listing that set, glibc-lookup.ts), and the proxy is each engine run directly
 * with the config the product renders for that set (engine-process.ts; one process per case,
 * which is cheaper than a full start/stop and tests the same config file), asked by glibc
 * through a resolv.conf naming only the proxy — what the K2s-owned file does.
 * Cases run in LANES parallel lanes (each lane its own listener address), so the dropped
 * queries' timeouts overlap. The seed is printed; K2S_ORDER_SEED / K2S_ORDER_RUNS override.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertSandbox } from './bed/testbed';
import { startDnsmasq, type DnsmasqServer } from './bed/dnsmasq-server';
import { startRcodeServer, type RcodeServer } from './bed/rcode-server';
import { glibcLookup, answerText, type GlibcAnswer } from './bed/glibc-lookup';
import { startEngine } from './bed/engine-process';
import { engineMissing } from './bed/engines';
import { runCmd } from './bed/run-cmd';
import { queryDns } from '../electron/core/probes/dns-query';
import { clientOptions, upstreamPolicy } from '../shared/upstream-policy';
import type { EngineName, ProxyPlan } from '../shared/types';

/** The resolv.conf options of every generated host: glibc's shortest timeout, two rounds. */
const OPTIONS = ['timeout:1', 'attempts:2'];
const NAME = 'www.ord.test';
const CLUSTER_NAME = 'kubernetes.default.svc.cluster.test';
const KUBE_DNS = '198.18.0.20';
const RUNS = Number(process.env.K2S_ORDER_RUNS ?? 200);
const SEED = Number(process.env.K2S_ORDER_SEED ?? Date.now() % 2_147_483_647);
const LANES = 12;
/** Names only the first nameserver knows (corporate DNS first, public second: AdGuardHome#1215, dnsproxy#249). */
const INTERNAL = Array.from({ length: 20 }, (_, i) => `host${i + 1}.corp.ord.test`);

/** The server pool: address → what it does. */
const POOL = {
  '198.18.0.1': 'A 203.0.113.1',
  '198.18.0.2': 'A 203.0.113.2',
  '198.18.0.3': 'A 203.0.113.3',
  '198.18.0.4': 'NXDOMAIN',
  '198.18.0.5': 'NXDOMAIN',
  '198.18.0.6': 'SERVFAIL',
  '198.18.0.7': 'REFUSED',
  '198.18.0.8': 'drop',
  '198.18.0.9': 'nothing listening',
} as const;
type PoolAddress = keyof typeof POOL;
const ADDRESSES = Object.keys(POOL) as PoolAddress[];

/** Ordered nameserver sets of 1–3 distinct pool servers; the dropping server is rarer (each costs a timeout). */
const setArb = fc.uniqueArray(
  fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...ADDRESSES.filter((a) => POOL[a] !== 'drop')) }, { weight: 1, arbitrary: fc.constant<PoolAddress>('198.18.0.8') }),
  { minLength: 1, maxLength: 3 },
);

const resolvConf = (servers: string[]) => `${servers.map((s) => `nameserver ${s}`).join('\n')}\noptions ${OPTIONS.join(' ')}\n`;

function planFor(engine: EngineName, listener: string, servers: string[]): ProxyPlan {
  const policy = upstreamPolicy({ options: OPTIONS });
  return {
    engine,
    listeners: [{ address: listener, port: 53 }],
    zones: [{ zone: 'cluster.test', upstream: KUBE_DNS, source: 'corefile', reason: 'test cluster zone', clusterDomain: true, reverse: false }],
    upstreams: servers,
    clusterCidrs: [],
    logFile: '/var/log/unused.log',
    timeoutMs: policy.timeoutMs,
    order: policy.order,
    verbose: false,
  };
}

interface Outcome {
  servers: string[];
  glibc: string;
  adguard?: string;
  dnsmasq?: string;
}

describe('upstream order and failover equal glibc', () => {
  const servers: { stop(): Promise<void> }[] = [];
  const added: string[] = [];
  let engines: EngineName[] = [];
  /** glibc's answer with each pool server alone (the AdGuard model below). */
  const alone = new Map<PoolAddress, string>();

  beforeAll(async () => {
    await assertSandbox();
    engines = (await engineMissing('dnsproxy')) ? ['dnsmasq'] : ['adguard', 'dnsmasq'];
    if (!engines.includes('adguard')) console.warn(`skipped: AdGuard dnsproxy in the order property (${await engineMissing('dnsproxy')})`);
    for (const a of [...ADDRESSES, KUBE_DNS]) {
      await runCmd('ip', ['addr', 'add', `${a}/32`, 'dev', 'lo']);
      added.push(a);
    }
    await runCmd('ip', ['link', 'set', 'lo', 'up']);
    for (const [address, what] of Object.entries(POOL) as [PoolAddress, string][]) {
      if (what.startsWith('A ')) {
        // The first answering server also knows the 20 internal names of the replay below.
        const internal: [string, string][] = address === '198.18.0.1' ? INTERNAL.map((n, i) => [n, `10.20.0.${i + 1}`]) : [];
        servers.push(await startDnsmasq({ listenAddress: address, port: 53, records: { localZones: ['#'], hosts: [[NAME, what.slice(2)], ...internal] }, localTtl: 0 }));
      } else if (what === 'NXDOMAIN') {
        servers.push(await startDnsmasq({ listenAddress: address, port: 53, records: { localZones: ['#'] }, localTtl: 0 }));
      } else if (what === 'SERVFAIL' || what === 'REFUSED' || what === 'drop') {
        servers.push(await startRcodeServer(address, 53, what));
      }
    }
    await Promise.all(ADDRESSES.map(async (a) => alone.set(a, answerText(await glibcLookup(resolvConf([a]), NAME)))));
    servers.push(await startDnsmasq({ listenAddress: KUBE_DNS, port: 53, records: { localZones: ['cluster.test'], hosts: [[CLUSTER_NAME, '172.21.0.1']] }, localTtl: 0 }));
  }, 60_000);

  afterAll(async () => {
    for (const s of servers.reverse()) await s.stop();
    for (const a of added) await runCmd('ip', ['addr', 'del', `${a}/32`, 'dev', 'lo']).catch(() => undefined);
  });

  it(`the answer through each engine equals glibc's for ${RUNS} generated nameserver sets (seed ${SEED})`, async () => {
    const cases = fc.sample(setArb, { seed: SEED, numRuns: RUNS });
    const outcomes: Outcome[] = [];
    const started = Date.now();
    let next = 0;
    const lane = async (i: number) => {
      for (;;) {
        const n = next++;
        if (n >= cases.length) return;
        const set = cases[n]!;
        const o: Outcome = { servers: set, glibc: '' };
        await Promise.all([
          glibcLookup(resolvConf(set), NAME).then((a: GlibcAnswer) => (o.glibc = answerText(a))),
          ...engines.map(async (engine, e) => {
            const listener = `127.0.${e + 1}.${10 + i}`;
            const proc = await startEngine(planFor(engine, listener, set), CLUSTER_NAME);
            try {
              // What the K2s-owned resolv.conf says (start.ts: clientOptions).
              const client = `nameserver ${listener}\noptions ${clientOptions(OPTIONS, set.length).join(' ')}\n`;
              o[engine] = answerText(await glibcLookup(client, NAME));
              if (n % 20 === 0) expect(answerText(await glibcLookup(client, CLUSTER_NAME)), `${CLUSTER_NAME} through ${engine}`).toBe('172.21.0.1');
            } finally {
              await proc.stop();
            }
          }),
        ]);
        outcomes.push(o);
      }
    };
    await Promise.all(Array.from({ length: LANES }, (_, i) => lane(i)));
    const seconds = (Date.now() - started) / 1000;
    const label = (s: string[]) => s.map((a) => `${a} (${POOL[a as PoolAddress]})`).join(', ');
    for (const engine of engines) {
      const bad = outcomes.filter((o) => o[engine] !== o.glibc);
      console.log(`${engine}: ${outcomes.length - bad.length}/${outcomes.length} generated sets answered as glibc (seed ${SEED}, ${seconds.toFixed(1)} s for all engines)`);
      for (const b of bad.slice(0, 15)) console.log(`  ${engine} differs for [${label(b.servers)}]: glibc ${b.glibc}, proxy ${b[engine]}`);
    }
    // dnsmasq (strict-order): glibc's answer, always.
    if (engines.includes('dnsmasq')) {
      expect(outcomes.filter((o) => o.dnsmasq !== o.glibc).map((o) => `[${label(o.servers)}] glibc ${o.glibc}, dnsmasq ${o.dnsmasq}`)).toEqual([]);
    }
    // AdGuard dnsproxy v0.83.1 (upstream = first, fallback = the rest): the first server's answer
    // whatever its rcode (SERVFAIL/REFUSED included: dnsproxy fails over only when an upstream
    // gives no reply, proxy/proxy.go replyFromUpstream); when it is silent, the reply of one of
    // the others asked together (upstream.ExchangeParallel: the first reply wins); none: SERVFAIL.
    if (engines.includes('adguard')) {
      const what = (a: string) => POOL[a as PoolAddress];
      const replies = (a: string) => what(a) !== 'drop' && what(a) !== 'nothing listening';
      const rules = (set: string[]): string[] => {
        if (replies(set[0]!)) return [alone.get(set[0] as PoolAddress)!];
        const others = set.slice(1).filter(replies);
        return others.length === 0 ? ['EAI_AGAIN'] : [...new Set(others.map((a) => alone.get(a as PoolAddress)!))];
      };
      // dnsproxy waits on a dropping server (2 s: it asks twice, upstream/plain.go) before it
      // answers: the first one, or after an unreachable first one when no other one replies.
      const waits = (set: string[]) => what(set[0]!) === 'drop' || (!replies(set[0]!) && !set.slice(1).some(replies) && set.some((a) => what(a) === 'drop'));
      // Meanwhile glibc asks again (`timeout:1`, same socket and ID), and dnsproxy's pending
      // requests (on while the cache is, as K2s ships it) hold the repeat and answer it with a
      // copy of the first question's reply made by miekg/dns SetReply, which resets the rcode to
      // NOERROR (dnsproxy v0.83.1 proxy/pending.go queue; miekg/dns v1.1.72 defaults.go): an
      // NXDOMAIN or SERVFAIL comes back as NOERROR without records too, and when glibc reads that
      // copy first it says EAI_NODATA (glibc res_query: NOERROR and no answer is NO_DATA).
      // Captured on a loaded 2-core machine (tcpdump, dnsproxy -v): [nothing listening, drop]
      // 3 of 60 lookups, [drop, NXDOMAIN] 4 of 48, [drop, SERVFAIL] 3 of 48; never without a wait.
      // The merge itself: the test 'identical questions in flight together' below.
      const allowed = (set: string[]): string[] => {
        const r = rules(set);
        return waits(set) && r.some((a) => a.startsWith('EAI_')) ? [...r, 'EAI_NODATA'] : r;
      };
      expect(outcomes.filter((o) => !allowed(o.servers).includes(o.adguard!)).map((o) => `[${label(o.servers)}] allowed ${allowed(o.servers).join('|')}, adguard ${o.adguard}`)).toEqual([]);
      const same = outcomes.filter((o) => rules(o.servers).length === 1 && rules(o.servers)[0] === o.glibc).length;
      const merged = outcomes.filter((o) => o.adguard === 'EAI_NODATA').length;
      console.log(`adguard: ${same}/${outcomes.length} sets where dnsproxy's rules give exactly glibc's answer; the rest start with a SERVFAIL/REFUSED server or race two disagreeing fallbacks; ${merged} got EAI_NODATA (a merged repeat)`);
    }
  }, 360_000);
  it('replay: 20 internal names with the internal nameserver first and an NXDOMAIN one second resolve 20/20 through each engine (rotate = the old config, for the record)', async () => {
    const set = ['198.18.0.1', '198.18.0.4'];
    for (const engine of engines) {
      for (const order of ['ordered', 'rotate'] as const) {
        const proc = await startEngine({ ...planFor(engine, '127.0.9.1', set), order }, CLUSTER_NAME);
        try {
          const answers = await Promise.all(INTERNAL.map((n) => queryDns({ name: n, type: 'A', server: '127.0.9.1:53', timeoutMs: 5000 })));
          const ok = answers.filter((r, i) => r.answers.some((a) => a.data === `10.20.0.${i + 1}`)).length;
          console.log(`replay ${engine} ${order === 'rotate' ? 'rotate (the config before this change)' : 'ordered'}: ${ok}/20 internal names resolved`);
          if (order === 'ordered') expect(ok, engine).toBe(20);
        } finally {
          await proc.stop();
        }
      }
    }
  }, 120_000);

  it('identical questions in flight together: AdGuard answers the repeats NOERROR without records (why the order property allows EAI_NODATA after a wait)', async () => {
    // 8 clients ask at once while dnsproxy waits on a dropping fallback (2 s). The first question
    // gets SERVFAIL; the others, held by pending requests, a copy with the rcode reset (see the
    // property above). When a dnsproxy update stops doing this, this fails: then drop EAI_NODATA
    // from the property's allowed answers.
    if (!engines.includes('adguard')) return;
    const proc = await startEngine(planFor('adguard', '127.0.9.3', ['198.18.0.9', '198.18.0.8']), CLUSTER_NAME);
    try {
      // recheckBare: false, or queryDns would ask a bare NOERROR again on its own (dns-query.ts).
      const replies = await Promise.all(Array.from({ length: 8 }, () => queryDns({ name: NAME, type: 'A', server: '127.0.9.3:53', timeoutMs: 10_000, recheckBare: false })));
      const seen = replies.map((r) => `${r.rcode} ${r.answers.length}`);
      console.log(`adguard, 8 identical questions at once: ${seen.join(', ')}`);
      expect(seen.filter((x) => x !== 'SERVFAIL 0' && x !== 'NOERROR 0'), seen.join(', ')).toEqual([]);
      expect(seen, 'no repeat was merged').toContain('NOERROR 0');
      expect(seen, 'no question got the SERVFAIL').toContain('SERVFAIL 0');
    } finally {
      await proc.stop();
    }
  }, 60_000);

  it('a cluster zone whose kube-dns is silent gets SERVFAIL, never the NXDOMAIN of a fallback nameserver', async () => {
    for (const engine of engines) {
      const plan = planFor(engine, '127.0.9.2', ['198.18.0.4', '198.18.0.1']);
      // Ready through the default upstream (NXDOMAIN counts), since the zone's server is silent.
      const proc = await startEngine({ ...plan, zones: [{ ...plan.zones[0]!, upstream: '198.18.0.8' }] }, NAME);
      try {
        const r = await queryDns({ name: CLUSTER_NAME, type: 'A', server: '127.0.9.2:53', timeoutMs: 3000 });
        expect(r.rcode === 'SERVFAIL' || r.rcode === 'TIMEOUT', `${engine}: ${r.rcode}`).toBe(true);
      } finally {
        await proc.stop();
      }
    }
  }, 60_000);
});
