/**
 * The capture unit (k2s-dnsproxy-capture.service, capture-unit.ts) as status and `k2s-dns queries`
 * say it once K2s DNS is stopped (pure). `k2s-dns stop` on systemd does not wait for the
 * companion's drain (electron/core/host/capture-companion.ts endLeft): the unit is `deactivating`
 * while its last rows are written, then `inactive`; a companion killed meanwhile (kill -9, the OOM
 * killer) leaves it `failed` (Result=signal) and its last rows unwritten; one that does not end on
 * SIGTERM (stopped, hung) keeps it `deactivating` until TimeoutStopSec= (systemd.service(5)).
 */
import { CAPTURE_TIMEOUT_STOP_S, CAPTURE_UNIT_NAME } from './capture-unit';

/** The unit's state from `systemctl show` (ActiveState=, SubState=, Result=; systemd.unit(5), systemd.service(5)). */
export interface CaptureUnitState {
  /** ActiveState=: `deactivating` or `failed` (captureUnitState drops every other). */
  activeState: string;
  /** SubState=, e.g. `stop-sigterm`, `failed`, `auto-restart`. */
  subState: string;
  /** Result=: `signal`, `timeout`, `exit-code`, `core-dump`, …; `success` while none failed. */
  result: string;
  /** How its last main process ended (`killed by signal KILL`), null when unknown (shared/systemd-show.ts lastExit). */
  lastExit: string | null;
}

/**
 * The state worth a line: `deactivating` or `failed`; null otherwise — `inactive`, and also
 * `activating`/`active`, which a start in progress (its capture starts before the proxy) or a
 * proxy that systemd restarts shows for a moment, and status says those its own way.
 */
export function captureUnitState(s: { activeState: string; subState: string; result: string; lastExit: string | null }): CaptureUnitState | null {
  if (s.activeState !== 'deactivating' && s.activeState !== 'failed') return null;
  return { activeState: s.activeState, subState: s.subState, result: s.result, lastExit: s.lastExit };
}

/** True when the unit's last run may have ended before its last rows were written (failed: killed, timed out, crashed). */
export function lastRowsMayBeMissing(s: CaptureUnitState): boolean {
  return s.activeState === 'failed';
}

/**
 * One line for a stopped K2s DNS whose capture unit is still draining or failed at its last stop
 * (its rows may be incomplete: "miss rows", as the companion's unwritten-rows line says a loss).
 * `reset`: what resets a failed unit (the next start does).
 */
export function captureUnitWords(s: CaptureUnitState, reset = 'the next start resets it'): string {
  const unit = `${CAPTURE_UNIT_NAME}.service`;
  if (s.activeState === 'deactivating') return `The exact query log's companion is still writing its last rows (${unit} ${s.activeState}, ${s.subState}); a start waits for it to end (at most its TimeoutStopSec=, ${CAPTURE_TIMEOUT_STOP_S} s).`;
  return `The exact query log may miss rows of its last run: its companion ended before it wrote them all (${unit} failed, Result=${s.result}${s.lastExit ? `: ${s.lastExit}` : ''}); ${reset}.`;
}

/**
 * start's progress line while its capture waits for the last run's companion to end (the unit
 * `deactivating`: a drain, or a companion hung on SIGTERM that systemd kills at TimeoutStopSec=);
 * null for any other state.
 */
export function captureWaitWords(s: CaptureUnitState | null | undefined): string | null {
  if (s?.activeState !== 'deactivating') return null;
  return `waiting for the exact query log's companion of the last run to end (${CAPTURE_UNIT_NAME}.service ${s.activeState}, ${s.subState}): systemd ends it at its TimeoutStopSec= (${CAPTURE_TIMEOUT_STOP_S} s) at the latest …`;
}
