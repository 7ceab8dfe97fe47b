/**
 * What `systemctl show -p …` says about the proxy unit (pure parsing): whether systemd is in
 * the middle of its own restart (ActiveState=activating, SubState=auto-restart,
 * systemd.service(5) Restart=), which attempt that is (NRestarts), how the last run ended
 * (ExecMainCode/ExecMainStatus, the CLD_* codes of waitid(2)), and whether it gave up
 * (Result=start-limit-hit).
 */

/** The properties status asks for, in `systemctl show -p` order. */
export const SHOW_PROPERTIES = ['ActiveState', 'SubState', 'NRestarts', 'ExecMainCode', 'ExecMainStatus', 'MainPID', 'Result'] as const;

/** The unit's state as status needs it. */
export interface UnitRunState {
  activeState: string;
  subState: string;
  /** Restarts systemd did since the unit was last started by hand (NRestarts). */
  restarts: number;
  /** How the last main process ended: `exited with status 1`, `killed by signal KILL`; null when none ended yet. */
  lastExit: string | null;
  mainPid: number | null;
  /** Result= (`success`, `exit-code`, `signal`, `start-limit-hit`, …). */
  result: string;
}

/** Signal names for the numbers systemd prints in ExecMainStatus (signal(7), x86/arm numbering). */
export const SIGNALS: Record<number, string> = { 1: 'HUP', 2: 'INT', 3: 'QUIT', 4: 'ILL', 6: 'ABRT', 7: 'BUS', 8: 'FPE', 9: 'KILL', 11: 'SEGV', 13: 'PIPE', 14: 'ALRM', 15: 'TERM' };

/**
 * The `KEY=VALUE` lines of `systemctl show` (one property a line, systemctl(1) show), values
 * trimmed; a line without `=` is skipped.
 */
export function showProperties(text: string): Map<string, string> {
  const v = new Map<string, string>();
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) v.set(line.slice(0, eq), line.slice(eq + 1).trim());
  }
  return v;
}

/**
 * The blocks of `systemctl show -p Id -p … U1 U2 …`, one per unit with a blank line between
 * (systemctl(1) show: "properties of … the specified units"), each keyed by its Id= (the unit's
 * own name: an alias asked for is printed under the name it stands for); a block without Id= is
 * left out.
 */
export function showUnits(text: string): Map<string, Map<string, string>> {
  const units = new Map<string, Map<string, string>>();
  for (const block of text.split(/\n\s*\n/)) {
    const kv = showProperties(block);
    const id = kv.get('Id');
    if (id) units.set(id, kv);
  }
  return units;
}

/** Parses `Key=value` lines of `systemctl show` (or those lines already read, showProperties). Missing numbers read as 0. */
export function parseUnitRunState(text: string | Map<string, string>): UnitRunState {
  const v = typeof text === 'string' ? showProperties(text) : text;
  const num = (k: string) => {
    const n = Number.parseInt(v.get(k) ?? '', 10);
    return Number.isFinite(n) ? n : 0;
  };
  // ExecMainCode: CLD_EXITED=1, CLD_KILLED=2, CLD_DUMPED=3 (waitid(2)); 0 = nothing ended yet.
  const code = num('ExecMainCode');
  const status = num('ExecMainStatus');
  const lastExit = code === 1 ? `exited with status ${status}` : code === 2 || code === 3 ? `killed by signal ${SIGNALS[status] ?? status}${code === 3 ? ' (core dumped)' : ''}` : null;
  const pid = num('MainPID');
  return { activeState: v.get('ActiveState') ?? 'unknown', subState: v.get('SubState') ?? 'unknown', restarts: num('NRestarts'), lastExit, mainPid: pid > 0 ? pid : null, result: v.get('Result') ?? 'unknown' };
}

/** True while systemd waits to start the unit again after a failure (its own restart, not a stop). */
export function isAutoRestart(s: UnitRunState): boolean {
  return s.subState === 'auto-restart' || (s.activeState === 'activating' && s.restarts > 0 && s.mainPid === null);
}

/**
 * The proxy's own reason from its log: the last line that says why it ended (AdGuard dnsproxy
 * logs `ERROR`/fatal lines such as `… bind: address already in use`, dnsmasq
 * `failed to create listening socket …`), trimmed to 300 characters; null when none.
 */
export function exitReasonFromLog(logTail: string): string | null {
  const lines = logTail.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i] as string;
    if (/\b(ERROR|FATAL|fatal|panic)\b|failed to|cannot |bind: |address already in use|cannot assign requested address/.test(l)) return l.length > 300 ? `${l.slice(0, 297)}...` : l;
  }
  return null;
}

/** MESSAGE_ID of systemd's "… process exited, code=…, status=…" journal entry (SD_MESSAGE_UNIT_PROCESS_EXIT, sd-messages.h). */
export const PROCESS_EXIT_MESSAGE_ID = '98e322203f7a4ed290d09fe03c09fe15';

/** The proxy's last main-process exit as systemd's journal recorded it. */
export interface JournalExit {
  /** `exited with status 1`, `killed by signal KILL`, `killed by signal SEGV (core dumped)`. */
  how: string;
  /** When it ended: the entry's `__REALTIME_TIMESTAMP` (µs since the epoch, journalctl -o json), as ms; null when absent. */
  at: number | null;
}

/**
 * The last main-process exit from `journalctl -o json` lines of PROCESS_EXIT_MESSAGE_ID entries
 * (oldest first): the last entry with COMMAND=ExecStart, from its EXIT_CODE (`exited`,
 * `killed`, `dumped`) and EXIT_STATUS (a number, or a signal name), with its time; null when none.
 * systemd 257 writes it when the process ends and keeps it after the next attempt starts, when
 * ExecMainCode/ExecMainStatus are reset already (and after the restart succeeded).
 */
export function lastExitEventFromJournal(jsonLines: string): JournalExit | null {
  let out: JournalExit | null = null;
  for (const line of jsonLines.split('\n')) {
    let e: Record<string, unknown>;
    try {
      e = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (e.MESSAGE_ID !== PROCESS_EXIT_MESSAGE_ID || e.COMMAND !== 'ExecStart' || typeof e.EXIT_CODE !== 'string' || typeof e.EXIT_STATUS !== 'string') continue;
    const n = Number.parseInt(e.EXIT_STATUS, 10);
    const sig = Number.isFinite(n) ? (SIGNALS[n] ?? String(n)) : e.EXIT_STATUS.replace(/^SIG/, '');
    const us = typeof e.__REALTIME_TIMESTAMP === 'string' ? Number(e.__REALTIME_TIMESTAMP) : Number.NaN;
    const at = Number.isFinite(us) && us > 0 ? Math.floor(us / 1000) : null;
    if (e.EXIT_CODE === 'exited' && Number.isFinite(n)) out = { how: `exited with status ${n}`, at };
    else if (e.EXIT_CODE === 'killed' || e.EXIT_CODE === 'dumped') out = { how: `killed by signal ${sig}${e.EXIT_CODE === 'dumped' ? ' (core dumped)' : ''}`, at };
  }
  return out;
}

/** How the last main process ended (lastExitEventFromJournal's `how`); null when none. */
export function lastExitFromJournal(jsonLines: string): string | null {
  return lastExitEventFromJournal(jsonLines)?.how ?? null;
}

/**
 * The type of the job `systemctl list-jobs --no-legend` output lists for `unit` (columns JOB UNIT
 * TYPE STATE, systemctl(1) list-jobs; STATE waiting or running): `stop`, `start`, `restart`, …;
 * null when it lists none.
 */
export function jobTypeOf(listJobs: string, unit: string): string | null {
  for (const line of listJobs.split('\n')) {
    const [id, name, type] = line.trim().split(/\s+/);
    if (/^\d+$/.test(id ?? '') && name === unit && type) return type;
  }
  return null;
}
