/**
 * CPU time the hypervisor took from this machine's guests (steal) while a bench section ran: on
 * a shared virtual machine a figure can move with steal alone, so each section's share is
 * reported beside its load average. Read from /proc/stat's aggregate `cpu` line (proc(5): user,
 * nice, system, idle, iowait, irq, softirq, steal, guest, guest_nice, in clock ticks; guest and
 * guest_nice are already counted in user and nice).
 */
import { readFileSync } from 'node:fs';

/** steal and the total of all times (without guest, guest_nice), clock ticks; null when the text has no `cpu` line. */
export function cpuTimes(procStat: string): { steal: number; total: number } | null {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return null;
  const f = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (f.length < 8 || f.some((x) => !Number.isFinite(x))) return null;
  return { steal: f[7]!, total: f.reduce((a, b) => a + b, 0) };
}

/** steal's share (0–1) of all CPU time between two readings; null when either is missing or no time passed. */
export function stealShare(from: { steal: number; total: number } | null, to: { steal: number; total: number } | null): number | null {
  if (!from || !to || to.total <= from.total) return null;
  return Math.max(0, to.steal - from.steal) / (to.total - from.total);
}

/** cpuTimes of this machine now (null where /proc/stat cannot be read). */
export function cpuTimesNow(): { steal: number; total: number } | null {
  try {
    return cpuTimes(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null;
  }
}
