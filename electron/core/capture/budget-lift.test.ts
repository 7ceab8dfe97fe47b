import { execFileSync } from 'node:child_process';
import { closeSync, constants as fsc, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LIFT_FD, liftFd, onBudgetLift } from './budget-lift';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A FIFO (mkfifo(1)) opened at both ends: [read fd, write fd]. */
function pipe(): [number, number] {
  const dir = mkdtempSync(path.join(tmpdir(), 'k2s-lift-'));
  dirs.push(dir);
  const fifo = path.join(dir, 'lift');
  execFileSync('mkfifo', [fifo]);
  const r = openSync(fifo, fsc.O_RDONLY | fsc.O_NONBLOCK);
  return [r, openSync(fifo, fsc.O_WRONLY)];
}

/** Resolves with the number of lifts once `lifts` reached 1, or after the FIFO's end was surely read (a later turn). */
function lifted(count: () => number): Promise<number> {
  return new Promise((resolve) => {
    const check = () => (count() > 0 ? resolve(count()) : setImmediate(check));
    check();
  });
}

describe('the parser budget lift pipe', () => {
  it('lifts once when the companion ends its end of the pipe', async () => {
    const [r, w] = pipe();
    let lifts = 0;
    expect(onBudgetLift(r, () => lifts++)).toBe(true);
    expect(lifts).toBe(0);
    closeSync(w);
    expect(await lifted(() => lifts)).toBe(1);
  });

  it('an end that came before the parser listened still lifts (a stop right after the start; SIGUSR2 killed the parser then)', async () => {
    const [r, w] = pipe();
    closeSync(w);
    let lifts = 0;
    expect(onBudgetLift(r, () => lifts++)).toBe(true);
    expect(await lifted(() => lifts)).toBe(1);
  });

  it('no pipe at the fd (started by hand or by the bench): nothing is watched, nothing thrown', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'k2s-lift-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'f'), 'x');
    const f = openSync(path.join(dir, 'f'), 'r');
    let lifts = 0;
    expect(onBudgetLift(f, () => lifts++)).toBe(false);
    closeSync(f);
    expect(onBudgetLift(f, () => lifts++)).toBe(false);
    expect(lifts).toBe(0);
  });

  it('fd 3 is the lift pipe only when K2S_CAPTURE_LIFT_FD says so (pipeline.ts sets it)', () => {
    expect(LIFT_FD).toBe(3);
    expect(liftFd('3')).toBe(3);
    for (const v of [undefined, '', '4', ' 3', '3 ']) expect(liftFd(v)).toBeNull();
  });
});
