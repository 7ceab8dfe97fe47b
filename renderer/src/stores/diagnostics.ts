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
   * Runs every doctor check, one run at a time; a call while a run is in flight makes one more run
   * follow it (lib/rerun-after.ts), so findings are never older than the last request.
   */
  run(): Promise<void>;
}

/** Creates the diagnostics store on `api`; `now` gives ms since the epoch (injected for tests). */
export function createDiagnosticsStore(api: K2sDnsApi, now: () => number = Date.now) {
  return createStore<DiagnosticsState>()((set) => ({
    findings: null,
    running: false,
    error: null,
    ranAt: null,
    run: rerunAfter(async () => {
      set({ running: true });
      try {
        set({ findings: await api.doctorRun(), error: null, running: false, ranAt: now() });
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
