import type { LifecycleEvent } from '../../shared/lifecycle-events';
import type { ClusterDiscovery, HostDnsStatus, QueryResult } from '../../shared/types';

/** Prints one lifecycle event: a JSON line with `json`, else one readable line. */
export function printEvent(e: LifecycleEvent, json: boolean, out: (s: string) => void): void {
  if (json) return out(JSON.stringify(e));
  if (e.type === 'result') return out(`${e.ok ? 'OK' : e.exitCode === 3 ? 'REFUSED' : 'FAILED'}: ${e.message}`);
  if (e.status === 'running') return;
  const mark = { done: '✓', failed: '✗', skipped: '–', running: '…' }[e.status];
  out(`${mark} ${e.step.padEnd(12)} ${e.message}`);
}

/** Zones as an aligned table: zone, upstream, why. */
export function formatZones(d: ClusterDiscovery): string {
  const rows = d.zones.map((z) => [z.zone + (z.clusterDomain ? ' (cluster domain)' : ''), z.upstream, z.reason]);
  const w0 = Math.max(4, ...rows.map((r) => r[0]!.length));
  const w1 = Math.max(8, ...rows.map((r) => r[1]!.length));
  const lines = [`${'ZONE'.padEnd(w0)}  ${'UPSTREAM'.padEnd(w1)}  WHY`, ...rows.map((r) => `${r[0]!.padEnd(w0)}  ${r[1]!.padEnd(w1)}  ${r[2]}`)];
  lines.push('', `kube-dns ${d.kubeDnsIp} · kubernetes ${d.kubernetesServiceIp} · service CIDR ${d.serviceCidrs.join(', ')} · pod CIDR ${d.podCidrs.join(', ')} (from ${d.cidrSource})`);
  lines.push(`kubeconfig ${d.kubeconfigPath} (context ${d.context})`);
  for (const w of d.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

/** Host DNS status for people. */
export function formatStatus(s: HostDnsStatus): string {
  const lines = [`K2s DNS: ${s.state}`];
  if (s.engine) lines.push(`engine:     ${s.engine}${s.pid ? ` (PID ${s.pid})` : ''}`);
  if (s.listeners.length) lines.push(`listeners:  ${s.listeners.map((l) => `${l.address}:${l.port}`).join(', ')}`);
  for (const k of s.skippedListeners) lines.push(`skipped:    ${k.address}: ${k.reason}`);
  lines.push(`resolver:   ${{ original: 'the original (not K2s-owned)', k2s: 'K2s-owned (nameserver 127.0.0.1)', foreign: 'changed by someone else since start' }[s.resolverOwner]}`);
  if (s.upstreams.length) lines.push(`upstreams:  ${s.upstreams.join(', ')}`);
  if (s.clusterDomain) lines.push(`cluster:    ${s.clusterDomain} → CoreDNS ${s.kubeDnsIp}`);
  if (s.savedAt) lines.push(`saved:      ${s.savedAt} by ${s.savedBy}`);
  for (const m of s.messages) lines.push(`note: ${m}`);
  return lines.join('\n');
}

/** A query result, dig-like. */
export function formatQuery(r: QueryResult): string {
  const lines = [`;; ${r.name} ${r.type} via ${r.server} (${r.transport}): ${r.rcode} in ${r.latencyMs} ms`];
  if (r.error) lines.push(`;; error: ${r.error}`);
  for (const a of r.answers) lines.push(`${a.name}\t${a.ttl}\tIN\t${a.type}\t${a.data}`);
  return lines.join('\n');
}
