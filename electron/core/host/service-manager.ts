/**
 * Runs the proxy as a service: systemd when the host has it, else a supervised detached process
 * with a pidfile (docs/host-facts.md "Service manager"). Both use the same log path. The choice
 * between them is detect-service-manager.ts.
 */
import type { ServiceSpec } from '../../../shared/systemd-unit';

export type { ServiceSpec } from '../../../shared/systemd-unit';

/** Starts, stops and reports the one k2s-dnsproxy service. */
export interface ServiceManager {
  kind: 'systemd' | 'supervised';
  /** Starts (or restarts, to apply a new config) the service; pid when known. Throws with the cause. */
  start(spec: ServiceSpec): Promise<{ pid: number | null }>;
  /** Stops the service; no error when it is not running. */
  stop(): Promise<void>;
  /** Whether the service runs now, and its main pid. */
  /** `restarting` while its manager restarts it after an exit (systemd auto-restart). */
  status(): Promise<{ running: boolean; pid: number | null; restarting?: boolean }>;
}
