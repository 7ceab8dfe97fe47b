/**
 * One child the capture companion recorded in its children file (children-file.ts), in a file of
 * its own so host/capture-children.ts can name it without importing the file's reader (no cycle).
 */
export interface RecordedChild {
  pid: number;
  /** /proc/PID/stat field 22, as text. */
  startTime: string;
  role: 'tcpdump' | 'parser';
  /** PID of the companion that spawned it. */
  companion: number;
  /** POSIX cksum of its /proc/PID/cmdline bytes: `CRC LENGTH`, as `cksum <file` prints it. */
  cmdlineSum: string;
}

