/**
 * Releases unanswered queries on a timer, not on the next packet. The pairing (pairing.ts) ends a
 * query no answer came for once expireUs (30 s) of capture time have passed, and capture time
 * moves only with packets: on an idle host, or with the upstream down and nothing else asked,
 * the `no answer` row of the query a user is looking for waited for some unrelated packet.
 *
 * One timer for the oldest waiting query (none while nothing waits, so an idle capture costs
 * nothing): it fires RELEASE_MARGIN_MS after that query's expireUs have passed on the capture's
 * clock, and ends every query older than expireUs at (capture now − RELEASE_MARGIN_MS). The margin
 * covers the kernel's ring block timeout (shared/capture-block.ts): an answer the kernel took in
 * time is then already parsed. Capture now is the last packet's time stamp (the kernel's wall
 * clock, pcap) plus the monotonic time (performance.now) since that packet was read, never
 * Date.now(): a wall clock stepped forward (NTP, a suspend) between packets would otherwise
 * release a query asked milliseconds earlier and drop its answer; stepped back, it would hold
 * every waiting query until the clock caught up. While the CPU budget holds the input back
 * (cpu-budget.ts, rows-main.ts) the timer releases nothing: the packets waiting in the pipe come
 * first and carry the time.
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
  rows: { oldestOpenUs(): number | null; expire(nowUs: number): void; readonly expireUs: number; readonly lastPacketUs: number | null };
  /** Whether the input is being read now (false while the CPU budget pauses it): nothing is released while it is not. */
  reading(): boolean;
  /** Called after a release (the rows it emitted are then written out: rows-main.ts flush). */
  released(): void;
  /** Monotonic clock, ms (default performance.now): only its differences are used. */
  monoMs?(): number;
}

/** The one release timer of a parser process (see the file comment). */
export class IdleRelease {
  private timer: NodeJS.Timeout | undefined;
  /** Monotonic ms of the last release (RELEASE_EVERY_MS apart at least). */
  private lastMono = -Infinity;
  /** The last packet's time stamp (µs) the anchor was taken at, and the monotonic ms it was read at. */
  private anchorUs: number | null = null;
  private anchorMono = 0;
  private readonly monoMs: () => number;

  constructor(private readonly o: IdleReleaseOptions) {
    this.monoMs = o.monoMs ?? (() => performance.now());
  }

  /** Capture now, ms since the epoch: the last packet's time stamp plus monotonic ms since it was read. */
  private nowMs(): number {
    this.anchor();
    return this.anchorUs === null ? -Infinity : this.anchorUs / 1000 + (this.monoMs() - this.anchorMono);
  }

  /** Takes the last packet as the anchor when it changed (read since the last call). */
  private anchor(): void {
    const last = this.o.rows.lastPacketUs;
    if (last === this.anchorUs) return;
    this.anchorUs = last;
    this.anchorMono = this.monoMs();
  }

  /**
   * Sets the timer for the oldest waiting query, unless it is set or nothing waits. Call after
   * each chunk of input and when the input is read again; cheap (no work while a timer is set).
   */
  arm(): void {
    // Called after each chunk: the packets just read are anchored now, whether a timer is set or not.
    this.anchor();
    if (this.timer !== undefined) return;
    const oldest = this.o.rows.oldestOpenUs();
    if (oldest === null) return;
    const due = Math.ceil(Math.max(oldest / 1000 + this.o.rows.expireUs / 1000 + RELEASE_MARGIN_MS - this.nowMs(), this.lastMono + RELEASE_EVERY_MS - this.monoMs()));
    // At most one expiry window ahead: a query stamped later than the last packet (the clock
    // stepped back between them) would ask for more than setTimeout's 2^31 - 1 ms, which Node
    // runs after 1 ms (TimeoutOverflowWarning): a loop of scans that release nothing.
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
    this.lastMono = this.monoMs();
    this.o.rows.expire((this.nowMs() - RELEASE_MARGIN_MS) * 1000);
    this.o.released();
    this.arm();
  };
}
