/**
 * The app's own health probes are recognisable in the proxy's query log (first-user report 4:
 * the 1 s status poll and every recheck query the cluster name, which flooded the Logs panel).
 * They ask the cluster name with its first two labels in capitals —
 * `KUBERNETES.DEFAULT.svc.cluster.local` — which is the same name to every DNS server (names
 * compare case-insensitively, RFC 4343 §3) while dnsproxy v0.83.1 and dnsmasq 2.90 log it with
 * the case as asked (checked on both engines). A person typing the name never writes it so.
 * Pure module: no Node or DOM imports.
 */

/** What the probes put in front of `svc.<cluster domain>`. */
export const HEALTH_PROBE_LABELS = 'KUBERNETES.DEFAULT';

/** `kubernetes.default.svc.cluster.local` → `KUBERNETES.DEFAULT.svc.cluster.local`; other names unchanged. */
export function healthProbeName(name: string): string {
  return /^kubernetes\.default\.svc\./i.test(name) ? `${HEALTH_PROBE_LABELS}${name.slice(HEALTH_PROBE_LABELS.length)}` : name;
}

/** True for a name as a health probe asks it (case-sensitive; a trailing dot is allowed). */
export function isHealthProbeName(asked: string): boolean {
  return asked.startsWith(`${HEALTH_PROBE_LABELS}.svc.`);
}

/**
 * True when a line the "hide health probes" setting may hide: one of a probe's own query/answer
 * lines. An engine's ERROR or WARN line is never hidden, even when it names the probe's query
 * (dnsproxy's `ERROR exchange failed … question=";KUBERNETES.DEFAULT.svc…"` during an outage is
 * the outage itself). `ofProbe`: the line belongs to a probe's query (its row, or the marker).
 */
export function hidesAsProbeLine(line: { level: string }, ofProbe: boolean): boolean {
  return ofProbe && line.level !== 'ERROR' && line.level !== 'WARN';
}
