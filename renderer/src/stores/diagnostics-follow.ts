/**
 * When the Diagnostics findings are checked again by themselves, from what the host DNS store
 * sees: a resolver change (the checks that gate Start read /etc/resolv.conf), and the end of an
 * operation the findings were taken during — a Start or Stop of this window, of another window, or
 * of the CLI followed from its journal (stores/dns.ts) — so "checked again when it is done" holds.
 */
import type { StoreApi } from 'zustand/vanilla';
import { findingsDuringOperation } from '../../../shared/doctor';
import type { DiagnosticsState } from './diagnostics';
import type { DnsState } from './dns';

/** True while an operation runs as `s` knows it: this window's own, or one the status reads from the journal (starting/stopping). */
export function operationInProgress(s: DnsState): boolean {
  return s.busy !== null || s.status?.state === 'starting' || s.status?.state === 'stopping';
}

/**
 * Subscribes the diagnostics store to the dns store; returns the unsubscribe. Runs the checks again
 *  - when a status shows a new resolver stamp that the findings were not made for (a fixed "no
 *    nameserver line" must not keep Start disabled until "Check again");
 *  - when a status read shows no operation in progress while the findings were taken during one
 *    (shared/doctor.ts findingsDuringOperation). Only on a status read, never when findings land:
 *    a status older than the run could show none yet, and the next read (CADENCE_MS.status) does.
 */
export function followHostForDiagnostics(dns: StoreApi<DnsState>, diagnostics: StoreApi<DiagnosticsState>): () => void {
  return dns.subscribe((s, prev) => {
    const d = diagnostics.getState();
    const stamp = s.status?.resolverStamp;
    if (stamp != null && stamp !== prev.status?.resolverStamp && d.findings !== null && d.forResolver !== stamp) {
      void d.run();
      return;
    }
    if (s.status === prev.status && s.busy === prev.busy) return;
    if (d.running || d.findings === null || !findingsDuringOperation(d.findings) || operationInProgress(s)) return;
    void d.run();
  });
}
