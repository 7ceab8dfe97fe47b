/**
 * Releases unanswered queries on a timer, not on the next packet. The pairing (pairing.ts) ends a
 * query no answer came for once expireUs (30 s) of capture time have passed, and capture time
 * moves only with packets: on an idle host, or with the upstream down and nothing else asked,
 * the `no answer` row of the query a user is looking for waited for some unrelated packet.
 *
 * One timer for the oldest waiting query (none while nothing waits, so an idle capture costs
 * nothing): it fires RELEASE_MARGIN_MS after that query's expireUs have passed on the wall clock,
 * and ends every query older than expireUs at (now − RELEASE_MARGIN_MS). The margin covers the
 * kernel's ring block timeout (shared/capture-block.ts): an answer the kernel took in time is
 * then already parsed. Packet time stamps are the kernel's wall clock (pcap), so Date.now()
 * compares with them. While the CPU budget holds the input back (cpu-budget.ts, rows-main.ts) the
 * timer releases nothing: the packets waiting in the pipe come first and carry the time.
 */
import { BLOCK_TIMEOUT_MS } from '../../../shared/capture-block';

/** ms past a query's expiry (and the ring block timeout) before the timer releases it. */
export const RELEASE_MARGIN_MS = BLOCK_TIMEOUT_MS + 1000;

/**
 * Least ms between two releases: each scans the waiting queries (pairing.ts expire), so a flood
 * of unanswered queries 1 ms apart costs one scan a second, as the packets' own expiry does.
 */
export const RELEASE_EVERY_MS = 1000;

/** What the release needs: the parser's rows (pcap-rows.ts PcapRows), clocks and hooks. */
export interface IdleReleaseOptions {
  rows: { oldestOpenUs(): number | null; expire(nowUs: number): void; readonly expireUs: number };
  /** Whether the input is being read now (false while the CPU budget pauses it): nothing is released while it is not. */
  reading(): boolean;
  /** Called after a release (the rows it emitted are then written out: rows-main.ts flush). */
  released(): void;
  /** Wall clock, ms since the epoch (default Date.now). */
  nowMs?(): number;
}

/** The one release timer of a parser process (see the file comment). */
export class IdleRelease {
  private timer: NodeJS.Timeout | undefined;
  /** Wall clock of the last release, ms (RELEASE_EVERY_MS apart at least). */
  private lastMs = -Infinity;
  private readonly nowMs: () => number;

  constructor(private readonly o: IdleReleaseOptions) {
    this.nowMs = o.nowMs ?? Date.now;
  }

  /**
   * Sets the timer for the oldest waiting query, unless it is set or nothing waits. Call after
   * each chunk of input and when the input is read again; cheap (no work while a timer is set).
   */
  arm(): void {
    if (this.timer !== undefined) return;
    const oldest = this.o.rows.oldestOpenUs();
    if (oldest === null) return;
    const now = this.nowMs();
    const due = Math.ceil(Math.max(oldest / 1000 + this.o.rows.expireUs / 1000 + RELEASE_MARGIN_MS, this.lastMs + RELEASE_EVERY_MS) - now);
    // At most one expiry window ahead: a query stamped later than the wall clock (the clock
    // stepped back after its capture) would ask for more than setTimeout's 2^31 - 1 ms, which
    // Node runs after 1 ms (TimeoutOverflowWarning): a loop of scans that release nothing.
    const longest = this.o.rows.expireUs / 1000 + RELEASE_MARGIN_MS;
    // +1 ms: expire() ends what is strictly older than expireUs.
    this.timer = setTimeout(this.fire, Math.min(Math.max(0, due), longest) + 1);
    // Never what keeps the parser alive: the end of its input ends it (rows-main.ts).
    this.timer.unref();
  }

  /** Clears the timer (the input ended: the rest is flushed). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    // Paused by the budget: the resume reads on and arms again (rows-main.ts).
    if (!this.o.reading()) return;
    this.lastMs = this.nowMs();
    this.o.rows.expire((this.lastMs - RELEASE_MARGIN_MS) * 1000);
    this.o.released();
    this.arm();
  };
}
