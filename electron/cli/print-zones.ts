/**
 * `k2s-dns zones` for people: forwarded zones, refused zones with why, the API server and
 * kubeconfig used. Bounded (a 19,980-key Corefile crashed it) and escaped, since
 * every string here comes from the cluster (no raw control characters to a terminal).
 */
import type { ClusterDiscovery } from '../../shared/types';
import { terminalSafe } from './terminal-safe';
import { visibleName } from '../../shared/visible-text';
import { cliCommand } from '../../shared/fix';

/** Rows printed per table; the rest is counted (`--json` has everything). */
export const MAX_ZONE_ROWS = 200;
/** Characters per cell. */
const MAX_CELL = 160;
/**
 * Characters per warning line: a warning is a sentence of ours, printed whole (the allow-zone
 * one is about 200 characters before its zone names; cut at MAX_CELL it ended mid-sentence), and
 * still bounded since it may quote cluster data (50 lines at most).
 */
export const MAX_WARNING = 2000;

/** terminalSafe (C0/C1/DEL escaped), cut to `max` characters (MAX_CELL); `name`: a DNS name, punycode beside a non-ASCII one. */
export function terminalText(text: string, name = false, max = MAX_CELL): string {
  const escaped = name ? visibleName(text) : terminalSafe(text);
  return escaped.length > max ? `${escaped.slice(0, max - 1)}…` : escaped;
}

function table(header: string[], rows: string[][], total: number): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  const out = [line(header), ...rows.map(line)];
  if (total > rows.length) out.push(`… ${total - rows.length} more (${cliCommand('zones --json')} lists all)`);
  return out;
}

/** Zones as aligned tables: forwarded (zone, upstream, why), then refused (zone, why, where). */
export function formatZones(d: ClusterDiscovery): string {
  const fwd = d.zones.slice(0, MAX_ZONE_ROWS).map((z) => [terminalText(z.zone, true) + (z.clusterDomain ? ' (cluster domain)' : ''), terminalText(z.upstream), terminalText(z.reason)]);
  const lines = table(['ZONE', 'UPSTREAM', 'WHY'], fwd, d.zones.length);
  const refused = d.refusedZones ?? [];
  if (refused.length > 0) {
    lines.push('', 'Not forwarded (zone policy; --allow-zone ZONE on start forwards one marked allowable):');
    const rows = refused.slice(0, MAX_ZONE_ROWS).map((r) => [terminalText(r.zone, true), r.allowable ? 'allowable' : 'never', terminalText(`${r.why} — ${r.reason}`)]);
    lines.push(...table(['ZONE', 'ALLOW', 'WHY NOT'], rows, refused.length));
  }
  if (d.allowedZones?.length) lines.push('', `allowed by you: ${d.allowedZones.slice(0, 50).map((z) => terminalText(z, true)).join(', ')}`);
  lines.push('', `kube-dns ${terminalText(d.kubeDnsIp)} · kubernetes ${terminalText(d.kubernetesServiceIp)} · service CIDR ${d.serviceCidrs.map((c) => terminalText(c)).join(', ')} · pod CIDR ${d.podCidrs.map((c) => terminalText(c)).join(', ')} (from ${d.cidrSource})`);
  lines.push(`API server ${terminalText(d.apiServer)} · kubeconfig ${terminalText(d.kubeconfigPath)} (context ${terminalText(d.context)})${d.corefileSource ? ` · Corefile from ConfigMap ${terminalText(d.corefileSource)}` : ''}`);
  for (const w of d.warnings.slice(0, 50)) lines.push(`warning: ${terminalText(w, false, MAX_WARNING)}`);
  if (d.warnings.length > 50) lines.push(`… ${d.warnings.length - 50} more warnings (--json lists all)`);
  return lines.join('\n');
}
