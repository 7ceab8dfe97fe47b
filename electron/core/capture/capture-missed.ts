/**
 * The packets the exact query log missed while it runs: the kernel's drops (tcpdump's
 * "dropped by kernel", tcpdump-stats.ts), asked for while rows flow and recorded in
 * CAPTURE_MISSED_FILE for status and the Logs view. The companion runs at idle priority
 * (SCHED_IDLE, sched-policy.ts): when DNS keeps the CPU busy the capture gets what is left,
 * and what it cannot take, the kernel drops and counts (its ring is full). Without this file the
 * loss showed only in the companion's stop line (stop-line.ts). CAPTURE_MISSED_FILE is capture-args.ts's.
 */
import { CAPTURE_CPU_SHARE } from './cpu-budget';
import type { TcpdumpStats } from './tcpdump-stats';

/** How often at most the companion asks tcpdump for its counts while rows flow, ms. */
export const MISSED_ASK_MS = 5_000;

/** What CAPTURE_MISSED_FILE records. */
export interface MissedRecord {
  /** Packets the kernel dropped since the capture opened (tcpdump's running count). */
  dropped: number;
  /** ISO time after which they were dropped: the last ask that saw none, or the capture's opening. */
  since: string;
  /** ISO time of the ask that counted them. */
  at: string;
  /** True when the companion runs with SCHED_IDLE (it yields the CPU to DNS). */
  idle: boolean;
}

/** The file's text: `key=value` lines (dropped, since, at, idle 1/0). */
export function missedFileText(r: MissedRecord): string {
  return `dropped=${r.dropped}\nsince=${r.since}\nat=${r.at}\nidle=${r.idle ? 1 : 0}\n`;
}

/** The record in CAPTURE_MISSED_FILE's text; null for an empty or foreign text, or no drops. */
export function parseMissed(text: string): MissedRecord | null {
  const v = (k: string) => new RegExp(`^${k}=(.*)$`, 'm').exec(text)?.[1]?.trim();
  const dropped = v('dropped');
  const since = v('since');
  const at = v('at');
  if (dropped === undefined || !/^\d+$/.test(dropped) || Number(dropped) === 0) return null;
  if (since === undefined || Number.isNaN(Date.parse(since)) || at === undefined || Number.isNaN(Date.parse(at))) return null;
  return { dropped: Number(dropped), since, at, idle: v('idle') === '1' };
}

/**
 * The loss in words, after "The exact query log " / "It ": `missed 1200 packets since
 * 2026-12-05T07:40:12.000Z while the proxy was busy (it runs at idle priority, its parser takes at
 * most 5 % of one core, and it yields the CPU to DNS)` (cpu-budget.ts). The time stays ISO: the CLI and the window show it in local time (shared/clock.ts
 * localTimes).
 */
export function missedWords(r: MissedRecord): string {
  const budget = `its parser takes at most ${Math.round(CAPTURE_CPU_SHARE * 100)} % of one core`;
  const why = r.idle ? `it runs at idle priority, ${budget}, and it yields the CPU to DNS` : `it runs at normal priority: chrt could not set idle priority, see its log; ${budget}`;
  return `missed ${r.dropped} ${r.dropped === 1 ? 'packet' : 'packets'} since ${r.since} while the proxy was busy (${why})`;
}

/** What watchMissed needs. */
export interface MissedDeps {
  /** tcpdump's counts now, null when it does not answer (pipeline.ts stats). */
  stats(): Promise<TcpdumpStats | null>;
  /** Records the loss (CAPTURE_MISSED_FILE); errors are the caller's to swallow. */
  write(r: MissedRecord): Promise<void>;
  /** Runs `fn` once after `ms`; returns its cancel. */
  later(fn: () => void, ms: number): () => void;
  now(): Date;
  idle: boolean;
}

/**
 * Watches the kernel's drops of a running capture. `output()` is called when the parser writes
 * (rows flow): it arms one ask MISSED_ASK_MS later, unless one is armed (or running: then the
 * next is armed when it ends), so an idle host asks nothing and no timer runs. Each ask that finds more drops than recorded rewrites the
 * record; one that finds none moves `since` to now. `stop()` cancels a pending ask (before the
 * capture's own stop asks for the final counts).
 */
export function watchMissed(d: MissedDeps, opened: Date): { output(): void; stop(): void } {
  let since = opened.toISOString();
  let recorded = 0;
  let cancel: (() => void) | null = null;
  let asking = false;
  let again = false;
  let stopped = false;
  const arm = () => {
    cancel = d.later(() => void ask().catch(() => undefined), MISSED_ASK_MS);
  };
  const ask = async () => {
    cancel = null;
    asking = true;
    try {
      const s = await d.stats();
      if (s === null || stopped) return;
      const at = d.now().toISOString();
      if (s.dropped === 0) since = at;
      else if (s.dropped > recorded) {
        recorded = s.dropped;
        await d.write({ dropped: s.dropped, since, at, idle: d.idle });
      }
    } finally {
      asking = false;
      // Rows written while it asked: the next ask is theirs.
      if (again && !stopped) arm();
      again = false;
    }
  };
  return {
    output() {
      if (asking) again = true;
      if (cancel !== null || asking || stopped) return;
      arm();
    },
    stop() {
      stopped = true;
      cancel?.();
      cancel = null;
    },
  };
}
