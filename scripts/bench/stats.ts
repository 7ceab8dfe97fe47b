/** Repeated-run statistics for the benchmark: median, min and max of ≥5 samples (farm-bench style). */

/** One figure: median/min/max of its samples (same unit as the samples), and how many. */
export interface Figure {
  median: number;
  min: number;
  max: number;
  n: number;
}

/** Median (mean of the two middle samples for an even count), min and max; NaN when empty. */
export function figure(samples: number[]): Figure {
  const s = [...samples].filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, n: 0 };
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { median, min: s[0]!, max: s.at(-1)!, n: s.length };
}

/** p-th percentile (0–100, nearest rank) of samples. */
export function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
