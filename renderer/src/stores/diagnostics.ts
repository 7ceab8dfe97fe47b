/** Diagnostics domain store: the doctor findings (`doctor:run`) for the Diagnostics panel. */
import { createStore } from 'zustand/vanilla';
import type { K2sDnsApi } from '../../../shared/api';
import { groupFindings, type DoctorFinding, type DoctorSeverity } from '../../../shared/doctor';
import { rerunAfter } from '../lib/rerun-after';

/** Findings of the last run, whether a run is in flight, and the run action. */
export interface DiagnosticsState {
  findings: DoctorFinding[] | null;
  running: boolean;
  /** Transport/backend failure message of the last run, else null. */
  error: string | null;
  /** When the last successful run finished, ms since the epoch. */
  ranAt: number | null;
  /**
   * The resolver the findings were made for: HostDnsStatus.resolverStamp as the window knew it
   * when the run began (null when unknown). Findings for another stamp are older than the
   * last resolver change (lib/start-gates.ts freshFindings).
   */
  forResolver: string | null;
  /**
   * Runs every doctor check, one run at a time; a call while a run is in flight makes one more run
   * follow it (lib/rerun-after.ts), so findings are never older than the last request.
   */
  run(): Promise<void>;
}

/**
 * Creates the diagnostics store on `api`; `now` gives ms since the epoch (injected for tests);
 * `resolverStamp` the resolver stamp of the newest host status (the dns store's), read when a run begins.
 */
export function createDiagnosticsStore(api: K2sDnsApi, now: () => number = Date.now, resolverStamp: () => string | null = () => null) {
  return createStore<DiagnosticsState>()((set) => ({
    findings: null,
    running: false,
    error: null,
    ranAt: null,
    forResolver: null,
    run: rerunAfter(async () => {
      set({ running: true });
      // Read before the run: a change during it makes the findings count as older (and run again).
      const forResolver = resolverStamp();
      try {
        set({ findings: await api.doctorRun(), error: null, running: false, ranAt: now(), forResolver });
      } catch (err) {
        set({ error: (err as Error).message, running: false });
      }
    }),
  }));
}

/** The findings grouped worst first (error, warn, info, ok), empty groups left out; [] before the first run. */
export function selectGroups(s: DiagnosticsState): { severity: DoctorSeverity; findings: DoctorFinding[] }[] {
  return s.findings ? groupFindings(s.findings) : [];
}
