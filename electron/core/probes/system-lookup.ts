import { isIP } from 'node:net';
import { monotonicMs } from './monotonic';
import { nodeExec, type Exec } from '../host/exec';
import type { AnswerRecord, QueryResult, QueryType } from '../../../shared/types';
import { systemTypeRefusal } from '../../../shared/system-resolver-types';

/** Options for systemLookup. */
export interface SystemLookupOptions {
  /** Kill getent after this many ms (default 15000: glibc may retry a dead nameserver, resolv.conf(5) `timeout`×`attempts`). */
  timeoutMs?: number;
}

/**
 * Resolves `name` the way host programs do: getaddrinfo(3) through NSS, run as
 * `getent ahosts NAME` (AF_UNSPEC, so A and AAAA) via the injected Exec. getent exits 0 with
 * addresses (→ NOERROR), 2 when the name is not found (→ NXDOMAIN; glibc reports "no
 * nameserver answered" the same way, getent(1) cannot tell them apart). A killed getent is
 * TIMEOUT; any other exit, or getent missing, is ERROR. Never throws.
 */
export async function systemLookup(name: string, exec: Exec = nodeExec, opts: SystemLookupOptions = {}): Promise<QueryResult> {
  const started = monotonicMs();
  const base = { name, type: 'A' as const, server: 'system', transport: 'getaddrinfo' as const };
  const latency = (): number => Math.round((monotonicMs() - started) * 1000) / 1000;
  // `--` keeps a name starting with `-` from being read as an option.
  const r = await exec.run('getent', ['ahosts', '--', name], { timeoutMs: opts.timeoutMs ?? 15_000 }).catch(
    (err: Error) => ({ code: -1, stdout: '', stderr: err.message }),
  );
  if (r.code === 0) return { ...base, rcode: 'NOERROR', answers: parseAhosts(r.stdout, name), latencyMs: latency() };
  if (r.code === 2) return { ...base, rcode: 'NXDOMAIN', answers: [], latencyMs: latency() };
  if (r.code === null)
    return { ...base, rcode: 'TIMEOUT', answers: [], latencyMs: latency(), error: 'getent ahosts did not finish in time: the nameservers in /etc/resolv.conf, or the servers they forward to, did not answer' };
  return {
    ...base,
    rcode: 'ERROR',
    answers: [],
    latencyMs: latency(),
    error: `getent ahosts exited with ${r.code}${r.stderr.trim() ? `: ${r.stderr.trim()}` : ''}`,
  };
}

/**
 * The system resolver for any query type: A/AAAA through getaddrinfo (systemLookup), PTR of an
 * IP through getnameinfo as `getent hosts IP` (NSS: /etc/hosts, then DNS PTR). Other types are
 * not something host programs resolve through the system resolver: ERROR saying so. Never throws.
 */
export async function systemQuery(name: string, type: QueryType, exec: Exec = nodeExec): Promise<QueryResult> {
  if (type === 'A' || type === 'AAAA') {
    const r = await systemLookup(name, exec);
    return { ...r, type, answers: r.answers.filter((a) => a.type === type) };
  }
  const base = { name, type, server: 'system', transport: 'getaddrinfo' as const, answers: [] as AnswerRecord[], latencyMs: 0 };
  if (type !== 'PTR') {
    return { ...base, rcode: 'ERROR', error: systemTypeRefusal(type) };
  }
  if (isIP(name.replace(/%.*$/, '')) === 0) {
    return { ...base, rcode: 'ERROR', error: 'A PTR lookup through the system resolver takes an IP address, e.g. 172.21.0.10.' };
  }
  const started = monotonicMs();
  const r = await exec.run('getent', ['hosts', '--', name], { timeoutMs: 15_000 }).catch((err: Error) => ({ code: -1, stdout: '', stderr: err.message }));
  const latencyMs = Math.round((monotonicMs() - started) * 1000) / 1000;
  if (r.code === 2) return { ...base, rcode: 'NXDOMAIN', latencyMs };
  if (r.code !== 0) return { ...base, rcode: r.code === null ? 'TIMEOUT' : 'ERROR', latencyMs, error: `getent hosts exited with ${r.code}` };
  // `ADDRESS CANONICAL-NAME [ALIASES…]`
  const names = (r.stdout.split('\n')[0] ?? '').trim().split(/\s+/).slice(1);
  return { ...base, rcode: 'NOERROR', latencyMs, answers: names.map((n) => ({ name, type: 'PTR', ttl: null, data: n })) };
}

/**
 * Parses `getent ahosts` output (`ADDRESS SOCKTYPE [CANONNAME]`, one line per address and
 * socket type) into unique A/AAAA records in order. TTL is 0: getaddrinfo does not expose it.
 */
export function parseAhosts(stdout: string, name: string): AnswerRecord[] {
  const seen = new Set<string>();
  const out: AnswerRecord[] = [];
  for (const line of stdout.split('\n')) {
    const [raw] = line.trim().split(/\s+/);
    // getent ahosts sets AI_V4MAPPED (glibc nss/getent.c): on a host without IPv4 (AI_ADDRCONFIG)
    // an A answer comes back as ::ffff:a.b.c.d — it is the A record (RFC 4291 §2.5.5.2).
    const address = raw?.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
    if (!address || seen.has(address)) continue;
    const family = isIP(address);
    if (family === 0) continue;
    seen.add(address);
    out.push({ name, type: family === 4 ? 'A' : 'AAAA', ttl: null, data: address });
  }
  return out;
}
