/**
 * Log data of the fake backend: the real captured engine runs (backend-fake-logs.ts, from
 * fixtures/logs/) and new query records in exactly the shape AdGuard dnsproxy v0.83.1 writes
 * with `-v` (copied from fixtures/logs/dnsproxy-verbose.log), parsed by the product's parser.
 */
import { parseLogLine } from '../../shared/log-line';
import type { LogLine } from '../../shared/types';
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
