/** Folds lifecycle events into the step timeline the Host DNS panel draws. */
import { EXIT, START_STEPS, type LifecycleEvent, type Operation, type ResultEvent, type StepEvent, type StepName } from '../../../shared/lifecycle-events';
import { firstSentence } from './first-sentence';

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
  /** The step that failed (the rollback's or refusal's cause), if any. */
  failed: TimelineStep | null;
  /**
   * How the operation ended: `refused` = exit 3, nothing was changed (EXIT.refused);
   * `rolled-back` only when a `rollback` step event arrived; `failed` otherwise; `warned` =
   * succeeded, but the result carries warnings (e.g. an upstream that never answered);
   * `unchanged` = a start that found K2s DNS already running and changed nothing (its save step
   * skipped: start.ts `alreadyRunning`), e.g. pressed while degraded — never "done".
   */
  outcome: 'running' | 'done' | 'unchanged' | 'warned' | 'refused' | 'rolled-back' | 'failed' | null;
}

/** The message of the synthetic first step while the privileged helper starts (no event yet). */
export const HELPER_STARTING = 'starting the privileged helper…';

/** Message of a step that finished before this window followed the operation. */
export const EARLIER = 'done before this window followed the operation';

/** Message of a step of a successful operation that this window never saw (run from the CLI). */
export const OUTSIDE = 'done outside this window';

/** Order of step states: a step never moves to a lower rank. */
const RANK: Record<TimelineStep['status'], number> = { pending: 0, running: 1, done: 2, failed: 2, skipped: 2 };

/** Steps shown before any event arrives, per operation. */
const PLANNED: Record<Operation, StepName[]> = {
  start: [...START_STEPS],
  stop: ['restore', 'stop-service'],
  uninstall: ['restore', 'stop-service', 'remove-files'],
  // `k2s-dns recover` runs in the CLI only (its steps carry the interrupted operation's op): its one step.
  recover: ['recover'],
};

/**
 * Builds the timeline from the events of the latest operation (earlier operations ignored).
 * `busy` is the operation the user just started: until its first event arrives (the helper
 * takes ~2 s to start) its first step shows as running with HELPER_STARTING.
 */
export function buildTimeline(events: readonly LifecycleEvent[], busy: Operation | null = null): Timeline {
  const last = events.at(-1);
  if (busy && (!last || last.type === 'result')) {
    const steps: TimelineStep[] = PLANNED[busy].map((s, i) => ({ step: s, status: i === 0 ? 'running' : 'pending', message: i === 0 ? HELPER_STARTING : '', at: null }));
    return { op: busy, steps, result: null, failed: null, outcome: 'running' };
  }
  if (!last) return { op: null, steps: [], result: null, failed: null, outcome: null };
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
    // Never backwards: a late or replayed `running` does not undo a step already done/failed/skipped.
    else if (RANK[e.status] >= RANK[steps.get(e.step)?.status ?? 'pending']) steps.set(e.step, { step: e.step, status: e.status, message: e.message, at: e.at });
  }
  // Steps before the latest one reached ran before this window followed the operation
  // (a reload mid-start, or a start from the CLI replayed from the journal): they are done.
  const planned = PLANNED[op];
  const reached = planned.reduce((acc, name, i) => (steps.get(name)?.status !== 'pending' ? i : acc), -1);
  for (let i = 0; i < reached; i++) {
    const st = steps.get(planned[i]!)!;
    if (st.status === 'pending') steps.set(st.step, { ...st, status: 'done', message: EARLIER });
  }
  // A successful result closes the operation: a step still shown running (followed from the
  // journal) or never seen by this window ran all the same.
  if (result?.ok) {
    for (const st of steps.values()) if (st.status === 'running' || st.status === 'pending') steps.set(st.step, { ...st, status: 'done', message: st.status === 'running' ? st.message : OUTSIDE });
  }
  const list = [...steps.values()];
  const rolledBack = steps.has('rollback');
  const refused = result !== null && !result.ok && result.exitCode === EXIT.refused;
  // A rolled-back or refused start never reaches the later steps: drop them instead of showing "pending".
  const shown = rolledBack || refused ? list.filter((s) => s.status !== 'pending') : list;
  const unchanged = op === 'start' && steps.get('save')?.status === 'skipped';
  const outcome = result === null ? 'running' : result.ok ? (result.warnings?.length ? 'warned' : unchanged ? 'unchanged' : 'done') : rolledBack ? 'rolled-back' : refused ? 'refused' : 'failed';
  return { op, steps: shown, result, failed: shown.find((s) => s.status === 'failed') ?? null, outcome };
}

/** A row of the drawn timeline: one step, or a run of steps this window did not see, as one line. */
export type TimelineRow =
  | { kind: 'step'; step: TimelineStep }
  | {
      kind: 'unseen';
      /** The steps folded into this row, in order (2 or more). */
      steps: TimelineStep[];
      /** `preflight … ready`: the first and last step folded. */
      name: string;
      /** `8 steps done outside this window, seen at HH:MM:SS` and the like. */
      text: string;
    };

/**
 * The timeline's rows: consecutive steps that this window did not see (OUTSIDE: an operation
 * run from the CLI between two status polls; EARLIER: before it followed one) become one line
 * with their count and when the window saw it, instead of the same words once per step (a CLI
 * start drew "done outside this window" eight times). `seenAt` names the time (lib/last-known
 * timeText); a single such step stays a step row.
 */
export function timelineRows(t: Timeline, seenAt: (ms: number) => string): TimelineRow[] {
  const rows: TimelineRow[] = [];
  const unseen = (s: TimelineStep) => s.status === 'done' && (s.message === OUTSIDE || s.message === EARLIER);
  for (let i = 0; i < t.steps.length; ) {
    const s = t.steps[i]!;
    let j = i;
    while (j < t.steps.length && unseen(t.steps[j]!) && t.steps[j]!.message === s.message) j++;
    if (j - i < 2) {
      rows.push({ kind: 'step', step: s });
      i += 1;
      continue;
    }
    const run = t.steps.slice(i, j);
    // OUTSIDE: seen when the result arrived; EARLIER: before the first step this window saw.
    const next = t.steps[j];
    const when = s.message === OUTSIDE ? (t.result ? `, seen at ${seenAt(t.result.at)}` : '') : next?.at != null ? `, before ${seenAt(next.at)}` : '';
    rows.push({ kind: 'unseen', steps: run, name: `${run[0]!.step} … ${run.at(-1)!.step}`, text: `${run.length} steps ${s.message}${when}` });
    i = j;
  }
  return rows;
}

/**
 * What follows a successful result shown under a red or amber verdict checked after it: the
 * result is history. A start that found K2s DNS already running (its steps skipped) changed
 * nothing, so it was never "so" — say that Start does not fix what the verdict names. Null for
 * a Stop or Uninstall: their claim (the resolver put back, the proxy stopped) is not the running
 * state a later verdict judges, and a "stopped" or "does not resolve" verdict does not undo it
 * (walk 5 M6: "…the host resolver is back as it was. — no longer so"): such a result stays as it is.
 */
export function staleResultSuffix(t: Pick<Timeline, 'op' | 'steps'>): string | null {
  if (t.op !== 'start') return null;
  const alreadyRunning = t.steps.some((s) => s.step === 'save' && s.status === 'skipped');
  return alreadyRunning ? ' — Start found K2s DNS running and changed nothing; what is wrong is in the verdict above.' : ' — no longer so: see the verdict above.';
}

/**
 * A step row's text: its message, or a pointer to the result when the result repeats the whole
 * message and it says more than one sentence (stop's restore note is also the result's). Walk 11
 * L5 kept its first sentence; walk 12 M3: that sentence ("Kept … the copy saved at start was
 * discarded") then stood twice, so the row now says only where the words are. A one-sentence step
 * stays whole. A failed step (a rolled-back start's verify) says it failed, never "Done" (walk 24).
 */
export function stepText(step: Pick<TimelineStep, 'message'> & Partial<Pick<TimelineStep, 'status'>>, result: Pick<ResultEvent, 'message'> | null): string {
  if (!result || step.message === '' || !result.message.includes(step.message)) return step.message;
  const { more } = firstSentence(step.message);
  return more ? (step.status === 'failed' ? STEP_FAILED_IN_RESULT : STEP_IN_RESULT) : step.message;
}

/** A step row whose words the result line below says in full (stepText). */
export const STEP_IN_RESULT = 'Done: the result below says what it did.';

/** A failed step row whose cause the result line below says in full (stepText). */
export const STEP_FAILED_IN_RESULT = 'Failed: the result below says why.';

/** Where stop's result gives the way out of a kept file start refuses (electron/core/lifecycle/teardown.ts). */
const REPLACE_FIX = ': replace it with a resolver file first (';

/**
 * A stop result's message without the fix for a kept /etc/resolv.conf that start refuses (": replace
 * it with a resolver file first (…)." → ": the verdict above says how to replace it."), while the
 * verdict's own fix is that one (`verdictAction` `replace-resolver`, shared/health.ts): the fix
 * once per screen (walk 12 M3). Any other message, or another verdict, as it is. The parentheses
 * are matched, as the ways inside them may hold some.
 */
export function withoutVerdictFix(message: string, verdictAction: string | null | undefined): string {
  const i = message.indexOf(REPLACE_FIX);
  if (verdictAction !== 'replace-resolver' || i < 0) return message;
  let depth = 0;
  for (let j = i + REPLACE_FIX.length - 1; j < message.length; j++) {
    if (message[j] === '(') depth++;
    else if (message[j] === ')' && --depth === 0) {
      if (message[j + 1] !== '.') return message;
      return `${message.slice(0, i)}: the verdict above says how to replace it.${message.slice(j + 2)}`;
    }
  }
  return message;
}
