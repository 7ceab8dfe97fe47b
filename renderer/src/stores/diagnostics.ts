/** Diagnostics domain store: the doctor findings (`doctor:run`) for the Diagnostics panel. */
import { createStore } from 'zustand/vanilla';
import type { K2sDnsApi } from '../../../shared/api';
import { groupFindings, type DoctorFinding, type DoctorSeverity } from '../../../shared/doctor';

/** Findings of the last run, whether a run is in flight, and the run action. */
export interface DiagnosticsState {
  findings: DoctorFinding[] | null;
  running: boolean;
  /** Transport/backend failure message of the last run, else null. */
  error: string | null;
  /** When the last successful run finished, ms since the epoch. */
  ranAt: number | null;
  /** Runs every doctor check; ignored while a run is in flight (one at a time). */
  run(): Promise<void>;
}

/** Creates the diagnostics store on `api`; `now` gives ms since the epoch (injected for tests). */
export function createDiagnosticsStore(api: K2sDnsApi, now: () => number = Date.now) {
  return createStore<DiagnosticsState>()((set, get) => ({
    findings: null,
    running: false,
    error: null,
    ranAt: null,
    async run() {
      if (get().running) return;
      set({ running: true });
      try {
        set({ findings: await api.doctorRun(), error: null, running: false, ranAt: now() });
      } catch (err) {
        set({ error: (err as Error).message, running: false });
      }
    },
  }));
}

/** The findings grouped worst first (error, warn, info, ok), empty groups left out; [] before the first run. */
export function selectGroups(s: DiagnosticsState): { severity: DoctorSeverity; findings: DoctorFinding[] }[] {
  return s.findings ? groupFindings(s.findings) : [];
}
