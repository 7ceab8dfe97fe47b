/**
 * The files K2s DNS owns on a host, which uninstall removes (teardown.ts), and whether any is
 * there (status.ts: the window's Uninstall has nothing to do on a host without them).
 */
import path from 'node:path';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { LAST_RECOVERY } from './journal';
import { WATCHDOG_PID_FILE, WATCHDOG_STATE_FILE } from '../host/supervised-service';
import { LOGROTATE_PATH, rotatedLogPath } from '../host/query-log';
import type { HostFs } from '../host/host-fs';
import { FOLLOW_LOG, FOLLOW_PID_FILE, FOLLOW_UNIT_PATH } from '../host/follower';
import { CAPTURE_LOG } from '../host/capture-companion';
import { CAPTURE_GO_FILE, CAPTURE_KEEPER_STATE } from '../host/capture-keeper';
import { CAPTURE_FAILED_FILE, CAPTURE_FLAGS_FILE, CAPTURE_HOLD_FILE, CAPTURE_MISSED_FILE, CAPTURE_READY_FILE, CAPTURE_UNWRITTEN_FILE, PARSER_RUN_PATH } from '../capture/capture-args';
import { CAPTURE_CHILDREN_FILE } from '../capture/children-file';
import { START_CHECKS_FILE } from '../capture/start-checks';

/**
 * K2s-owned files uninstall removes (docs/host-facts.md "K2s values"). The proxy log and its
 * rotated copy go too: they hold every logged query of every user and pod; stop keeps them.
 */
export const OWNED_FILES = [
  K2S_PATHS.log,
  rotatedLogPath(K2S_PATHS.log),
  LOGROTATE_PATH,
  K2S_PATHS.unit,
  K2S_PATHS.lateUnit,
  K2S_PATHS.routeUnit,
  K2S_PATHS.routeFile,
  K2S_PATHS.proxyConfig,
  K2S_PATHS.dnsmasqConfig,
  K2S_PATHS.resolvedDropIn,
  K2S_PATHS.stateFile,
  K2S_PATHS.startCopy,
  K2S_PATHS.journal,
  LAST_RECOVERY,
  K2S_PATHS.pidFile,
  `${K2S_PATHS.pidFile}.argv0`,
  WATCHDOG_PID_FILE,
  WATCHDOG_STATE_FILE,
  FOLLOW_UNIT_PATH,
  FOLLOW_PID_FILE,
  FOLLOW_LOG,
  // The exact query log (every query, like the proxy log) and its companion's files; its pidfile
  // is the companion's own to remove (uninstall stops it first).
  K2S_PATHS.queryRows,
  rotatedLogPath(K2S_PATHS.queryRows),
  K2S_PATHS.captureUnit,
  // Its flags (systemd: the unit reads them, capture-args.ts) and start's hold on it.
  CAPTURE_FLAGS_FILE,
  CAPTURE_HOLD_FILE,
  CAPTURE_LOG,
  PARSER_RUN_PATH,
  CAPTURE_READY_FILE,
  CAPTURE_FAILED_FILE,
  CAPTURE_UNWRITTEN_FILE,
  CAPTURE_MISSED_FILE,
  CAPTURE_CHILDREN_FILE,
  // What the last start's verify asked and when (the query log's readers mark those rows): kept
  // by stop with the log it describes.
  START_CHECKS_FILE,
  // Its keeper's (hosts without systemd, host/capture-keeper.ts): the restarts' go line and state.
  CAPTURE_GO_FILE,
  CAPTURE_KEEPER_STATE,
  // The PID lock file of versions before the kernel lock (lock.ts); nothing reads it any more.
  K2S_PATHS.lock,
] as const;


/** Files we write by rename (writeFileAtomic), whose temp siblings a kill can leave behind. */
const ATOMIC_TARGETS = [K2S_PATHS.resolvConf, ...OWNED_FILES.filter((f) => !f.startsWith(`${K2S_PATHS.runDir}/`))];

/**
 * Temp files a killed write left next to our files: exactly the names host-fs-node.ts's
 * tempSibling makes (`.<name>.k2s-tmp-<12 hex>` in the same directory, e.g.
 * `/etc/.resolv.conf.k2s-tmp-0123456789ab`), directories excluded. Stop and uninstall remove
 * them (teardown.ts removeOwnTempFiles). Rejects as readdir does (EACCES: a user under root's
 * 0700 state directory).
 */
export async function ownTempFiles(fs: Pick<HostFs, 'lstat' | 'readdir'>): Promise<string[]> {
  const found: string[] = [];
  const dirs = new Map<string, Set<string>>();
  for (const f of ATOMIC_TARGETS) {
    const dir = path.posix.dirname(f);
    dirs.set(dir, (dirs.get(dir) ?? new Set()).add(path.posix.basename(f)));
  }
  for (const [dir, names] of dirs) {
    for (const entry of await fs.readdir(dir)) {
      const m = /^\.(.+)\.k2s-tmp-[0-9a-f]{12}$/.exec(entry);
      if (!m || !names.has(m[1] as string)) continue;
      const p = `${dir}/${entry}`;
      if ((await fs.lstat(p))?.kind === 'dir') continue;
      found.push(p);
    }
  }
  return found;
}

/**
 * Whether any of OWNED_FILES, or a temp file a killed write of ours left (ownTempFiles), is on
 * the host (lstat(2) and readdir(3) only, no read): true, false, or null when that cannot be seen
 * (a user under root's 0700 state directory: EACCES). Temp files are looked for only when no
 * owned file is there.
 */
export async function ownedFilesLeft(fs: Pick<HostFs, 'lstat' | 'readdir'>): Promise<boolean | null> {
  const there = await Promise.all(OWNED_FILES.map((f) => fs.lstat(f).then((st) => st !== null, () => null)));
  if (there.includes(true)) return true;
  const temps = await ownTempFiles(fs).then((t) => t.length > 0, () => null);
  return temps === true ? true : there.includes(null) || temps === null ? null : false;
}
