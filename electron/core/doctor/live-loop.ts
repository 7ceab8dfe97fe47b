/**
 * `coredns-loop`: a live CoreDNS ↔ proxy loop in the proxy's query log — the same
 * question again and again from a kube-dns pod (shared/live-loop.ts). Read-only: the last
 * LOOP_TAIL_LINES lines of the log, parsed as the Logs panel parses them.
 */
import type { DoctorFinding } from '../../../shared/doctor';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { parseLogLine } from '../../../shared/log-line';
import { buildQueryLog } from '../../../shared/query-log';
import { findLiveLoops, LOOP_THRESHOLD, LOOP_WINDOW_MS } from '../../../shared/live-loop';
import { readTail } from '../logs/tail';
import type { DoctorContext } from './context';

/** Lines of the log the check reads (a loop writes hundreds of lines a second). */
export const LOOP_TAIL_LINES = 20_000;

/** The finding for the proxy log's last lines. */
export async function checkLiveLoop(ctx: DoctorContext): Promise<DoctorFinding> {
  const base = { id: 'coredns-loop', title: 'No CoreDNS ↔ proxy loop in the query log' };
  const path = ctx.deps.fs.real(K2S_PATHS.log);
  const tail = await readTail(path, LOOP_TAIL_LINES).catch(() => null);
  if (tail === null || tail.lines.length === 0) {
    return { ...base, severity: 'ok', title: 'No query log to check for a CoreDNS loop', meaning: `${K2S_PATHS.log} is empty or absent, so no loop is running through the proxy now.`, fix: null };
  }
  const zones = ctx.state ? [ctx.state.clusterDomain].filter((z): z is string => typeof z === 'string') : [];
  const rows = buildQueryLog(tail.lines.filter((l) => l.trim() !== '').map((l) => parseLogLine(l)), { clusterZones: zones });
  const loops = findLiveLoops(rows);
  if (loops.length === 0) {
    return { ...base, severity: 'ok', meaning: `No question came ${LOOP_THRESHOLD} or more times within ${LOOP_WINDOW_MS / 1000} s from a pod in the last ${tail.lines.length} log lines.`, fix: null, detail: { lines: tail.lines.length } };
  }
  const l = loops[0]!;
  return {
    ...base,
    severity: 'error',
    title: 'CoreDNS and the proxy forward a query to each other (loop)',
    meaning: `${l.type} ${l.name} came ${l.count} times within ${LOOP_WINDOW_MS / 1000} s from ${l.clients.join(', ')} (since ${l.since}): CoreDNS forwards what it cannot answer to this host's proxy, and the proxy sends it back to CoreDNS. Names in such a loop time out for pods and for this host.`,
    fix: 'Make CoreDNS forward to the LAN nameservers instead of the KubeSwitch address (Corefile `forward . <nameserver>`), or drop `in-addr.arpa ip6.arpa` from the kubernetes plugin\'s fallthrough; then run k2s-dns start again, which keeps such zones off the host routes.',
    detail: { loops: loops.slice(0, 5) },
  };
}
