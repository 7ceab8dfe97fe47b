/** Folds lifecycle events into the step timeline the Host DNS panel draws. */
import { START_STEPS, type LifecycleEvent, type Operation, type ResultEvent, type StepEvent, type StepName } from '../../../shared/lifecycle-events';

/** One row of the timeline; `pending` until its first event arrives. */
export interface TimelineStep {
  step: StepName;
  status: StepEvent['status'] | 'pending';
  message: string;
  /** ms since the epoch of the latest event, null while pending. */
  at: number | null;
}

/** The timeline of the latest operation. */
export interface Timeline {
  op: Operation | null;
  steps: TimelineStep[];
  result: ResultEvent | null;
  /** The step that failed (the rollback's cause), if any. */
  failed: TimelineStep | null;
}

/** Steps shown before any event arrives, per operation. */
const PLANNED: Record<Operation, StepName[]> = {
  start: [...START_STEPS],
  stop: ['restore', 'stop-service'],
  uninstall: ['restore', 'stop-service', 'remove-files'],
};

/** Builds the timeline from the events of the latest operation (earlier operations ignored). */
export function buildTimeline(events: readonly LifecycleEvent[]): Timeline {
  const last = events.at(-1);
  if (!last) return { op: null, steps: [], result: null, failed: null };
  const op = last.op;
  // The latest operation starts after the previous result event.
  let from = 0;
  for (let i = events.length - 2; i >= 0; i--) {
    if (events[i]!.type === 'result') {
      from = i + 1;
      break;
    }
  }
  const ops = events.slice(from).filter((e) => e.op === op);
  const steps = new Map<StepName, TimelineStep>(PLANNED[op].map((s) => [s, { step: s, status: 'pending', message: '', at: null }]));
  let result: ResultEvent | null = null;
  for (const e of ops) {
    if (e.type === 'result') result = e;
    else steps.set(e.step, { step: e.step, status: e.status, message: e.message, at: e.at });
  }
  const list = [...steps.values()];
  // A rolled-back start never reaches the later steps: drop them instead of showing "pending".
  const rolledBack = steps.has('rollback');
  const shown = rolledBack ? list.filter((s) => s.status !== 'pending') : list;
  return { op, steps: shown, result, failed: shown.find((s) => s.status === 'failed') ?? null };
}
