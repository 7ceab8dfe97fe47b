/**
 * The text of the companion's failed file (capture-args.ts CAPTURE_FAILED_FILE). Its first line,
 * `ISO-TIME why`, is what status, `queries` and the Queries view say (capture-stopped.ts). A
 * companion that failed before its capture opened writes a second line, `exit=N`, its exit
 * status (for one that ended before it ran, shared/capture-exit.ts CAPTURE_SILENT_STATUSES, its
 * keeper writes the file: host/capture-keeper.ts): start's wait for the capture
 * (host/capture-wait.ts) reads from it whether systemd or the keeper restarts it. A capture that stopped after it opened (tcpdump or the parser ended) and
 * a failed start (host/capture-companion.ts) write the first line alone — a failed start whose
 * companion ended with a status nothing restarts it for (shared/capture-exit.ts) keeps that status,
 * so the exact log's readers say it is not restarted (capture/exact-log.ts).
 */

/** What a failed file says. */
export interface FailedLine {
  /** The ISO time it failed. */
  at: string;
  /** Why, one line. */
  why: string;
  /** The companion's exit status before its capture opened; null for a capture that stopped after it opened, or a failed start. */
  exit: number | null;
}

/** The failed file's text: `at` and `why` (its white space made single spaces) and, when given, `exit=N`. */
export function failedFileText(at: Date, why: string, exit?: number): string {
  return `${at.toISOString()} ${why.replace(/\s+/g, ' ').trim()}\n${exit === undefined ? '' : `exit=${exit}\n`}`;
}

/** The failed file's meaning, or null for an empty one. A first line alone (or any other second line) has `exit` null. */
export function parseFailedFile(text: string): FailedLine | null {
  const [first = '', second = ''] = text.split('\n');
  if (first.trim() === '') return null;
  const [at, ...why] = first.trim().split(' ');
  const m = /^exit=(\d{1,3})$/.exec(second.trim());
  return { at: at!, why: why.join(' '), exit: m ? Number(m[1]) : null };
}
