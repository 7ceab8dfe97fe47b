/**
 * New user: a failed start's verify asked for ~15.9 s with no line. Its progress event (a second
 * `running` of the step with detail.waiting, lifecycle/verify.ts onWaiting) is printed on stderr as
 * `verify: …`; a step's first `running` stays unprinted, and --json prints the event as it is.
 */
import { describe, expect, it } from 'vitest';
import type { LifecycleEvent } from '../../shared/lifecycle-events';
import { printEvent } from './print';

const message = 'kubernetes.default.svc.cluster.local through the proxy not answered yet (TIMEOUT); asking again until the verify deadline, 15 s after it began …';
const running: LifecycleEvent = { type: 'step', op: 'start', step: 'verify', status: 'running', message: 'Resolving kubernetes.default.svc.cluster.local and an external name', at: 1 };
const waiting: LifecycleEvent = { type: 'step', op: 'start', step: 'verify', status: 'running', message, at: 2, detail: { waiting: true } };

describe("a step's progress while it waits", () => {
  it('text: on stderr as `verify: …`, nothing on stdout; the first running event prints nothing', () => {
    const out: string[] = [];
    const err: string[] = [];
    for (const e of [running, waiting]) printEvent(e, false, (s) => out.push(s), { steps: [] }, (s) => err.push(s));
    expect(out).toEqual([]);
    expect(err).toEqual([`verify: ${message}`]);
  });

  it('--json: the event as a line on stdout', () => {
    const out: string[] = [];
    const err: string[] = [];
    printEvent(waiting, true, (s) => out.push(s), { steps: [] }, (s) => err.push(s));
    expect(out.map((l) => JSON.parse(l) as unknown)).toEqual([waiting]);
    expect(err).toEqual([]);
  });
});
