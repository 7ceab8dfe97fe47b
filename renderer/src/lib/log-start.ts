/**
 * The "Start of the log" line that opens a list once its oldest row is held: it names only the
 * files that exist (the proxy log has a rotated copy `.1` only after its first rotation). Pure.
 */

/** `dnsproxy.log.1` for `/var/log/dnsproxy/dnsproxy.log.1`. */
function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * `Start of the log: the first line of dnsproxy.log (no rotated copy yet).`, or with a rotated
 * copy `Start of the log: the first line of dnsproxy.log.1, the rotated copy before dnsproxy.log.`;
 * `files` oldest first as the backend listed them (null or empty: not known, no file named).
 * `what`: the log's name in the sentence (`the log`, `the exact query log`).
 */
export function logStartText(files: readonly string[] | null, what = 'the log'): string {
  const start = `Start of ${what}`;
  if (!files || files.length === 0) return `${start}.`;
  const [oldest, ...newer] = files.map(baseName);
  if (newer.length === 0) return `${start}: the first line of ${oldest} (no rotated copy yet).`;
  return `${start}: the first line of ${oldest}, the rotated copy before ${newer.join(', ')}.`;
}
