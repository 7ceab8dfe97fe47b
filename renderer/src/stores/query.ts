/** Query domain store: the tester's form, result, cross-target comparison and history. */
import { createStore } from 'zustand/vanilla';
import type { K2sDnsApi } from '../../../shared/api';
import type { QueryTarget } from '../../../shared/contract';
import type { QueryResult, QueryType } from '../../../shared/types';

/** Results kept in the history list, newest first. */
export const MAX_HISTORY = 50;

/** The form as the user fills it. */
export interface QueryForm {
  name: string;
  type: QueryType;
  target: string;
  transport: 'udp' | 'tcp';
}

/** Query tester state and actions. */
export interface QueryState {
  targets: QueryTarget[];
  form: QueryForm;
  result: QueryResult | null;
  comparison: QueryResult[] | null;
  history: QueryResult[];
  running: boolean;
  error: string | null;
  loadTargets(): Promise<void>;
  setForm(patch: Partial<QueryForm>): void;
  run(): Promise<void>;
  /** Runs the form's query against every target, side by side. */
  compareAll(): Promise<void>;
}

/** Creates the query store on `api`. */
export function createQueryStore(api: K2sDnsApi) {
  return createStore<QueryState>()((set, get) => {
    const guarded = async (fn: () => Promise<void>) => {
      if (get().running) return;
      set({ running: true, error: null });
      try {
        await fn();
      } catch (err) {
        // A refused query must not leave the previous answer on screen as if it were this one's;
        // the contract's "Invalid input for query:run: name: …" is shown as the field's message.
        set({ error: (err as Error).message.replace(/^Invalid input for [a-z:]+: /, ''), result: null, comparison: null });
      } finally {
        set({ running: false });
      }
    };
    const remember = (results: QueryResult[]) => set((s) => ({ history: [...results, ...s.history].slice(0, MAX_HISTORY) }));
    return {
      targets: [],
      form: { name: 'kubernetes.default.svc.cluster.local', type: 'A', target: 'proxy', transport: 'udp' },
      result: null,
      comparison: null,
      history: [],
      running: false,
      error: null,
      async loadTargets() {
        try {
          set({ targets: await api.queryTargets() });
        } catch (err) {
          set({ error: (err as Error).message });
        }
      },
      setForm: (patch) => set((s) => ({ form: { ...s.form, ...patch } })),
      run: () =>
        guarded(async () => {
          const result = await api.queryRun(get().form);
          set({ result, comparison: null });
          remember([result]);
        }),
      compareAll: () =>
        guarded(async () => {
          const { form, targets } = get();
          const results = await Promise.all(targets.map((t) => api.queryRun({ ...form, target: t.id })));
          set({ comparison: results, result: null });
          remember(results);
        }),
    };
  });
}
