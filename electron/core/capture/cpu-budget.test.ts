import { describe, expect, it } from 'vitest';
import { budgetShare, CAPTURE_CPU_SHARE, CpuBudget } from './cpu-budget';

/** A clock the test moves: wall and CPU ms. */
function clock() {
  const c = { wall: 1000, cpu: 50, wallMs: () => c.wall, cpuMs: () => c.cpu };
  return c;
}

describe('the parser CPU budget', () => {
  it('within its share it owes nothing; past it, the excess in wall ms at that share', () => {
    const c = clock();
    const b = new CpuBudget(0.05, c);
    c.wall += 100;
    c.cpu += 5; // 5 % of 100 ms: exactly the share
    expect(b.owedMs()).toBe(0);
    c.wall += 100;
    c.cpu += 10; // 15 ms in 200 ms: 15 / 0.05 = 300 ms of wall needed, 100 owed
    expect(b.owedMs()).toBe(100);
  });

  it('a pause that spans the window end is not counted again as idle time of the next window', () => {
    const c = clock();
    const b = new CpuBudget(0.1, c, 1000);
    c.wall += 1000;
    c.cpu += 200; // 200 ms CPU needs 2,000 ms wall at 10 %: 1,000 owed
    expect(b.owedMs()).toBe(1000);
    c.wall += 1000; // the pause
    c.cpu += 0;
    expect(b.owedMs()).toBe(0);
    c.wall += 500;
    c.cpu += 100; // 100 ms in the new window's first 500 ms: owes 500 (with the pause counted as idle it would owe 0)
    expect(b.owedMs()).toBe(500);
  });

  it('over many windows the CPU used stays within the share of the wall time', () => {
    const c = clock();
    const b = new CpuBudget(0.05, c);
    const cpu0 = c.cpu;
    const wall0 = c.wall;
    // A parser that would use a whole core: 2 ms of CPU per 2 ms chunk, pausing when told.
    for (let i = 0; i < 20_000; i++) {
      c.wall += 2;
      c.cpu += 2;
      c.wall += b.owedMs();
    }
    const share = (c.cpu - cpu0) / (c.wall - wall0);
    expect(share).toBeGreaterThan(0.045);
    expect(share).toBeLessThanOrEqual(0.0501);
  });

  it('lifted, or with no share, it owes nothing', () => {
    const c = clock();
    const b = new CpuBudget(0.05, c);
    c.wall += 10;
    c.cpu += 10;
    expect(b.owedMs()).toBe(190);
    b.lift();
    expect(b.owedMs()).toBe(0);
    const none = new CpuBudget(0, c);
    c.cpu += 100;
    expect(none.owedMs()).toBe(0);
  });

  it('K2S_CAPTURE_CPU_SHARE: a share in [0, 1], else the default', () => {
    expect(budgetShare(undefined)).toBe(CAPTURE_CPU_SHARE);
    expect(budgetShare('0')).toBe(0);
    expect(budgetShare('0.25')).toBe(0.25);
    expect(budgetShare('.1')).toBe(0.1);
    expect(budgetShare('1')).toBe(1);
    // Written with a fraction part: still the number it is (1.0 was the default 5 %, not a whole core).
    expect(budgetShare('0.0')).toBe(0);
    expect(budgetShare('1.0')).toBe(1);
    expect(budgetShare('0.50')).toBe(0.5);
    for (const bad of ['', '2', '-0.1', 'abc', '0.5x', '1.5', '1.01', '.', '1.', ' 0.1', 'NaN', 'Infinity', '1e-1']) expect(budgetShare(bad)).toBe(CAPTURE_CPU_SHARE);
  });
});
