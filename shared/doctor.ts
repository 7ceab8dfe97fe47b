/**
 * `k2s-dns doctor` findings: one read-only check of the host each, with what it
 * means and what to do. Pure module (used by the CLI, the backends and the Diagnostics panel).
 */

import type { Fix } from './fix';

/** How bad a finding is: `error` means start would be refused or DNS is broken now. */
export type DoctorSeverity = 'ok' | 'info' | 'warn' | 'error';

/** Severities from worst to best: the order the CLI and the Diagnostics panel list them in. */
export const SEVERITY_ORDER: readonly DoctorSeverity[] = ['error', 'warn', 'info', 'ok'];

/** One doctor finding. `meaning` and `fix` are one sentence each; `fix` is null when nothing is to do. */
export interface DoctorFinding {
  /** Stable id of the check, e.g. `port-53`, `kubelet-resolvconf`. */
  id: string;
  severity: DoctorSeverity;
  title: string;
  meaning: string;
  fix: string | null;
  /**
   * The same fix as data for each front end (shared/fix.ts): the app shows `remedy.gui` and its
   * button instead of `fix` (which is CLI text). Absent when the CLI text is the only way.
   */
  remedy?: Fix;
  /** Machine-readable facts behind the finding (PIDs, paths, nameservers, versions). */
  detail?: Record<string, unknown>;
}

/** Findings grouped by severity in SEVERITY_ORDER; empty groups are left out, check order kept inside. */
export function groupFindings(findings: readonly DoctorFinding[]): { severity: DoctorSeverity; findings: DoctorFinding[] }[] {
  return SEVERITY_ORDER.map((severity) => ({ severity, findings: findings.filter((f) => f.severity === severity) })).filter((g) => g.findings.length > 0);
}

/**
 * The meaning to show under an `ok` finding's title, or null when it only says the title again
 * (with or without its full stop: `/etc/resolv.conf is not immutable` and its meaning
 * `/etc/resolv.conf is not immutable.`), so the row is its title alone — the CLI (walk 14,
 * electron/cli/print-doctor.ts) and the Diagnostics panel (walk15) alike. Other severities always
 * show their meaning.
 */
export function shownMeaning(f: Pick<DoctorFinding, 'severity' | 'title' | 'meaning'>): string | null {
  if (f.severity !== 'ok') return f.meaning;
  return f.meaning.replace(/\.$/, '') === f.title.replace(/\.$/, '') ? null : f.meaning;
}

/** Count of findings per severity (every severity present, 0 when none). */
export function countFindings(findings: readonly DoctorFinding[]): Record<DoctorSeverity, number> {
  const counts: Record<DoctorSeverity, number> = { error: 0, warn: 0, info: 0, ok: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}

/** The worst severity among `findings` (`ok` for none). */
export function worstSeverity(findings: readonly DoctorFinding[]): DoctorSeverity {
  return SEVERITY_ORDER.find((s) => findings.some((f) => f.severity === s)) ?? 'ok';
}

/**
 * True when `findings` were taken while a k2s-dns operation was changing the host: the `health`
 * finding's busy verdict (shared/health.ts healthVerdict: "K2s DNS is stopping; the path is checked
 * again when it is done"), `lifecycle-state` reading starting/stopping, or any finding whose
 * `detail.operation` names the operation it saw (electron/core/doctor/port53.ts, lifecycle-state.ts).
 * Such findings describe a host halfway through a change; the window runs the checks again when
 * the operation ends (renderer/src/stores/diagnostics-follow.ts).
 */
export function findingsDuringOperation(findings: readonly DoctorFinding[]): boolean {
  return findings.some((f) => {
    const d = f.detail ?? {};
    if (d.operation != null) return true;
    if (f.id === 'lifecycle-state' && (d.state === 'starting' || d.state === 'stopping')) return true;
    const verdict = d.verdict as { cause?: unknown } | undefined;
    return f.id === 'health' && verdict?.cause === 'busy';
  });
}
