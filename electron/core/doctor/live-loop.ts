/**
 * `coredns-loop`: a live CoreDNS ↔ proxy loop in the proxy's query log — the same
 * question again and again from a kube-dns pod (shared/live-loop.ts). Read-only: the last
 * LOOP_TAIL_LINES lines of the log, parsed as the Logs panel parses them.
 */
import type { DoctorFinding } from '../../../shared/doctor';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { admGroupWays, asRootWays, cliCommand } from '../../../shared/fix';
import { LIVE_LOOP_FIX, liveLoopMeaning, LOOP_THRESHOLD, LOOP_WINDOW_MS } from '../../../shared/live-loop';
import { scanLiveLoops } from '../logs/live-loop-scan';
import type { DoctorContext } from './context';
import { codeSpan } from '../../../shared/code-span';

export { LOOP_TAIL_LINES } from '../logs/live-loop-scan';

/** The finding for the proxy log's last lines. */
export async function checkLiveLoop(ctx: DoctorContext): Promise<DoctorFinding> {
  const base = { id: 'coredns-loop', title: 'No CoreDNS ↔ proxy loop in the query log' };
  const path = ctx.deps.fs.real(K2S_PATHS.log);
  const zones = ctx.state ? [ctx.state.clusterDomain].filter((z): z is string => typeof z === 'string') : [];
  const scan = await scanLiveLoops(path, zones);
  if (scan?.unreadable && scan.lines === 0) {
    // The log exists but is root:adm 0640 (host/query-log.ts logOwnership): nothing was checked,
    // which is neither "no log" nor "no loop" (new-user walk 23).
    return {
      ...base,
      severity: 'info',
      title: 'CoreDNS ↔ proxy loop in the query log: not checked as this user',
      meaning: `${K2S_PATHS.log} exists, but only root and the group adm may read it (root:adm 0640), so the query log could not be read as uid ${ctx.deps.uid()}.`,
      fix: `To check it, run ${asRootWays('doctor')}; or ${admGroupWays()} and run doctor again.`,
      remedy: { action: null, gui: `Run ${codeSpan(cliCommand('doctor', true))} in a terminal to check the query log, or add your user to the group adm.`, cli: cliCommand('doctor', true) },
    };
  }
  if (scan === null) {
    return { ...base, severity: 'ok', title: 'No query log to check for a CoreDNS loop', meaning: `${K2S_PATHS.log} is empty or absent, so no loop is running through the proxy now.`, fix: null };
  }
  const { loops } = scan;
  if (loops.length === 0) {
    return { ...base, severity: 'ok', meaning: `No question came ${LOOP_THRESHOLD} or more times within ${LOOP_WINDOW_MS / 1000} s from a pod in the last ${scan.lines} log lines.`, fix: null, detail: { lines: scan.lines } };
  }
  const l = loops[0]!;
  return {
    ...base,
    severity: 'error',
    title: 'CoreDNS and the proxy forward a query to each other (loop)',
    meaning: liveLoopMeaning(l),
    fix: LIVE_LOOP_FIX.cli,
    remedy: { action: null, gui: LIVE_LOOP_FIX.gui, cli: LIVE_LOOP_FIX.cli },
    detail: { loops: loops.slice(0, 5) },
  };
}
