/**
 * A live CoreDNS ↔ proxy loop in the query log: the same question arriving again
 * and again from a client that is not this host (a kube-dns pod forwarding back to the
 * KubeSwitch listener) within a few seconds. One PTR in such a loop was seen 116–302 times
 * (coredns#6315); a pod retrying a name asks a handful of times, so the threshold sits well
 * above retries and well below a loop.
 */
import type { QueryRow } from './query-log';
import { cliCommand } from './fix';
import { forwardLineWords } from './coredns-loop';
import { codeSpan } from './code-span';

/** Identical questions from non-local clients within LOOP_WINDOW_MS that make a loop. */
export const LOOP_THRESHOLD = 20;
/** Window of LOOP_THRESHOLD, ms. */
export const LOOP_WINDOW_MS = 5000;

/** A question seen looping. */
export interface LiveLoop {
  name: string;
  type: string;
  /** Most copies within one window. */
  count: number;
  /** Client addresses (without port) that sent the copies. */
  clients: string[];
  /** Time of the first copy in that window (as logged). */
  since: string;
  /** Time of the last copy in that window (as logged). */
  until: string;
}

/**
 * How recent a loop's last copy must be for the health verdict to call it live, ms: the log
 * keeps a loop that ended (CoreDNS fixed, K2s DNS restarted) until it rotates, and a verdict
 * about now must not report it.
 */
export const LIVE_LOOP_RECENT_MS = 60_000;

/** The loops of `loops` whose last copy is at most LIVE_LOOP_RECENT_MS before `nowMs` (log times are local, as Date.parse reads them). */
export function recentLoops(loops: readonly LiveLoop[], nowMs: number, recentMs = LIVE_LOOP_RECENT_MS): LiveLoop[] {
  return loops.filter((l) => {
    const t = Date.parse(l.until);
    return !Number.isNaN(t) && nowMs - t <= recentMs;
  });
}

/** What a loop means, in doctor's `coredns-loop` finding and the health verdict alike. */
export function liveLoopMeaning(l: LiveLoop): string {
  return `${l.type} ${l.name} came ${l.count} times within ${LOOP_WINDOW_MS / 1000} s from ${l.clients.join(', ')} (since ${l.since}): CoreDNS forwards what it cannot answer to this host's proxy, and the proxy sends it back to CoreDNS. Names in such a loop time out for pods and for this host.`;
}

/** The Corefile part of a live loop's fix. */
const LOOP_COREFILE_FIX = `Make CoreDNS forward to the LAN nameservers instead of the KubeSwitch address (Corefile ${forwardLineWords('their IP addresses')}), or drop \`in-addr.arpa ip6.arpa\` from the kubernetes plugin's fallthrough`;

/**
 * The fix of a live loop (doctor's `coredns-loop`, the verdict's `coredns-loop` cause), per front
 * end: the app's buttons, or the start command as this runtime's user types it (`cli` is read
 * when used: shared/fix.ts cliCommand, with the kubeconfig in use where the lookup would miss it).
 */
export const LIVE_LOOP_FIX = {
  gui: `${LOOP_COREFILE_FIX}; then Stop and Start K2s DNS: start keeps such zones off the host routes.`,
  get cli() {
    return `${LOOP_COREFILE_FIX}; then run \`${cliCommand('stop', true)}\` and ${codeSpan(cliCommand('start', true))} again: start keeps such zones off the host routes.`;
  },
};

/** `127.0.0.1:5353` / `[::1]:5353` / `::1` → the bare address. */
function clientAddress(client: string): string {
  const v6 = /^\[([^\]]+)\]:\d+$/.exec(client);
  if (v6) return v6[1]!;
  const v4 = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(client);
  return v4 ? v4[1]! : client;
}

const isLocal = (a: string) => a.startsWith('127.') || a === '::1';

/**
 * Loops in `rows` (oldest first): per (name, type), the copies from non-loopback clients whose
 * times fall within `windowMs` of each other, when at least `threshold` (k2s-dns's own health
 * probes and rows without a time or client are ignored). Sorted by count, most first.
 */
export function findLiveLoops(rows: readonly QueryRow[], threshold = LOOP_THRESHOLD, windowMs = LOOP_WINDOW_MS): LiveLoop[] {
  const groups = new Map<string, { row: QueryRow; t: number; client: string }[]>();
  for (const row of rows) {
    if (row.probe || row.time === null || row.client === null) continue;
    const client = clientAddress(row.client);
    if (isLocal(client)) continue;
    const t = Date.parse(row.time);
    if (Number.isNaN(t)) continue;
    const key = `${row.name.toLowerCase()}\u0000${row.type}`;
    const list = groups.get(key) ?? [];
    list.push({ row, t, client });
    groups.set(key, list);
  }
  const loops: LiveLoop[] = [];
  for (const list of groups.values()) {
    list.sort((a, b) => a.t - b.t);
    let best = { count: 0, from: 0, to: 0 };
    for (let i = 0, j = 0; j < list.length; j++) {
      while (list[j]!.t - list[i]!.t > windowMs) i++;
      if (j - i + 1 > best.count) best = { count: j - i + 1, from: i, to: j };
    }
    if (best.count < threshold) continue;
    const slice = list.slice(best.from, best.to + 1);
    loops.push({ name: slice[0]!.row.name, type: slice[0]!.row.type, count: best.count, clients: [...new Set(slice.map((s) => s.client))], since: slice[0]!.row.time!, until: slice[slice.length - 1]!.row.time! });
  }
  return loops.sort((a, b) => b.count - a.count);
}
