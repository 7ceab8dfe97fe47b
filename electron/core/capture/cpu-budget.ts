/**
 * The packet parser's CPU budget: at most a share of one core, so the query log leaves the
 * proxy its CPU under full load.
 *
 * Idle priority alone (go-idle.ts) did not do that: SCHED_IDLE tasks still run whenever a CPU is
 * free for a moment, and at dnsmasq's full rate on 2 cores the capture's tree (tcpdump, the
 * parser, the companion) took 0.6–0.7 of a core that way while dnsmasq's throughput halved
 * (scripts/bench/capture-tree.ts; stopping the tree with SIGSTOP gave it back). With the budget the
 * parser stops reading its input once it has used its share within the window: tcpdump's writes
 * then block on the full pipe, its kernel ring fills, and the kernel drops what the log cannot
 * take and counts it (tcpdump's "dropped by kernel", shown by capture-missed.ts). tcpdump and the
 * companion do work only for what the parser reads, so the budget bounds the whole tree.
 * A burst shorter than what the pipe and the 2 MiB ring hold (tcpdump-argv.ts RING_KIB) is delayed, not
 * dropped; only a sustained rate past the budget loses rows.
 */

/** Share of one core the parser may use by default: 5 %. At 2,000 queries/s it needs about a third of that (docs/bench-capture.md). */
export const CAPTURE_CPU_SHARE = 0.05;

/** Length of a budget window, ms: the share is an average over it. */
export const BUDGET_WINDOW_MS = 1000;

/** The clocks a budget reads: wall time and the process's CPU time (user + system), both in ms. */
export interface BudgetClock {
  wallMs(): number;
  cpuMs(): number;
}

/** The real clocks: performance.now() and process.cpuUsage(). */
export const PROCESS_CLOCK: BudgetClock = {
  wallMs: () => performance.now(),
  cpuMs: () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  },
};

/**
 * The share from `K2S_CAPTURE_CPU_SHARE` (the bench sets it; `0` is no budget), else
 * CAPTURE_CPU_SHARE. A value that is no number in [0, 1] is ignored.
 */
export function budgetShare(env: string | undefined): number {
  if (env === undefined || !/^(0|1|0?\.\d+|1\.0+)$/.test(env)) return CAPTURE_CPU_SHARE;
  return Number(env);
}

/**
 * A CPU budget of `share` of one core (0: none) over windows of `windowMs`. After each piece of
 * work, owedMs() says how long to stop taking input so that the CPU used since the window began
 * is at most `share` of its wall time (0 when within it). lift() ends the budget for good (the
 * stop's drain: the last rows are handed over at once).
 */
export class CpuBudget {
  private windowAt: number;
  private windowCpu: number;
  private lifted = false;

  constructor(
    private readonly share: number,
    private readonly clock: BudgetClock = PROCESS_CLOCK,
    private readonly windowMs = BUDGET_WINDOW_MS,
  ) {
    this.windowAt = clock.wallMs();
    this.windowCpu = clock.cpuMs();
  }

  /** ms to stop taking input now (whole ms, 0 when within the budget, lifted, or no budget). */
  owedMs(): number {
    if (this.lifted || !(this.share > 0)) return 0;
    const wall = this.clock.wallMs();
    const cpu = this.clock.cpuMs();
    const owed = (cpu - this.windowCpu) / this.share - (wall - this.windowAt);
    if (wall - this.windowAt >= this.windowMs) {
      // A new window: it begins once what this one still owes is paid (the pause), so that
      // pause is not counted again as idle time of the new window.
      this.windowAt = wall + Math.max(0, owed);
      this.windowCpu = cpu;
    }
    return owed >= 1 ? Math.ceil(owed) : 0;
  }

  /** Ends the budget: owedMs() is 0 from now on. */
  lift(): void {
    this.lifted = true;
  }
}
