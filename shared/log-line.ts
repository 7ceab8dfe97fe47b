/**
 * Parsing of proxy log lines for the live log view: AdGuard dnsproxy v0.72+ slog text, older
 * dnsproxy `[level]` lines, Go slog TextHandler `key=value` lines, and dnsmasq lines as written
 * with `log-facility=<file>` (plus its stderr, `dnsmasq: …`, which the service appends to the
 * same file). Checked against real output in fixtures/logs/ (dnsproxy v0.83.1, dnsmasq 2.90).
 * Pure logic, no Node imports.
 */
import type { EngineName, LogLine } from './types';
import { engineOfLogProcess } from './engines/table';

type Level = LogLine['level'];

/** Options of parseLogLine. */
export interface ParseLogLineOptions {
  /** Year for dnsmasq's syslog-style time (`Nov 29 15:04:05` has none); default: this year. */
  year?: number;
}

const SLOG_RE = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?) (DEBUG|INFO|WARN|ERROR) ?(.*)$/;
const OLD_RE = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?) (?:\d+#\d+ )?\[(\w+)\] ?(.*)$/;
const GOLOG_RE = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?) (.*)$/;
/**
 * K2s DNS's own watchdog (electron/core/host/supervisor-script.ts), which writes to the same log on
 * hosts without systemd: `2026/11/29 15:04:05 k2s-dns watchdog: …` (local time; earlier versions:
 * no time). Matched before GOLOG_RE, which would read it as a dnsproxy line.
 */
const WATCHDOG_RE = /^(?:(\d{4})\/(\d{2})\/(\d{2}) (\d{2}:\d{2}:\d{2}) )?(k2s-dns watchdog): (.*)$/;
const DNSMASQ_RE = /^(?:([A-Z][a-z]{2}) +(\d{1,2}) (\d{2}:\d{2}:\d{2}) )?(dnsmasq(?:-dhcp|-tftp|-script)?)\[(\d+)\]: (.*)$/;
/** dnsmasq's own stderr before logging starts (`dnsmasq: failed to create listening socket …`). */
const DNSMASQ_STDERR_RE = /^(dnsmasq): (.*)$/;
const KV_RE = /(?:^|\s)([A-Za-z_][\w.-]*)=("(?:[^"\\]|\\.)*"|\S*)/g;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const OLD_LEVELS: Record<string, Level> = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', warning: 'WARN', error: 'ERROR', fatal: 'ERROR' };

/** Go-quoted value → text (strconv.Quote output is JSON-compatible except for rare `\x` escapes). */
function unquote(v: string): string {
  if (!v.startsWith('"')) return v;
  try {
    return JSON.parse(v) as string;
  } catch {
    return v.slice(1, -1).replace(/\\(.)/g, '$1');
  }
}

/** Splits `message key=value key2="quoted value"` into the message and the fields. */
function splitKv(rest: string): { message: string; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  let first = -1;
  for (const m of rest.matchAll(KV_RE)) {
    if (first < 0) first = m.index ?? 0;
    // defineProperty, not `fields[key] =`: a key `__proto__` would set the prototype (and be
    // dropped for a string value) instead of becoming a field (found by a property test).
    Object.defineProperty(fields, m[1]!, { value: unquote(m[2]!), enumerable: true, writable: true, configurable: true });
  }
  const message = (first < 0 ? rest : rest.slice(0, first)).trim();
  return { message, fields };
}

/** `2026-11-29T15:04:05.123456`: ISO-8601 local time (the logs carry no offset). */
function isoLocal(y: string, mo: string, d: string, time: string): string {
  return `${y}-${mo}-${d}T${time}`;
}

/** Fields of a dnsmasq query-log message (`query[A] x from y`, `forwarded x to y`, `reply x is y`…). */
function dnsmasqFields(msg: string): { fields: Record<string, string>; query: boolean } {
  const fields: Record<string, string> = {};
  let body = msg;
  // log-queries=extra prefixes a serial and the client's address/port.
  const extra = /^(\d+) (\S+)\/(\d+) (.*)$/.exec(body);
  if (extra) {
    fields.serial = extra[1]!;
    fields.clientAddr = extra[2]!;
    fields.clientPort = extra[3]!;
    body = extra[4]!;
  }
  let m: RegExpExecArray | null;
  if ((m = /^query\[(\w+)\] (\S+) from (\S+)$/.exec(body))) {
    Object.assign(fields, { event: 'query', type: m[1]!, name: m[2]!, client: m[3]! });
  } else if ((m = /^forwarded (\S+) to (\S+)$/.exec(body))) {
    Object.assign(fields, { event: 'forwarded', name: m[1]!, upstream: m[2]! });
  } else if ((m = /^(reply|cached|config|cached-stale|validation) (\S+) is (.+)$/.exec(body))) {
    // `reply error is SERVFAIL`: no name, the rcode instead of an answer (dnsmasq 2.90 cache.c log_query).
    if (m[2] === 'error') Object.assign(fields, { event: m[1]!, answer: m[3]!, rcode: m[3]! });
    else Object.assign(fields, { event: m[1]!, name: m[2]!, answer: m[3]! });
  } else if ((m = /^using nameserver (\S+?)(?: for domain (\S+))?\s*$/.exec(body))) {
    // The zone servers first (`… for domain cluster.local `, with a trailing space), then the defaults.
    return { fields: { ...fields, event: 'nameserver', upstream: m[1]!, ...(m[2] ? { domain: m[2] } : {}) }, query: false };
  } else if ((m = /^started, version (\S+)/.exec(body))) {
    return { fields: { ...fields, event: 'started', version: m[1]! }, query: false };
  } else {
    return { fields, query: false };
  }
  return { fields, query: true };
}

/** Level of a dnsmasq message: errors by `failed to`/`FAILED`/`error`, warnings by `warning`. */
function dnsmasqLevel(msg: string, query: boolean): Level {
  if (/failed to|FAILED|\berror\b/i.test(msg) && !query) return 'ERROR';
  if (/^warning|\bwarning:/i.test(msg)) return 'WARN';
  // Per-query lines are what dnsproxy logs at DEBUG under -v: same level, same filter.
  return query ? 'DEBUG' : 'INFO';
}

/**
 * Parses one log line. dnsproxy v0.72+: `2026/11/29 15:04:05.123456 INFO listening to udp
 * addr=127.0.0.1:53` (message before the first key=value; quoted values keep their spaces);
 * older dnsproxy: `2023/06/01 12:00:00 [info] …` (also with `123#45 ` before the level);
 * slog TextHandler `time=… level=… msg="…" k=v`; dnsmasq `[Nov 29 15:04:05 ]dnsmasq[123]: …`
 * with query/forwarded/reply/config/cached fields. A line containing `bind: address already
 * in use` is ERROR whatever its level. K2s DNS's watchdog `[YYYY/MM/DD HH:MM:SS ]k2s-dns watchdog: …`
 * (message from `k2s-dns watchdog:` on, no fields): WARN, ERROR when it gives up. Anything else: level INFO, message = raw, time null.
 */
export function parseLogLine(raw: string, opts: ParseLogLineOptions = {}): LogLine {
  const line = raw.replace(/\r?\n$/, '').replace(/\r$/, '');
  const out = parseKnown(line, opts);
  // dnsproxy exits 1 after this; an older build may print it without a level.
  if (/bind: address already in use/.test(line)) out.level = 'ERROR';
  return { ...out, raw };
}

/** parseLogLine without the cross-format error rule. */
function parseKnown(line: string, opts: ParseLogLineOptions): Omit<LogLine, 'raw'> {
  let m: RegExpExecArray | null;
  if ((m = WATCHDOG_RE.exec(line))) {
    // A give-up (`not restarting it`) is the end of DNS on this host; a restart is a warning.
    // The message keeps its `k2s-dns watchdog:` name: the raw view shows who wrote the line.
    return { time: m[1] ? isoLocal(m[1], m[2]!, m[3]!, m[4]!) : null, level: /not restarting it/.test(m[6]!) ? 'ERROR' : 'WARN', message: `${m[5]!}: ${m[6]!}`, fields: {} };
  }
  if ((m = SLOG_RE.exec(line))) {
    const { message, fields } = splitKv(m[6]!);
    return { time: isoLocal(m[1]!, m[2]!, m[3]!, m[4]!), level: m[5] as Level, message: fields.msg ?? message, fields: withoutMsg(fields) };
  }
  if ((m = OLD_RE.exec(line))) {
    return { time: isoLocal(m[1]!, m[2]!, m[3]!, m[4]!), level: OLD_LEVELS[m[5]!.toLowerCase()] ?? 'INFO', message: m[6]!.trim(), fields: {} };
  }
  if (/^time=\S+ level=\w+ /.test(line)) {
    const { fields } = splitKv(line);
    const level = (fields.level ?? 'INFO').toUpperCase();
    const time = fields.time ?? null;
    const rest = withoutMsg(fields);
    delete rest.time;
    delete rest.level;
    return { time, level: (['DEBUG', 'INFO', 'WARN', 'ERROR'].includes(level) ? level : 'INFO') as Level, message: fields.msg ?? '', fields: rest };
  }
  if ((m = DNSMASQ_RE.exec(line))) {
    const msg = m[6]!;
    const { fields, query } = dnsmasqFields(msg);
    let time: string | null = null;
    const month = m[1] ? MONTHS.indexOf(m[1]) + 1 : 0;
    if (month > 0) {
      const year = opts.year ?? new Date().getFullYear();
      time = `${year}-${String(month).padStart(2, '0')}-${m[2]!.padStart(2, '0')}T${m[3]!}`;
    }
    return { time, level: dnsmasqLevel(msg, query), message: msg, fields: { process: m[4]!, pid: m[5]!, ...fields } };
  }
  if ((m = DNSMASQ_STDERR_RE.exec(line))) {
    return { time: null, level: dnsmasqLevel(m[2]!, false), message: m[2]!, fields: { process: m[1]! } };
  }
  if ((m = GOLOG_RE.exec(line))) {
    return { time: isoLocal(m[1]!, m[2]!, m[3]!, m[4]!), level: 'INFO', message: m[5]!, fields: {} };
  }
  return { time: null, level: 'INFO', message: line, fields: {} };
}

/** The fields without `msg` (it becomes the message). */
function withoutMsg(fields: Record<string, string>): Record<string, string> {
  const { msg: _msg, ...rest } = fields;
  return rest;
}

/** dnsproxy DEBUG messages printed at start-up or shutdown, not while handling a query (v0.83.1). */
const DNSPROXY_LIFECYCLE_DEBUG = new Set(['hosts files are disabled', 'upstream is reserved', 'set upstream', 'tcp connection closed', 'udp connection closed']);
/** dnsmasq query-log events (`log-queries`). */
const DNSMASQ_QUERY_EVENTS = new Set(['query', 'forwarded', 'reply', 'cached', 'config', 'cached-stale', 'validation']);

/** Which engine wrote the line: by its syslog `process` field (engine table `logProcess`): dnsmasq lines carry one, dnsproxy's none. */
export function lineEngine(line: LogLine): EngineName {
  return engineOfLogProcess(line.fields.process);
}

/**
 * True for per-query traffic: dnsmasq's log-queries lines and dnsproxy's DEBUG lines written while
 * handling a query (`in`/`out` message dumps, `sending request`, `replying from cache`, …).
 * WARN/ERROR lines are never query lines, so failures stay visible under their level.
 */
export function isQueryLine(line: LogLine): boolean {
  if (lineEngine(line) === 'dnsmasq') return DNSMASQ_QUERY_EVENTS.has(line.fields.event ?? '');
  return line.level === 'DEBUG' && !DNSPROXY_LIFECYCLE_DEBUG.has(line.message);
}

/**
 * True for the first line of a proxy run: dnsproxy's `dnsproxy config path: …` (printed before
 * its logger starts) or, when that is missing, `dnsproxy starting`; dnsmasq's `started, version …`.
 * `previous` is the line before it (null at the start of the log).
 */
export function isRunStart(line: LogLine, previous: LogLine | null): boolean {
  if (line.message.startsWith('dnsproxy config path:')) return true;
  if (line.message === 'dnsproxy starting') return previous === null || !previous.message.startsWith('dnsproxy config path:');
  return lineEngine(line) === 'dnsmasq' && line.fields.event === 'started';
}
