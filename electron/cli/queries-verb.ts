/**
 * `k2s-dns queries`: prints the exact query log's newest rows (text or --json), waiting for the
 * capture's open ring block when nothing new is shown yet (queries-wait.ts), with the notes on
 * why rows are missing (print-queries.ts).
 */
import { MAX_QUERY_LINES, queryLinesOf } from './flags';
import { EXIT } from '../../shared/lifecycle-events';
import { terminalSafe as t } from './terminal-safe';

/**
 * Runs `queries` with its parsed flags `v` (lines, probes, no-wait, json); writes rows with `out`
 * and notes with `err` (one line each); `nameKubeconfig` is main.ts's (name-kubeconfig.ts).
 * Returns the exit status: EXIT.ok, or EXIT.failed when the log cannot be read.
 */
export async function runQueries(v: Record<string, unknown>, asJson: boolean, out: (s: string) => void, err: (s: string) => void, nameKubeconfig: (path: string | null) => Promise<unknown>): Promise<number> {
  const lines = queryLinesOf(v.lines);
  // Text without --probes hides k2s-dns's own health checks (as the window does): it looks
  // for `lines` other rows among the newest MAX_QUERY_LINES. --json: every row, each with `probe`.
  const hide = !asJson && v.probes !== true;
  const [{ exactQueryLog }, { findTcpdump }, { K2S_PATHS }, { afterRowsText, beforeRowsText, queriesTextLines, notLoggingText, queriesEngine, queriesJson, noRowsFollow, queriesUnavailableText, unwrittenText, withoutProbes }, { CAPTURE_FAILED_FILE, CAPTURE_MISSED_FILE, CAPTURE_READY_FILE, CAPTURE_UNWRITTEN_FILE }, { readState }, { createHostFs }, { cliTimes }, { captureCgroupEvents, captureDrained, companionRuns, DRAIN_WAIT_MS, fileChanged, newestRowStale, readUntilShown, ROWS_WAIT_MS }] = await Promise.all([import('../core/capture/exact-log'), import('../core/capture/tcpdump-path'), import('../../shared/k2s-paths'), import('./print-queries'), import('../core/capture/capture-args'), import('../core/host/state-store'), import('../core/host/host-fs-node'), import('../../shared/clock'), import('./queries-wait')]);
  // Its notes print `start` lines (the --no-log-queries way, "run it … start"): they name the
  // kubeconfig `sudo k2s-dns start` would not find by itself, as status's fixes do.
  const { kubeconfigOrStarted } = await import('../core/cluster/kubeconfig-default');
  await nameKubeconfig((await kubeconfigOrStarted(createHostFs('/'), undefined)).path);
  // The engine the rows name: the saved state's, else null and why (stopped, state unreadable).
  const who = await queriesEngine(() => readState(createHostFs('/')));
  const readLog = () => exactQueryLog(K2S_PATHS.queryRows, hide ? MAX_QUERY_LINES : lines, who.engine ?? 'adguard', findTcpdump, { failed: CAPTURE_FAILED_FILE, ready: CAPTURE_READY_FILE, rows: K2S_PATHS.queryRows, missed: CAPTURE_MISSED_FILE }, undefined, CAPTURE_UNWRITTEN_FILE);
  // Rows to show, the newest of all (probes too: any later row means its block was handed over) asked within a ring block timeout of now.
  const askedAt = Date.now();
  const shows = (l: Awaited<ReturnType<typeof readLog>>) => !l.available || ((hide ? withoutProbes(l.rows, lines).rows.length : l.rows.length) > 0 && !newestRowStale(l.rows, askedAt));
  // Nothing to show, or only rows older than the block timeout, while the capture runs: the
  // query just asked may still be in the kernel's open ring block; wait for the file to change
  // (at most ROWS_WAIT_MS, queries-wait.ts). --no-wait: read once.
  const runs = await companionRuns(CAPTURE_READY_FILE);
  // A companion just stopped (its ready file gone) may still be writing its last rows: a stop
  // on systemd does not wait for its drain (queries-wait.ts captureDrained). --no-wait: not waited for.
  if (!runs && v['no-wait'] !== true) {
    const { nodeExec } = await import('../core/host/exec');
    const fs = createHostFs('/');
    await captureDrained(fs.real(await captureCgroupEvents(fs, nodeExec)), DRAIN_WAIT_MS);
  }
  const waitMs = v['no-wait'] !== true && runs ? ROWS_WAIT_MS : 0;
  const log = await readUntilShown(readLog, shows, (ms) => fileChanged(K2S_PATHS.queryRows, ms), () => performance.now(), waitMs);
  // No companion: its unit left failed (killed mid-drain: the last rows may be missing) or still stopping (capture-unit-note.ts).
  const unit = runs ? null : await (await import('./capture-unit-note')).captureUnitNote();
  if (asJson) out(JSON.stringify({ ...queriesJson(log, who), ...(unit ? { captureUnit: unit } : {}) }));
  else if (!log.available) err(queriesUnavailableText(log.reason, who.notLogging));
  else {
    const shown = hide ? withoutProbes(log.rows, lines) : { rows: log.rows, hidden: 0 };
    // Started with --no-log-queries: any row is from an earlier run, and none is coming.
    if (who.notLogging) err(notLoggingText(who.notLogging, shown.rows.length > 0));
    // Stopped: said once, after the rows (afterRowsText's last line), with what comes next.
    if (who.unknown !== null && !who.stopped && log.rows.length) err(who.unknown);
    if (log.unwritten) err(unwrittenText(log.unwritten, noRowsFollow(shown, who.notLogging)));
    if (log.missed) err(t(`The exact query log ${cliTimes(log.missed)}.`));
    if (unit) err((await import('../../shared/capture-unit-state')).captureUnitWords(unit));
    const before = beforeRowsText(shown);
    if (before) err(before);
    for (const line of queriesTextLines(shown.rows)) out(t(line));
    const after = afterRowsText(shown, waitMs, who.notLogging, log.unwritten, who.stopped === true);
    if (after) err(after);
  }
  return log.available ? EXIT.ok : EXIT.failed;
}
