/**
 * The query log's dnsmasq assembler. dnsmasq 2.90 with `log-queries=extra` prefixes every line
 * with the query's serial number and the client address/port: `<serial> <addr>/<port>
 * query[A] name from addr`, `forwarded name to ip#port`, `reply name is answer` (one line per
 * answer record), `cached …`, `config …`, `reply error is SERVFAIL` (dnsmasq 2.90 cache.c
 * log_query). Rows are keyed by pid + serial (TCP queries are answered by forked children with
 * their own serials). Plain `log-queries` (no serial) is paired by name instead. dnsmasq times
 * have whole seconds only, so its rows have no latency; a forwarded query that never got a
 * reply line (upstream timeout) has rcode null.
 */
import type { LogLine } from '../types';
import type { AssemblerContext, EngineAssembler, LineOwner, QueryRow } from './row';

/** `172.21.0.10` → `10.0.21.172.in-addr.arpa` (dnsmasq logs PTR replies by address); other names unchanged. */
function arpaOf(name: string): string {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(name) ? `${name.split('.').reverse().join('.')}.in-addr.arpa` : name;
}

/** dnsmasq `ip#port` → `ip:port` (`[v6]:port` for IPv6); plain `ip` stays. */
export function upstreamText(dnsmasq: string): string {
  const m = /^(.*)#(\d+)$/.exec(dnsmasq);
  if (!m) return dnsmasq;
  return m[1]!.includes(':') ? `[${m[1]}]:${m[2]}` : `${m[1]}:${m[2]}`;
}

/** An rcode dnsmasq writes where an answer would be (`reply x is NXDOMAIN`). */
const RCODE_ANSWER = /^(NXDOMAIN|SERVFAIL|REFUSED|NOTIMP|FORMERR)$/;

/** A dnsmasq assembler for one run. */
export function dnsmasqAssembler(ctx: AssemblerContext): EngineAssembler {
  const bySerial = new Map<string, QueryRow>();
  const lastByName = new Map<string, QueryRow>();
  let lastForwarded: QueryRow | null = null;
  let mainPid: string | null = null;
  return {
    line(line: LogLine): LineOwner {
      const f = line.fields;
      const ev = f.event;
      if (ev === 'started') mainPid = f.pid ?? null;
      if (ev === 'nameserver' && f.domain) ctx.book.zoneServers.push({ zone: f.domain.toLowerCase(), upstream: upstreamText(f.upstream!) });
      if (ev === 'query') {
        const row = ctx.newRow('dnsmasq', line.time, f.name!.toLowerCase().replace(/\.$/, ''), f.type!, f.name!);
        row.client = f.clientAddr ? `${f.clientAddr}:${f.clientPort}` : (f.client ?? null);
        if (f.serial) bySerial.set(`${f.pid}/${f.serial}`, row);
        // dnsmasq answers TCP in forked children (another pid than the one that logged `started`).
        if (mainPid !== null) row.protocol = f.pid === mainPid ? 'udp' : 'tcp';
        lastByName.set(row.name, row);
        return row;
      }
      // Plain log-queries: by name (a PTR reply names the address: `reply 172.21.0.10 is …`).
      const row = f.serial ? bySerial.get(`${f.pid}/${f.serial}`) : !f.name ? lastForwarded : lastByName.get(arpaOf(f.name.toLowerCase()));
      if (!row) return null;
      if (ev === 'forwarded') {
        ctx.routeFor(row, upstreamText(f.upstream!));
        lastForwarded = row;
      } else if (ev === 'reply' || ev === 'cached' || ev === 'cached-stale' || ev === 'config') {
        if (ev === 'cached' || ev === 'cached-stale') row.route = 'cache';
        if (ev === 'config') row.route = 'local';
        const answer = f.answer ?? '';
        if (f.rcode || RCODE_ANSWER.test(answer)) row.rcode = f.rcode ?? answer;
        else {
          row.rcode = 'NOERROR';
          if (!/^NODATA/.test(answer)) row.answers.push(answer);
        }
      }
      return row;
    },
  };
}
