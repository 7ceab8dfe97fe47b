import { QUICK_FAILURE_MS } from '../../../shared/health';
import { monotonicMs } from './monotonic';
import { isPortUnreachable, PORT_UNREACHABLE } from '../../../shared/probe-failure';
import { parseResolvConf } from '../../../shared/resolv-conf';
import type { QueryResult } from '../../../shared/types';
import type { Exec } from '../host/exec';
import { gaiLookup } from './gai-lookup';
import { systemLookup } from './system-lookup';

/** What probeLookup needs from the host. */
export interface ProbeLookupIo {
  /** Runs `getent` (glibc's, libc-bin). */
  exec: Exec;
  /** One DNS question to one server (`ip:port`), as deps.query. */
  query(opts: { name: string; type: 'A'; server: string; timeoutMs: number }): Promise<QueryResult>;
  /** The text of /etc/resolv.conf, null when unreadable. */
  resolvConfText(): Promise<string | null>;
  /** getaddrinfo in-process, used when getent is missing (default gaiLookup). */
  gai?: (name: string, timeoutMs: number) => Promise<QueryResult>;
}

/** One nameserver's answer to the classification question. */
interface Asked {
  server: string;
  q: QueryResult;
}

/**
 * A name glibc refuses before asking anyone (RFC 1035 §2.3.4: labels ≤ 63 octets, the name ≤
 * 253 characters as text): the reason, or null when the name is well-formed.
 */
function badName(name: string): string | null {
  const n = name.replace(/\.$/, '');
  if (n.length > 253) return `the name is ${n.length} characters long, over the 253 a DNS name can have (RFC 1035 §2.3.4)`;
  const long = n.split('.').find((l) => l.length > 63);
  return long ? `its label ${long.slice(0, 20)}… is ${long.length} characters long, over the 63 a DNS label can have (RFC 1035 §2.3.4)` : null;
}

/**
 * The health check's host-apps probe: getaddrinfo(3) through NSS, run as `getent ahosts NAME`,
 * because getent keeps the name's case on the wire while Node's dns.lookup lowercases it
 * (libuv's IDNA step; measured: `KUBERNETES.DEFAULT…` arrives as `kubernetes.default…`). So the
 * probe's `KUBERNETES.DEFAULT.svc.<domain>` spelling — the marker by which the Logs panel hides
 * the app's own probes (shared/health-probe.ts) — reaches the proxy's log intact, and no guess
 * by time is needed to tell a probe from a user's lookup of the same name.
 *
 * getent exits 2 for every getaddrinfo failure (glibc nss/getent.c ahosts_keys_int), so a
 * failure is named by asking each nameserver of /etc/resolv.conf (127.0.0.1 when none,
 * resolv.conf(5); glibc uses the first three) the same A question at once and reading the
 * answers the way glibc's resolver walks them (res_send: on to the next server after SERVFAIL,
 * REFUSED or silence; NXDOMAIN and NOERROR end the walk; `options rotate` starts at any server):
 * - NXDOMAIN, or NOERROR without an A record (a CNAME to nowhere) → NXDOMAIN;
 * - an A record → ERROR naming NSS (the nameserver answers, getaddrinfo did not use it);
 * - every server failing: SERVFAIL → SERVFAIL, REFUSED → REFUSED, silent or refused → TIMEOUT
 *   (glibc's EAI_AGAIN; a closed port refuses our connected socket at once, as it did glibc's:
 *   PORT_UNREACHABLE, and so does a silence when getent failed within QUICK_FAILURE_MS);
 * - with `rotate` and servers that disagree, the error names both answers.
 * The whole probe stays within `timeoutMs` (+ at most 200 ms for the question); getent still
 * running then is killed: TIMEOUT. A malformed name → ERROR naming the rule. getent that cannot
 * run (missing, not executable) → `io.gai`. Never throws.
 */
export async function probeLookup(name: string, timeoutMs: number, io: ProbeLookupIo): Promise<QueryResult> {
  const started = monotonicMs();
  const r = await systemLookup(name, io.exec, { timeoutMs });
  // Exit -1: getent could not be spawned (ENOENT, EACCES…): getaddrinfo in-process instead.
  if (r.rcode === 'ERROR' && /exited with -1/.test(r.error ?? '')) return (io.gai ?? gaiLookup)(name, timeoutMs);
  if (r.rcode !== 'NXDOMAIN') return r;
  const failed = (rcode: string, error: string): QueryResult => ({ ...r, rcode, error });
  const bad = badName(name);
  if (bad) return failed('ERROR', `getaddrinfo refuses the name: ${bad}`);
  const text = await io.resolvConfText().catch(() => null);
  const conf = text === null ? null : parseResolvConf(text);
  const servers = (conf?.nameservers.length ? conf.nameservers : ['127.0.0.1']).slice(0, 3).map((ns) => (ns.includes(':') ? `[${ns}]:53` : `${ns}:53`));
  // getaddrinfo that failed at once got its answers (or refusals) fast: so must our question.
  let quick = r.latencyMs < QUICK_FAILURE_MS;
  const left = timeoutMs - (monotonicMs() - started);
  const deadline = Math.max(200, Math.min(quick ? QUICK_FAILURE_MS : 1500, left));
  const ask = (ms: number): Promise<Asked[]> => Promise.all(servers.map(async (server) => ({ server, q: await io.query({ name, type: 'A', server, timeoutMs: ms }) })));
  let asked = await ask(deadline);
  // Silence within the short deadline is not yet "nothing listens": a proxy whose upstream is
  // down answers SERVFAIL only after its own upstream timeout (measured with dnsproxy and
  // CoreDNS down: getent failed in 52 ms, the 500 ms question got no reply, the CLI's SERVFAIL).
  // Ask once more with the longer deadline before calling the port unreachable.
  const rest = timeoutMs - (monotonicMs() - started);
  if (quick && asked.every((a) => a.q.rcode === 'TIMEOUT') && rest > deadline + 200) {
    const again = await ask(Math.min(1500, rest - 200));
    if (again.some((a) => a.q.rcode !== 'TIMEOUT')) {
      asked = again;
      quick = false;
    }
  }
  const final = (a: Asked) => a.q.rcode === 'NXDOMAIN' || a.q.rcode === 'NOERROR';
  const hasA = (a: Asked) => a.q.answers.some((x) => x.type === 'A');
  const decisive = asked.filter(final);
  const rotate = conf?.options.includes('rotate') ?? false;
  // Without rotate glibc stops at the first decisive answer in file order.
  const first = decisive[0];
  if (first) {
    const disagree = rotate ? decisive.find((d) => hasA(d) !== hasA(first)) : undefined;
    const also = disagree ? ` (options rotate: ${disagree.server} ${hasA(disagree) ? `answers ${disagree.q.answers.map((x) => x.data).join(', ')}` : `says ${disagree.q.rcode}`}, so lookups differ by the server glibc starts at)` : '';
    if (first.q.rcode === 'NXDOMAIN') return failed('NXDOMAIN', `getaddrinfo found no address: ${first.server} says the name does not exist (NXDOMAIN)${also}`);
    if (!hasA(first)) return failed('NXDOMAIN', `getaddrinfo found no address: ${first.server} has no A record for it (NOERROR, no address)${also}`);
    if (disagree) return failed('ERROR', `getaddrinfo found no address${also}`);
    return failed('ERROR', `getaddrinfo found no address although ${first.server} answers ${first.q.answers.filter((x) => x.type === 'A').map((x) => x.data).join(', ')}: check the hosts line of /etc/nsswitch.conf`);
  }
  // A closed port answers our connected socket at once (ECONNREFUSED: dns-query.ts), as it did glibc's.
  const closed = (a: Asked) => a.q.rcode === 'ERROR' && isPortUnreachable(a.q.error);
  const list = asked.map((a) => `${a.server} ${closed(a) || (a.q.rcode === 'TIMEOUT' && quick) ? PORT_UNREACHABLE : a.q.rcode === 'TIMEOUT' ? 'did not answer' : a.q.rcode === 'ERROR' ? (a.q.error ?? 'error') : `answered ${a.q.rcode}`}`).join('; ');
  const servfail = asked.find((a) => a.q.rcode === 'SERVFAIL');
  if (servfail) return failed('SERVFAIL', `getaddrinfo gave up (EAI_AGAIN): ${list}`);
  const refused = asked.find((a) => a.q.rcode === 'REFUSED');
  if (refused) return failed('REFUSED', `getaddrinfo gave up: ${list}`);
  // glibc's EAI_AGAIN either way: every server silent, or refused (then at once, as getent returned).
  if (asked.every((a) => a.q.rcode === 'TIMEOUT' || closed(a))) return failed('TIMEOUT', `getaddrinfo gave up${quick || asked.some(closed) ? ' at once' : ''} (EAI_AGAIN): ${list}`);
  const other = asked.find((a) => a.q.rcode !== 'TIMEOUT')!;
  return failed(other.q.rcode, `getaddrinfo found no address: ${list}`);
}
