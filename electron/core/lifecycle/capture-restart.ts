/**
 * Whether the exact query log's companion stopped while K2s DNS runs, and who brings it back:
 * the one rule status says it by and a start on the running K2s DNS restarts it by (start.ts), so
 * the advice "run start" is only given where start does restart it.
 */
import { readFile } from 'node:fs/promises';
import { CAPTURE_FAILED_FILE, CAPTURE_READY_FILE, isCaptureArgv } from '../capture/capture-args';
import { captureStopped, type CaptureStop } from '../capture/capture-stopped';
import { CAPTURE_KEEPER_STATE, keeperRestartSentence, parseKeeperState, type KeeperState } from '../host/capture-keeper';
import { parseCmdline } from '../host/own-proxy';
import { isKeeperArgv } from '../host/keeper-name';
import { CAPTURE_PID_FILE } from '../host/capture-companion';
import { isNoRestartStatus } from '../../../shared/capture-exit';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import type { ResolverStateFile } from '../../../shared/state-file';
import type { LifecycleDeps } from './deps';

/** The exact query log's companion as status and a running start see it. */
export interface CaptureStopFacts {
  /** Its stop (capture-stopped.ts captureStopped: its failed line, or its ready file naming a dead pid), else null. */
  stop: CaptureStop | null;
  /** Its keeper's state file (hosts without systemd; null on systemd). */
  keeper: KeeperState | null;
  /** Whether the companion the keeper last started runs (/proc/PID/cmdline is a capture's). */
  keptAlive: boolean;
  /**
   * Who brings it back once `stop` is said (null while it runs, or while its keeper restarts it,
   * which status says instead): 'systemd' restarts its unit (Restart=on-failure, unless its exit is
   * a shared/capture-exit.ts no-restart status); 'start' — a start on the running K2s DNS restarts
   * it (its state records the plan, and tcpdump is there); 'tcpdump' — a start does once tcpdump
   * is installed again (deps.capture says it is missing); 'stop-start' — only a stop, then a start
   * does (a state of an earlier version, without the plan). Never said (null) for a K2s DNS started
   * with --no-log-queries: its start stopped the companion, no exact log is expected.
   */
  restartBy: 'systemd' | 'start' | 'tcpdump' | 'stop-start' | null;
}

/** Whether the keeper its pidfile names runs (/proc/PID/cmdline a keeper's: host/keeper-name.ts). */
async function keeperRuns(deps: Pick<LifecycleDeps, 'fs'>): Promise<boolean> {
  const text = (await deps.fs.readFile(CAPTURE_PID_FILE, { maxBytes: 64 }).catch(() => Buffer.from(''))).toString('utf8').trim();
  if (!/^[1-9]\d*$/.test(text)) return false;
  return isKeeperArgv(await readFile(`/proc/${text}/cmdline`).then(parseCmdline, () => [] as string[]));
}

/**
 * Reads the companion's failed and ready files, and (services.kind not systemd) the keeper's
 * state and its companion's /proc/PID/cmdline, for the running K2s DNS recorded by `state`.
 * Never throws (unreadable files read as absent).
 */
export async function captureStopFacts(deps: Pick<LifecycleDeps, 'fs' | 'services' | 'capture'>, state: Pick<ResolverStateFile, 'plan' | 'startedWith'>): Promise<CaptureStopFacts> {
  const stop = await captureStopped({ failed: deps.fs.real(CAPTURE_FAILED_FILE), ready: deps.fs.real(CAPTURE_READY_FILE), rows: deps.fs.real(K2S_PATHS.queryRows) }).catch(() => null);
  const systemd = deps.services.kind === 'systemd';
  const recorded = systemd ? null : parseKeeperState((await deps.fs.readFile(CAPTURE_KEEPER_STATE, { maxBytes: 4096 }).catch(() => Buffer.from(''))).toString('utf8'));
  const keptAlive = recorded?.pid != null && isCaptureArgv(await readFile(`/proc/${recorded.pid}/cmdline`).then(parseCmdline, () => [] as string[]));
  // A state saying the keeper restarts it (or ran it) is the keeper's only while that keeper runs
  // (its pidfile's PID a keeper's, /proc/PID/cmdline): killed during its back-off, nothing restarts
  // it, so its stop is said (and a start restarts it), not a restart that never comes.
  const stale = recorded !== null && (recorded.state === 'restarting' || (recorded.state === 'running' && !keptAlive)) && !(await keeperRuns(deps));
  const keeper = stale ? null : recorded;
  // Its keeper restarting it (or its new run up) is said as a restart, not as a stop.
  const said = stop !== null && state.startedWith?.logQueries !== false && (keeperRestartSentence(keeper, keptAlive) === null || (keeper?.state === 'running' && !keptAlive));
  const restartBy = !said ? null : systemd && !isNoRestartStatus(stop.exit) ? 'systemd' : state.plan == null ? 'stop-start' : deps.capture?.tcpdump === null ? 'tcpdump' : 'start';
  return { stop, keeper, keptAlive, restartBy };
}
