/**
 * Log data of the fake backend: the real captured engine runs (backend-fake-logs.ts, from
 * fixtures/logs/) and new query records in exactly the shape AdGuard dnsproxy v0.83.1 writes
 * with `-v` (copied from fixtures/logs/dnsproxy-verbose.log), parsed by the product's parser.
 */
import { parseLogLine } from '../../shared/log-line';
import { HEALTH_PROBE_LABELS } from '../../shared/health-probe';
import type { LogLine, LogSearch } from '../../shared/types';
import { DNSMASQ_VERBOSE_LOG, DNSPROXY_VERBOSE_LOG } from './backend-fake-logs';

/** Parses a captured log (blank lines skipped, as the log source does). */
function parseText(text: string): LogLine[] {
  return text.split('\n').filter((l) => l.trim() !== '').map((l) => parseLogLine(l));
}

/** The captured dnsmasq run (log-queries=extra): a previous run already in the log file. */
export function previousDnsmasqRun(): LogLine[] {
  return parseText(DNSMASQ_VERBOSE_LOG);
}

/** The captured dnsproxy -v run, split at its shutdown: `start` up to its last query, `stop` from `stopping server`. */
export function dnsproxyRun(): { start: LogLine[]; stop: LogLine[] } {
  const all = parseText(DNSPROXY_VERBOSE_LOG);
  const at = all.findIndex((l) => l.message === 'stopping server');
  return { start: all.slice(0, at), stop: all.slice(at) };
}

/** `2026/11/30 22:43:40.536717` in UTC for ms since the epoch `t` (dnsproxy's `log` time format). */
function stamp(t: number): string {
  const d = new Date(t);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds() * 1000, 6)}`;
}

/** One query as dnsproxy logs it. */
export interface FakeQuery {
  /** DNS message id. */
  id: number;
  /** Client `ip:port`. */
  client: string;
  name: string;
  type: string;
  rcode: string;
  /** Answer RDATA (`172.21.0.1`), TTL 5. */
  answers: string[];
  /** Upstream `ip:port`. */
  upstream: string;
}

/** The DEBUG records dnsproxy v0.83.1 -v writes for `q`, starting at `t` (ms), 1 ms apart at most. */
export function dnsproxyQueryLines(t: number, q: FakeQuery): LogLine[] {
  const question = `;${q.name}.\\tIN\\t ${q.type}`;
  const rec = (dir: string, n: number, text: string) => `DEBUG ${dir} prefix=dnsproxy line_num=${n} line=${JSON.stringify(text).replace(/\\\\t/g, '\\t')}`;
  const inText = [`;; opcode: QUERY, status: NOERROR, id: ${q.id}`, ';; flags: rd ad; QUERY: 1, ANSWER: 0, AUTHORITY: 0, ADDITIONAL: 1', '', ';; OPT PSEUDOSECTION:', '; EDNS: version 0; flags:; udp: 1232', '', ';; QUESTION SECTION:', `;${q.name}.\tIN\t ${q.type}`, ''];
  const outText = [`;; opcode: QUERY, status: ${q.rcode}, id: ${q.id}`, `;; flags: qr rd; QUERY: 1, ANSWER: ${q.answers.length}, AUTHORITY: 0, ADDITIONAL: 1`, '', ';; OPT PSEUDOSECTION:', '; EDNS: version 0; flags:; udp: 1232', '', ';; QUESTION SECTION:', `;${q.name}.\tIN\t ${q.type}`, ''];
  if (q.answers.length > 0) outText.push(';; ANSWER SECTION:', ...q.answers.map((a) => `${q.name}.\t5\tIN\t${q.type}\t${a}`), '');
  const raw = [
    `DEBUG handling new packet prefix=dnsproxy raddr=${q.client} laddr=127.0.0.1 proto=udp`,
    ...inText.map((l, i) => rec('in', i + 1, l)),
    `DEBUG handling request prefix=pre_handler_mw req="${question}"`,
    `DEBUG sending request addr=${q.upstream} proto=udp qtype=${q.type} qname=${q.name}. id=${q.id}`,
    `DEBUG exchange successfully finished prefix=dnsproxy upstream=${q.upstream} question="${question}" duration=812.4µs`,
    `DEBUG resolved prefix=dnsproxy upstream=${q.upstream} src=upstream`,
    ...outText.map((l, i) => rec('out', i + 1, l)),
  ];
  // Time advances 0.1 ms per record up to the reply, like a fast LAN answer.
  return raw.map((r, i) => parseLogLine(`${stamp(t + Math.min(i, 10) * 0.1)} ${r}`));
}

/** `n` older user queries (`q<N>.history.example`, one a second from `t0` ms), each followed by a health probe. */
export function fakeHistory(n: number, t0: number): LogLine[] {
  const out: LogLine[] = [];
  for (let i = 1; i <= n; i++) {
    const t = t0 + i * 1000;
    out.push(...dnsproxyQueryLines(t, { id: 1000 + (i % 60000), client: `127.0.0.1:${30000 + (i % 20000)}`, name: `q${i}.history.example`, type: 'A', rcode: 'NOERROR', answers: ['192.0.2.10'], upstream: '192.168.1.1:53' }));
    out.push(...dnsproxyQueryLines(t + 500, { id: 2000 + (i % 60000), client: '127.0.0.1:39999', name: `${HEALTH_PROBE_LABELS}.svc.cluster.local`, type: 'A', rcode: 'NOERROR', answers: ['172.21.0.1'], upstream: '172.21.0.10:53' }));
  }
  return out;
}

/** logs:search over the fake's in-memory log, with the real search's rules (electron/logs/log-history.ts). */
export function fakeSearch(logs: readonly LogLine[], o: { text: string; lines: number; context: number; probes?: boolean }): LogSearch {
  const needle = o.text.toLowerCase();
  const marker = `${HEALTH_PROBE_LABELS}.svc.`;
  const keep = new Set<number>();
  let matches = 0;
  logs.forEach((l, i) => {
    if (!l.raw.toLowerCase().includes(needle) || (!o.probes && l.raw.includes(marker))) return;
    matches += 1;
    for (let k = Math.max(0, i - o.context); k <= Math.min(logs.length - 1, i + o.context); k++) keep.add(k);
  });
  const idx = [...keep].sort((a, b) => a - b);
  const lines = idx.slice(-o.lines).map((i) => logs[i]!);
  return { text: o.text, lines, matches, truncated: idx.length > o.lines, bytesScanned: logs.reduce((n, l) => n + l.raw.length + 1, 0), files: ['/var/log/dnsproxy/dnsproxy.log'], tookMs: 0 };
}

/**
 * Two queries from different clients logged at the same moment (their client records first,
 * then their messages): dnsproxy names no request, so buildQueryLog marks both rows ≈ (mixed).
 */
export function overlappingQueries(t: number): LogLine[] {
  const a = dnsproxyQueryLines(t, { id: 7001, client: '127.0.0.1:53534', name: 'a.overlap.example', type: 'A', rcode: 'NOERROR', answers: ['192.0.2.1'], upstream: '192.168.1.1:53' });
  const b = dnsproxyQueryLines(t, { id: 7002, client: '127.0.0.1:60001', name: 'b.overlap.example', type: 'A', rcode: 'NOERROR', answers: ['192.0.2.2'], upstream: '192.168.1.1:53' });
  return [a[0]!, b[0]!, ...a.slice(1), ...b.slice(1)];
}
