/** Query domain store: the tester's form, result, cross-target comparison and history. */
import { createStore } from 'zustand/vanilla';
import type { K2sDnsApi } from '../../../shared/api';
import type { QueryTarget } from '../../../shared/contract';
import type { QueryResult, QueryType } from '../../../shared/types';
import { validateQuery } from '../lib/query-validate';
import { latestRequest } from '../lib/latest-request';
import { targetOf } from '../lib/query-target';

/** Results kept in the history list, newest first. */
export const MAX_HISTORY = 50;

/** The form as the user fills it. */
export interface QueryForm {
  name: string;
  type: QueryType;
  target: string;
  transport: 'udp' | 'tcp';
}

/** One name glibc's search list turns a short name into, and what the form's target said for it. */
export interface Candidate {
  name: string;
  result: QueryResult | null;
}

/** Query tester state and actions. */
export interface QueryState {
  targets: QueryTarget[];
  form: QueryForm;
  result: QueryResult | null;
  comparison: QueryResult[] | null;
  /** The search-list expansion of the last short name, each asked as an absolute name; null when not a short name. */
  candidates: Candidate[] | null;
  history: QueryResult[];
  running: boolean;
  /** What the running call is doing, e.g. "Asking System resolver…" (the in-flight indicator); null when idle. */
  inFlight: string | null;
  /** Why the form was not sent, or the backend's message; one sentence. */
  error: string | null;
  loadTargets(): Promise<void>;
  setForm(patch: Partial<QueryForm>): void;
  run(): Promise<void>;
  /** Runs the form's query against every target, side by side. */
  compareAll(): Promise<void>;
  /**
   * Asks `target` (a target id; default the form's) each of `names` as an absolute name
   * (trailing dot: no second search), for the result or comparison shown now.
   */
  tryCandidates(names: string[], target?: string): Promise<void>;
  /** Puts a history row back in the form (name, type, target, transport) and runs it again. */
  rerun(row: QueryResult): Promise<void>;
}

/** Creates the query store on `api`. */
export function createQueryStore(api: K2sDnsApi) {
  const targetRequests = latestRequest();
  return createStore<QueryState>()((set, get) => {
    const labelOf = (id: string) => get().targets.find((t) => t.id === id)?.label ?? id;
    const guarded = async (fn: () => Promise<void>, doing: string) => {
      if (get().running) return;
      set({ running: true, error: null, inFlight: doing });
      try {
        await fn();
      } catch (err) {
        // A refused query must not leave the previous answer on screen as if it were this one's;
        // the contract's "Invalid input for query:run: name: …" is shown as the field's message.
        set({ error: (err as Error).message.replace(/^Invalid input for [a-z:]+: /, ''), result: null, comparison: null });
      } finally {
        set({ running: false, inFlight: null });
      }
    };
    // Refused before sending: the message says what to enter instead (lib/query-validate.ts).
    const invalid = (): boolean => {
      const { name, type, target } = get().form;
      const problem = validateQuery(name, type, target);
      if (problem) set({ error: problem, result: null, comparison: null, candidates: null });
      return problem !== null;
    };
    const remember = (results: QueryResult[]) => set((s) => ({ history: [...results, ...s.history].slice(0, MAX_HISTORY) }));
    return {
      targets: [],
      // The system resolver first: it is what host apps use, so it answers "does this work here?".
      form: { name: 'kubernetes.default.svc.cluster.local', type: 'A', target: 'system', transport: 'udp' },
      result: null,
      comparison: null,
      candidates: null,
      history: [],
      running: false,
      inFlight: null,
      error: null,
      async loadTargets() {
        const isLatest = targetRequests.begin();
        try {
          const targets = await api.queryTargets();
          if (isLatest()) set({ targets });
        } catch (err) {
          if (isLatest()) set({ error: (err as Error).message });
        }
      },
      setForm: (patch) => set((s) => ({ form: { ...s.form, ...patch } })),
      run: async () => {
        if (invalid()) return;
        const form = { ...get().form, name: get().form.name.trim() };
        await guarded(async () => {
          const result = await api.queryRun(form);
          set({ result, comparison: null, candidates: null });
          remember([result]);
        }, `Asking ${labelOf(form.target)} for ${form.name} ${form.type}…`);
      },
      compareAll: async () => {
        if (invalid()) return;
        await guarded(async () => {
          const { form, targets } = get();
          const results = await Promise.all(targets.map((t) => api.queryRun({ ...form, name: form.name.trim(), target: t.id })));
          set({ comparison: results, result: null, candidates: null });
          remember(results);
        }, `Asking all ${get().targets.length} targets…`);
      },
      // Not behind the one-at-a-time guard: it follows a run() that may still be finishing.
      async tryCandidates(names, target) {
        const form = target ? { ...get().form, target } : get().form;
        set({ candidates: names.map((name) => ({ name, result: null })) });
        // The candidates belong to this result (or comparison): a newer query clears them, and
        // late answers must not bring them back under it.
        const forResult = get().result ?? get().comparison;
        try {
          const results = await Promise.all(names.map((name) => api.queryRun({ ...form, name: `${name}.` })));
          if ((get().result ?? get().comparison) === forResult) set({ candidates: names.map((name, i) => ({ name, result: results[i]! })) });
        } catch (err) {
          if ((get().result ?? get().comparison) === forResult) set({ candidates: null, error: (err as Error).message.replace(/^Invalid input for [a-z:]+: /, '') });
        }
      },
      async rerun(row) {
        const target = targetOf(get().targets, row.server)?.id ?? get().form.target;
        const transport = row.transport === 'tcp' ? 'tcp' : 'udp';
        set((s) => ({ form: { ...s.form, name: row.name, type: row.type, target, transport } }));
        await get().run();
      },
    };
  });
}
