/**
 * The exit status of the exact query log's companion (electron/core/capture/capture-main.ts) for
 * what a restart cannot mend, which neither its unit nor its keeper restarts it for
 * (shared/capture-unit.ts RestartPreventExitStatus=, systemd.service(5); without systemd
 * electron/core/host/capture-keeper.ts does the same): a bad flags file or go line, which only the
 * next start of K2s DNS writes again. The BSD sysexits(3) code EX_CONFIG, which systemd.exec(5)
 * "Process Exit Codes" names (`systemctl status` says `status=78/CONFIG`); not one Node exits with
 * by itself (Node's own are 1–14 and 128 + a signal). A missing tcpdump is no such case: the
 * restarts bring the log back once it is there again (docs/query-log.md, the exact query log).
 */

/** EX_CONFIG (78): its flags file or go line is missing, not a small regular file, or holds no go line of good flags. */
export const CAPTURE_EXIT_CONFIG = 78;

/** The statuses the unit's RestartPreventExitStatus= lists: systemd leaves the unit failed after them, and the keeper ends. */
export const CAPTURE_NO_RESTART_STATUSES: readonly number[] = [CAPTURE_EXIT_CONFIG];

/** True for an exit status neither systemd nor the keeper restarts the companion for (CAPTURE_NO_RESTART_STATUSES); false for null (not recorded). */
export function isNoRestartStatus(exit: number | null | undefined): boolean {
  return exit !== null && exit !== undefined && CAPTURE_NO_RESTART_STATUSES.includes(exit);
}

/**
 * The statuses the companion ends with before it runs, having written no failed file
 * (electron/core/capture/capture-main.ts runCapture: 2 for flags on its command line it refuses, 3
 * when not root; the CLI's and the helper's own usage error and refusal alike:
 * shared/error-codes.ts EXIT). Without systemd its keeper writes that file for them, with
 * `exit=N` and the companion's last words (electron/core/host/capture-keeper.ts), so start's wait
 * for the capture ends at them (electron/core/host/capture-wait.ts) as at the companion's own.
 */
export const CAPTURE_SILENT_STATUSES: readonly number[] = [2, 3];
