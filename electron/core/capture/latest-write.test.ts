import { describe, expect, it } from 'vitest';
import { latestOnly } from './latest-write';

describe('latestOnly: the companion\'s loss line (capture.unwritten) while rows are dropped fast', () => {
  it('writes one at a time; lines put while one is written replace each other and the last is written after it', async () => {
    const calls: string[] = [];
    const gates: Array<() => void> = [];
    const w = latestOnly((line) => {
      calls.push(line);
      return new Promise<void>((r) => gates.push(r));
    });
    w.put('1 row not written');
    w.put('2 rows not written');
    w.put('3 rows not written');
    expect(calls).toEqual(['1 row not written']);
    gates.shift()!();
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual(['1 row not written', '3 rows not written']);
    gates.shift()!();
    await w.settled();
    expect(calls).toEqual(['1 row not written', '3 rows not written']);
  });

  it('a write that fails is not thrown, and the next line is still written', async () => {
    const calls: string[] = [];
    const w = latestOnly(async (line) => {
      calls.push(line);
      if (line === 'a') throw new Error('ENOSPC');
    });
    w.put('a');
    await w.settled();
    w.put('b');
    await w.settled();
    expect(calls).toEqual(['a', 'b']);
  });
});
