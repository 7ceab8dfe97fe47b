/**
 * Renders /etc/systemd/system/k2s-dnsproxy-capture.service (pure): the exact query log's
 * companion (electron/core/capture/capture-main.ts) — root, because tcpdump(8) opens the capture
 * as root and then drops to an unprivileged user itself (`-Z`); the packet parser never runs as
 * root. Tied to the main unit like the KubeSwitch and resolved units (COMPANION_TIE): started
 * with k2s-dnsproxy.service (at boot too), stopped and restarted with it, never alone; a followed
 * network's restart of the proxy leaves it running (it reads packets, not the engine). Output
 * (its start line and its counts at the end) goes to the journal.
 */
import { CAPTURE_NO_RESTART_STATUSES } from './capture-exit';
import { renderCompanionUnit } from './companion-unit';

/** The unit's TimeoutStopSec=, s: how long systemd waits for a companion that does not end on SIGTERM before its SIGKILL. */
export const CAPTURE_TIMEOUT_STOP_S = 10;

/** Unit name (without .service): K2s's unit name plus `-capture`. */
export const CAPTURE_UNIT_NAME = 'k2s-dnsproxy-capture';

/** Renders the unit for `argv` (an absolute program — node and an entry script, or the package's launcher — the capture verb and its flags). Throws for a relative argv[0]. */
export function renderCaptureUnit(argv: readonly string[]): string {
  if (!argv[0]?.startsWith('/')) throw new Error(`The capture companion's program "${argv[0] ?? ''}" is not an absolute path.`);
  return renderCompanionUnit({
    header: ['Managed by k2s-dns: written on start, removed on uninstall. The exact query log: reads the', 'packets of k2s-dnsproxy.service (tcpdump -Z drops to an unprivileged user) into /var/log/dnsproxy/.'],
    description: 'K2s DNS: exact query log from the proxy\'s packets',
    documentation: 'man:tcpdump(8)',
    argv,
    // SIGTERM: the companion drains the parser and stops tcpdump itself (capture-main.ts).
    // No CPUSchedulingPolicy=idle: the companion switches itself, tcpdump and the parser to
    // SCHED_IDLE once its capture is open (capture/go-idle.ts); idle from exec, its Node start-up
    // would wait behind every other task on a busy host, past start's wait for the capture.
    // A companion that exits for what no restart mends (a bad flags file: capture-exit.ts) is
    // left failed, not restarted until StartLimitBurst= gives up.
    // ExecStop= runs before systemd's SIGTERM, as its own process at normal priority: it sets the
    // companion's autogroup back to nice 0 (proc(5) /proc/PID/autogroup), as k2s-dns stop does
    // before its SIGTERM (capture/go-idle.ts treeToNormal), so a stop by anyone else — K2s's own
    // `k2s stop`, a `systemctl stop` of the proxy — also lets the drain run on a busy host (with
    // four CPU-bound shells it ran into TimeoutStopSec and was killed). `$$1`: systemd passes
    // `$1` to sh (systemd.service(5) "Command lines": `$$` is a literal `$`); `-`: a failure
    // (the companion gone already) does not fail the stop. systemd runs ExecStop= also after the
    // main process exited by itself, with $MAINPID unset (systemd.service(5) "ExecStop="), as after
    // every `k2s-dns stop` on systemd (capture-companion.ts endLeft): nothing to reset then, and no
    // "cannot create /proc//autogroup" line in the unit's journal.
    service: ['ExecStop=-/bin/sh -c \'[ -z "$$1" ] || echo 0 > /proc/$$1/autogroup\' k2s-capture-stop $MAINPID', 'KillMode=mixed', `TimeoutStopSec=${CAPTURE_TIMEOUT_STOP_S}s`, 'UMask=0027', `RestartPreventExitStatus=${CAPTURE_NO_RESTART_STATUSES.join(' ')}`],
  });
}
