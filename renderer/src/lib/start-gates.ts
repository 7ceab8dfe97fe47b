/**
 * What the app already knows will fail before the click, from the read-only
 * doctor findings the backend computes (electron/core/doctor/port53.ts, dnsproxy-version.ts): an
 * engine that is not installed, and 127.0.0.1:53 held by another process.
 */
import type { DoctorFinding } from '../../../shared/doctor';
import type { EngineName } from '../../../shared/types';

/** Whether an engine can be chosen; `reason` says why not (shown in the option and its title). */
export interface EngineGate {
  available: boolean;
  reason: string | null;
}

/** Per-engine gates: unknown (no findings yet) counts as available, so nothing is blocked on a guess. */
export function engineGates(findings: readonly DoctorFinding[] | null): Record<EngineName, EngineGate> {
  const open: EngineGate = { available: true, reason: null };
  const f = findings?.find((x) => x.id === 'dnsproxy-version');
  if (!f?.detail || !('engine' in f.detail)) return { adguard: open, dnsmasq: open };
  // `detail.engine` is set only when the AdGuard binary is absent: 'dnsmasq' (dnsmasq will be used) or null (neither exists).
  const binary = typeof f.detail.binary === 'string' ? f.detail.binary : 'the K2s install dir';
  const adguard: EngineGate = { available: false, reason: `not installed (no dnsproxy at ${binary})` };
  const dnsmasq: EngineGate = f.detail.engine === null ? { available: false, reason: 'not installed (no /usr/sbin/dnsmasq)' } : open;
  return { adguard, dnsmasq };
}

/**
 * The engine Start uses and the select shows for the user's `choice`: Automatic while the checks
 * (`gates`) find the chosen engine not installed, the choice otherwise. The choice itself is kept
 * (lib/engine-preference.ts), so it is back once a check finds the engine again (walk 10 L9: a
 * fallback written over the choice turned AdGuard dnsproxy into Automatic after Uninstall).
 */
export function effectiveEngine(choice: EngineName | 'auto', gates: Record<EngineName, EngineGate>): EngineName | 'auto' {
  return choice !== 'auto' && !gates[choice].available ? 'auto' : choice;
}

/**
 * Why Start would be refused with PORT_IN_USE, from the `port-53` finding: "127.0.0.1:53 held by
 * dnsmasq (PID 812)"; null when the port is free, ours, or not checked yet.
 */
export function portBlock(findings: readonly DoctorFinding[] | null): string | null {
  const f = findings?.find((x) => x.id === 'port-53');
  if (!f || f.severity !== 'error') return null;
  const d = f.detail ?? {};
  if (d.ours === true) return null;
  const command = typeof d.command === 'string' ? d.command : null;
  const name = command ? (command.split(' ')[0]!.split('/').pop() ?? command) : 'another process';
  const pid = typeof d.pid === 'number' ? ` (PID ${d.pid})` : '';
  return `127.0.0.1:53 held by ${name}${pid}: stop it, then press Check again.`;
}

/**
 * Doctor checks whose `error` means start refuses before changing anything (the codes in their
 * `meaning`: IMMUTABLE, BIND_MOUNTED, WSL_RESOLV_CONF, UPSTREAM_LOOP/NO_UPSTREAM, NO_ENGINE).
 */
export const REFUSING_CHECKS = ['resolv-immutable', 'resolv-bind-mount', 'wsl', 'nameserver-loop', 'dnsproxy-version'] as const;

/**
 * Why Start would be refused, one sentence: the port holder (portBlock) first, else the first
 * refusing doctor error by its title; null when nothing known blocks it.
 */
export function startBlock(findings: readonly DoctorFinding[] | null): string | null {
  const port = portBlock(findings);
  if (port) return port;
  const f = findings?.find((x) => x.severity === 'error' && (REFUSING_CHECKS as readonly string[]).includes(x.id));
  return f ? `${f.title}: Start would be refused; see Diagnostics for the fix, then press Check again.` : null;
}

/**
 * The findings Start may be gated on: all of them while they were made for the resolver as the
 * newest status shows it (`resolverStamp`), none when they are older than its last change (they
 * are being checked again: stores/index.ts). Unknown stamps on either side: the findings as they are.
 */
export function freshFindings(findings: readonly DoctorFinding[] | null, forResolver: string | null, resolverStamp: string | null | undefined): readonly DoctorFinding[] | null {
  if (!findings || resolverStamp == null || forResolver === null) return findings;
  return forResolver === resolverStamp ? findings : null;
}
