/** Joins a pushed batch of log lines onto a buffer that may already hold some of them. */
import type { LogLine } from '../../../shared/types';

/** True when `run` occurs in `buffer` as consecutive lines (same raw text). */
function contains(buffer: readonly LogLine[], run: readonly LogLine[]): boolean {
  for (let end = buffer.length; end >= run.length; end--) {
    let i = 1;
    while (i <= run.length && buffer[end - i]!.raw === run[run.length - i]!.raw) i++;
    if (i > run.length) return true;
  }
  return false;
}

/**
 * Returns `batch` without its leading lines that the buffer already ends with. A follower that
 * (re)starts at an older offset replays lines a `logs:tail` already delivered; the overlap is
 * found as the longest `j` where the `min(j, buffer.length)` batch lines before `j` equal the
 * buffer's last lines (compared by raw text); with `allowInside`,
 * a batch found whole anywhere inside the buffer is dropped too (only safe right around a tail). O(batch × buffer) at worst; called only for the
 * first batch after a tail load.
 */
export function dropOverlap(buffer: readonly LogLine[], batch: readonly LogLine[], allowInside = false): LogLine[] {
  if (buffer.length === 0 || batch.length === 0) return [...batch];
  // A batch pushed before a tail response may lie wholly inside that tail (not at its end).
  if (allowInside && contains(buffer, batch)) return [];
  const last = buffer[buffer.length - 1]!.raw;
  for (let j = batch.length; j >= 1; j--) {
    if (batch[j - 1]!.raw !== last) continue; // cheap filter: the overlap must end on the buffer's last line
    const k = Math.min(j, buffer.length);
    let same = true;
    for (let i = 1; i <= k && same; i++) same = batch[j - i]!.raw === buffer[buffer.length - i]!.raw;
    if (same) return batch.slice(j);
  }
  return [...batch];
}
