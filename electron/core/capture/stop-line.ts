/** The capture companion's stop line (capture-main.ts): what it captured, read and wrote. */
import type { CaptureCounts } from './pcap-rows';

/** What a stopped capture tells (pipeline.ts stop) and its rows file's counts (rows-file.ts). */
export interface StopCounts {
  counts: CaptureCounts | null;
  dropped: number | null;
  received: number | null;
  badLines: number;
  forced: string[];
  /** The fill datagrams sent (block-fill.ts), 0 when none was needed. */
  filled: number;
  /** Packets taken before the stop that the drain did not get out of the kernel ring (pipeline.ts stop); null or absent: unknown. */
  leftInRing?: number | null;
}

/**
 * `stopped: R rows, P packets, K passed the kernel filter, …`. Every datagram to the fill port
 * is left out of both packet counts — the fill's own and any other program's (pcap-rows.ts
 * counts.fill, counts.fillOthers: the parser reads none of them as DNS) — so "packets" and
 * "passed" count the proxy's own packets and match when none was lost (breaker10 L3). The fill's
 * own read is `fill - fillOthers`; other programs' datagrams read are said apart.
 */
export function stopLine(end: StopCounts, rows: { unwritten: number; rotations: number }): string {
  const fill = end.counts?.fill ?? 0;
  const others = end.counts?.fillOthers ?? 0;
  const frames = end.counts ? end.counts.frames - fill : null;
  const received = end.received === null ? null : end.received - end.filled - others;
  const filled = end.filled ? `, the last ring block filled with ${end.filled} datagrams to hand it over at once (${fill - others} read)` : '';
  const foreign = others ? `, ${others} datagrams of other programs to the fill port left out of the packet counts` : '';
  const left = end.leftInRing ? `, ${end.leftInRing} packets taken before the stop still in the kernel ring when the drain ended (not in the log)` : '';
  const forced = end.forced.length ? `; killed (did not end within 2 s): ${end.forced.join(', ')}` : '';
  return `stopped: ${end.counts?.rows ?? '?'} rows, ${frames ?? '?'} packets, ${received ?? '?'} passed the kernel filter, ${end.dropped ?? '?'} dropped by the kernel, ${end.badLines} parser lines skipped, ${rows.unwritten} rows not written, ${rows.rotations} rotations, ${end.counts?.evicted ?? 0} queries emitted unanswered early (open-query table full)${left}${filled}${foreign}${forced}.`;
}
