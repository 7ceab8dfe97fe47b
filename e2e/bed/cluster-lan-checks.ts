/**
 * The queries every lifecycle case (and the KubeSwitch worker) makes through the running K2s
 * proxy, with proof of which server answered:
 *   - an external name answers from the original nameserver (TTL 60 there; CoreDNS's
 *     `cache 30` would cap it at 30),
 *   - a cluster PTR reaches CoreDNS (TTL 30 = the Corefile's `ttl 30`; CoreDNS's own
 *     coredns_dns_requests_total{type="PTR"} counter goes up),
 *   - a LAN PTR (192.168.1.20, private, outside the cluster CIDRs: dnsproxy ≥ v0.68's
 *     private-rDNS path, docs/engines.md "Private PTR") reaches the original nameserver and NOT CoreDNS
 *     (TTL 60; the counter stays put).
 */
import http from 'node:http';
import { expect } from 'vitest';
import { queryDns } from '../../electron/core/probes/dns-query';
import type { Testbed, Worker } from './testbed';

/** The part of queryDns's result the checks read. */
export interface CheckAnswer {
  rcode: string;
  answers: { data: string; ttl: number | null }[];
}
/** A query function: queryDns itself, or digIn(worker) for queries from another namespace. */
export type CheckQuery = (q: { name: string; type: 'A' | 'PTR'; server: string; transport: 'udp' | 'tcp' }) => Promise<CheckAnswer>;

/**
 * Parses `dig +noall +comments +answer` output: the header's `status:` and the answer
 * records (`NAME TTL CLASS TYPE DATA…`, data without the trailing dot, as queryDns gives it).
 */
export function parseDig(out: string): CheckAnswer {
  const rcode = /status: ([A-Z]+)/.exec(out)?.[1] ?? 'TIMEOUT';
  const answers = out
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith(';'))
    .map((l) => {
      const [, ttl, , , ...data] = l.trim().split(/\s+/);
      return { ttl: Number(ttl), data: data.join(' ').replace(/\.$/, '') };
    });
  return { rcode, answers };
}

/** A CheckQuery that runs dig(1) inside the worker's namespace (2 s, one try). */
export function digIn(worker: Worker): CheckQuery {
  return async ({ name, type, server, transport }) => {
    const q = type === 'PTR' ? ['-x', name] : [name, type];
    const args = ['+noall', '+comments', '+answer', '+time=2', '+tries=1', ...(transport === 'tcp' ? ['+tcp'] : []), `@${server}`, ...q];
    return parseDig(await worker.exec('dig', args).catch((e: Error) => e.message));
  };
}

/** Sum of CoreDNS's `coredns_dns_requests_total` for qtype `type` (prometheus plugin on :9153), or null for the stand-in. */
export async function coreDnsRequests(tb: Testbed, type: string): Promise<number | null> {
  if (tb.kubeDnsKind !== 'coredns') return null;
  const text = await new Promise<string>((resolve, reject) => {
    const req = http.get({ host: tb.addresses.kubeDns, port: 9153, path: '/metrics', timeout: 5000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve(body));
    });
    req.on('timeout', () => req.destroy(new Error('CoreDNS metrics did not answer within 5 s')));
    req.on('error', reject);
  });
  return text
    .split('\n')
    .filter((l) => l.startsWith('coredns_dns_requests_total{') && l.includes(`type="${type}"`))
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}

/**
 * CoreDNS's request count for qtype `type` once it is at least `atLeast`, or the count at the
 * deadline (`withinMs`), for the caller's assertion. CoreDNS counts a request only when its
 * plugin chain returns (plugin/metrics/handler.go calls vars.Report after NextOrFailure, CoreDNS
 * 1.12.4), so a query still in flight inside CoreDNS — a loop copy waiting on its forward while
 * the proxy already gave up — is not counted yet at the moment the client has its answer.
 */
export async function coreDnsRequestsReaching(tb: Testbed, type: string, atLeast: number, withinMs = 20_000): Promise<number | null> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const n = await coreDnsRequests(tb, type);
    if (n === null || n >= atLeast || Date.now() >= deadline) return n;
    // Polls the counter (the condition itself), every 100 ms.
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Runs the checks above against `server` (`IP` or `IP:PORT`) over `transport`. `clusterPtr`
 * is a ClusterIP with a PTR (default kube-dns's 172.21.0.10); pick another one for a second
 * call on the same running proxy so its cache cannot hide the trip to CoreDNS.
 */
export async function clusterLanChecks(
  tb: Testbed,
  server: string,
  transport: 'udp' | 'tcp',
  clusterPtr = '172.21.0.10',
  query: CheckQuery = queryDns,
): Promise<void> {
  const names: Record<string, string> = {
    '172.21.0.10': 'kube-dns.kube-system.svc.cluster.local',
    '172.21.0.1': 'kubernetes.default.svc.cluster.local',
    '172.21.14.7': 'web.demo.svc.cluster.local',
  };
  const external = await query({ name: 'www.example.test', type: 'A', server, transport });
  expect(external.answers.map((a) => a.data)).toEqual(['198.51.100.7']);
  expect(external.answers[0]!.ttl).toBeGreaterThan(30);

  const before = await coreDnsRequests(tb, 'PTR');
  const ptr = await query({ name: clusterPtr, type: 'PTR', server, transport });
  expect(ptr.rcode, `cluster PTR ${clusterPtr} via ${server}/${transport}`).toBe('NOERROR');
  expect(ptr.answers.map((a) => a.data)).toEqual([names[clusterPtr]]);
  expect(ptr.answers[0]!.ttl).toBeLessThanOrEqual(30);
  // CoreDNS's prometheus plugin counts a request after its reply is written, so a scrape right
  // after the answer can still see the old count: poll (bounded) until the count moves.
  let afterCluster = await coreDnsRequests(tb, 'PTR');
  for (const deadline = Date.now() + 5000; before !== null && afterCluster === before && Date.now() < deadline; ) {
    await new Promise((r) => setTimeout(r, 50));
    afterCluster = await coreDnsRequests(tb, 'PTR');
  }
  if (before !== null) expect(afterCluster).toBe(before + 1);

  const lan = await query({ name: tb.addresses.lanPrinter, type: 'PTR', server, transport });
  expect(lan.rcode, `LAN PTR ${tb.addresses.lanPrinter} via ${server}/${transport}`).toBe('NOERROR');
  expect(lan.answers.map((a) => a.data)).toEqual(['printer.example.test']);
  expect(lan.answers[0]!.ttl).toBeGreaterThan(30);
  if (afterCluster !== null) expect(await coreDnsRequests(tb, 'PTR')).toBe(afterCluster);
}
