import { describe, expect, it } from 'vitest';
import type { LifecycleEvent } from '../../shared/lifecycle-events';
import { stepsAndWaits } from './lifecycle';

const step = (s: string, status: string, at: number) => ({ type: 'step', op: 'start', step: s, status, message: '', at }) as LifecycleEvent;

describe('bench rows of a start: steps and the waits between them', () => {
  it('the waits between steps (journal write before a step, work between steps, before the result) add up with the steps to total', () => {
    const events: LifecycleEvent[] = [
      step('preflight', 'running', 1000),
      step('preflight', 'done', 1040),
      step('save', 'running', 1049),
      step('save', 'done', 1052),
      step('service', 'running', 1060),
      step('service', 'running', 1070),
      step('service', 'done', 1150),
      step('ready', 'done', 1175),
      { type: 'result', op: 'start', ok: true, exitCode: 0, message: '', at: 1180 } as LifecycleEvent,
    ];
    const rows = stepsAndWaits(events);
    expect(Object.entries(rows)).toEqual([
      ['preflight', 40],
      ['wait → save', 9],
      ['save', 3],
      ['wait → service', 8],
      ['service', 90],
      ['wait → ready', 25],
      ['ready', 0],
      ['wait → result', 5],
      ['waits', 47],
      ['total', 180],
    ]);
    expect(rows.preflight! + rows.save! + rows.service! + rows.ready! + rows.waits!).toBe(rows.total);
  });
});
