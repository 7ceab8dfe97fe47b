import { describe, expect, it } from 'vitest';
import { MISSED_ASK_MS, missedFileText, missedWords, parseMissed, watchMissed, type MissedRecord } from './capture-missed';
import type { TcpdumpStats } from './tcpdump-stats';

const REC: MissedRecord = { dropped: 1200, since: '2026-12-05T07:40:12.000Z', at: '2026-12-05T07:40:17.000Z', idle: true };

describe('CAPTURE_MISSED_FILE', () => {
  it('round-trips through its text', () => {
    expect(missedFileText(REC)).toBe('dropped=1200\nsince=2026-12-05T07:40:12.000Z\nat=2026-12-05T07:40:17.000Z\nidle=1\n');
    expect(parseMissed(missedFileText(REC))).toEqual(REC);
    expect(parseMissed(missedFileText({ ...REC, idle: false }))).toEqual({ ...REC, idle: false });
  });
  it('is null for no drops, an empty or foreign text, or a bad time', () => {
    expect(parseMissed('')).toBeNull();
    expect(parseMissed('12 rows not written (no space left on /var/log/dnsproxy)')).toBeNull();
    expect(parseMissed(missedFileText({ ...REC, dropped: 0 }))).toBeNull();
    expect(parseMissed(missedFileText(REC).replace('since=2026-12-05T07:40:12.000Z', 'since=yesterday'))).toBeNull();
    expect(parseMissed(missedFileText(REC).replace('dropped=1200', 'dropped=-3'))).toBeNull();
  });
  it('says the loss, why, and what the priority trades', () => {
    expect(missedWords(REC)).toBe('missed 1200 packets since 2026-12-05T07:40:12.000Z while the proxy was busy (it runs at idle priority, its parser takes at most 5 % of one core, and it yields the CPU to DNS)');
    expect(missedWords({ ...REC, dropped: 1, idle: false })).toBe('missed 1 packet since 2026-12-05T07:40:12.000Z while the proxy was busy (it runs at normal priority: chrt could not set idle priority, see its log; its parser takes at most 5 % of one core)');
  });
});

/** A watch over scripted tcpdump answers, with a hand-run clock: `fire()` runs the armed ask. */
function harness(answers: (TcpdumpStats | null)[]) {
  let t = Date.parse('2026-12-05T07:40:00.000Z');
  const timers: { fn: () => void; ms: number; cancelled: boolean }[] = [];
  const written: MissedRecord[] = [];
  let asks = 0;
  const w = watchMissed(
    {
      stats: async () => {
        asks++;
        return answers.shift() ?? null;
      },
      write: async (r) => void written.push(r),
      later: (fn, ms) => {
        const timer = { fn, ms, cancelled: false };
        timers.push(timer);
        return () => (timer.cancelled = true);
      },
      now: () => new Date(t),
      idle: true,
    },
    new Date(t),
  );
  const armed = () => timers.filter((x) => !x.cancelled);
  /** Advances the clock by the armed timer's delay and runs it (then lets its ask settle). */
  const fire = async () => {
    const timer = armed()[0];
    if (!timer) throw new Error('nothing armed');
    timers.splice(timers.indexOf(timer), 1);
    t += timer.ms;
    timer.fn();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { w, fire, armed, written, asks: () => asks };
}

describe('watchMissed', () => {
  it('an idle capture arms nothing and asks nothing; output arms one ask MISSED_ASK_MS later, however many rows come', async () => {
    const h = harness([{ captured: 10, received: 10, dropped: 0 }]);
    expect(h.armed()).toHaveLength(0);
    h.w.output();
    h.w.output();
    h.w.output();
    expect(h.armed().map((x) => x.ms)).toEqual([MISSED_ASK_MS]);
    await h.fire();
    expect(h.asks()).toBe(1);
    // No rows since: nothing armed again.
    expect(h.armed()).toHaveLength(0);
    expect(h.written).toEqual([]);
  });

  it('records drops with the time of the last ask that saw none, and rewrites only when they grow', async () => {
    const h = harness([
      { captured: 100, received: 100, dropped: 0 },
      { captured: 200, received: 500, dropped: 300 },
      { captured: 300, received: 800, dropped: 300 },
      { captured: 400, received: 1000, dropped: 450 },
    ]);
    for (let i = 0; i < 4; i++) {
      h.w.output();
      await h.fire();
    }
    expect(h.asks()).toBe(4);
    expect(h.written).toEqual([
      { dropped: 300, since: '2026-12-05T07:40:05.000Z', at: '2026-12-05T07:40:10.000Z', idle: true },
      { dropped: 450, since: '2026-12-05T07:40:05.000Z', at: '2026-12-05T07:40:20.000Z', idle: true },
    ]);
  });

  it('drops at the first ask are since the capture opened; a tcpdump that does not answer records nothing', async () => {
    const h = harness([null, { captured: 1, received: 8, dropped: 7 }]);
    h.w.output();
    await h.fire();
    expect(h.written).toEqual([]);
    h.w.output();
    await h.fire();
    expect(h.written).toEqual([{ dropped: 7, since: '2026-12-05T07:40:00.000Z', at: '2026-12-05T07:40:10.000Z', idle: true }]);
  });

  it('rows written while it asks arm the next ask when it ends', async () => {
    let answer!: (s: TcpdumpStats) => void;
    const timers: (() => void)[] = [];
    const w = watchMissed({ stats: () => new Promise((r) => (answer = r)), write: async () => undefined, later: (fn) => (timers.push(fn), () => undefined), now: () => new Date(0), idle: true }, new Date(0));
    w.output();
    timers.shift()!();
    w.output();
    expect(timers).toHaveLength(0);
    answer({ captured: 1, received: 1, dropped: 0 });
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(timers).toHaveLength(1);
  });

  it('stop cancels the armed ask, and output after it arms nothing', async () => {
    const h = harness([{ captured: 1, received: 9, dropped: 8 }]);
    h.w.output();
    h.w.stop();
    expect(h.armed()).toHaveLength(0);
    h.w.output();
    expect(h.armed()).toHaveLength(0);
    expect(h.asks()).toBe(0);
  });
});
