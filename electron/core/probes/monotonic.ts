/**
 * A monotonic clock in ms for the probes' latencies and deadlines: process.hrtime (Node's
 * process API, always loaded) instead of the global `performance`, whose first use loads Node's
 * perf_hooks module (~1 ms of the first query of a `start`'s verify step, measured with
 * --cpu-prof on the test bed). Same clock: both count from an arbitrary point, never jump back.
 */

/** ms since an arbitrary fixed point (fractional, ns resolution); only differences mean anything. */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
