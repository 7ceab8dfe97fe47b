import { describe, expect, it } from 'vitest';
import { rerunAfter } from './rerun-after';

describe('rerunAfter', () => {
  it('never runs twice at once; calls during a run give exactly one more run after it', async () => {
    const log: string[] = [];
    let active = 0;
    const releases: (() => void)[] = [];
    const guarded = rerunAfter(async () => {
      active++;
      log.push(`begin ${log.length} active ${active}`);
      await new Promise<void>((r) => releases.push(r));
      active--;
    });
    const first = guarded();
    const second = guarded();
    const third = guarded();
    expect(second).toBe(first);
    expect(third).toBe(first);
    releases.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(log).toEqual(['begin 0 active 1', 'begin 1 active 1']);
    releases.shift()!();
    await first;
    expect(releases).toEqual([]);
    // Idle again: the next call starts a fresh run.
    const fourth = guarded();
    expect(fourth).not.toBe(first);
    releases.shift()!();
    await fourth;
    expect(log).toHaveLength(3);
  });

  it('a run that throws rejects its callers and frees the guard', async () => {
    let calls = 0;
    const guarded = rerunAfter(async () => {
      calls++;
      await Promise.resolve();
      if (calls === 1) throw new Error('boom');
    });
    const p = guarded();
    void guarded();
    await expect(p).rejects.toThrow('boom');
    expect(calls).toBe(1);
    await guarded();
    expect(calls).toBe(2);
  });
});
