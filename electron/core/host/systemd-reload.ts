/**
 * The systemd manager's reload (systemctl(1) daemon-reload), paid on a lifecycle command's path
 * only when the units it starts need it. A reload re-reads every unit file and every [Install]
 * link; on a booted Debian 13 host (systemd 257) one takes ~110–190 ms, most of a start's or a
 * stop's own time there.
 *
 * What a start needs from it: each unit it starts as its file says now. A unit the manager has
 * not loaded is read from disk by the first call that names it (the `systemctl show` below
 * loads it, with its .wants/ links); one it loaded from an older file says NeedDaemonReload=yes
 * (org.freedesktop.systemd1(5), Unit properties): only then does current() reload, before the
 * start. Unit files are therefore written only when their bytes change — a rewrite of the same
 * bytes moves the mtime, and NeedDaemonReload compares mtimes.
 *
 * The [Install] links are changed on disk only (LINKS_ONLY): an `enable` through the manager,
 * even with --no-reload, marks every unit NeedDaemonReload=yes until the next reload (measured
 * on systemd 257), which would make the check above reload every time.
 *
 * What a start or stop does not need from the reload: the manager's copy of those links
 * (multi-user.target.wants/, k2s-dnsproxy.service.wants/).
 * Boot reads them from disk; a running manager uses its copy for `systemctl isolate` and for
 * pulling one unit in with another, and every unit a command needs running it starts by name.
 * settle() asks for that reload at the end of the command without waiting for it: a
 * `systemctl daemon-reload` run by PID 1 as a transient unit of its own (RELOAD_UNIT), which
 * outlives the command by the reload's time. A systemctl call made meanwhile waits in the
 * manager until the reload is done. Not a child of the command: a command run as a service
 * (`systemd-run`, a unit of the admin's) has its whole cgroup killed as it exits
 * (KillMode=control-group, systemd.kill(5)), and a reload launched as its child was killed with
 * it before it reached PID 1 (measured on the booted Debian 13 host: 2 of 3 such commands left no
 * reload, and the manager kept the links of the run before). (The manager's Reload() sent by
 * `busctl --expect-reply=no` does the same in 8–15 ms, but PID 1 then logs a warning at every
 * start and stop — "Failed to send queued reload message" — because nobody is left to take its
 * reply.)
 */
import { showProperties } from '../../../shared/systemd-show';
import type { Exec } from './exec';
import type { HostFs } from './host-fs';

/**
 * systemctl(1) `--root=/`: enable, reenable and disable "operate on the file system directly,
 * instead of communicating with the systemd daemon" — the links change on disk, the manager is
 * neither reloaded nor marked as needing one. Put before the verb: `systemctl --root=/ enable U`.
 */
export const LINKS_ONLY = '--root=/';

/**
 * systemd-run(1) arguments that have PID 1 run `systemctl daemon-reload` as a transient service:
 * --no-block returns once the start job is queued (7–12 ms on the booted Debian 13 host), so the
 * reload neither runs in the caller's cgroup nor is waited for; --collect drops the unit whatever
 * its result.
 */
export const RELOAD_UNIT = ['--no-block', '--quiet', '--collect', '--description=K2s DNS: the manager reads the changed unit links', '--', 'systemctl', 'daemon-reload'] as const;

/** The manager's reload, paid when needed (one per ServiceManager, shared by its companions). */
export interface ManagerReload {
  /**
   * Reloads the manager now when one of `units` is loaded from an older file (NeedDaemonReload=yes)
   * or not loaded as a unit it can start (LoadState other than loaded: not-found, bad-setting,
   * error), when one of them was rewritten by this process since the last reload (unitWritten),
   * or when their state cannot be read; else does nothing. A rewritten unit does not trust the
   * mtime: NeedDaemonReload only sees a file newer than the one loaded, and a clock stepped back
   * (or a file system with whole-second times) can give a changed file an older or equal one — a
   * changed unit is rare (the first start, an engine switch, an upgrade), its reload cheap by
   * comparison. Called after the links changed (LINKS_ONLY), a reload reads them too and
   * settle() then has nothing left to ask for; called alongside their change, a link changed
   * (linksChanged) after the reload began leaves settle() its own reload to ask for. With
   * `recent`, a unit this process found current (or reloaded for) within the last
   * KNOWN_CURRENT_MS and has not written since is not asked about again: a start asks once for
   * the proxy's units and the follower's together (systemd-service.ts; the capture's own start
   * asks for its unit), and the follower's own start after verify (follower.ts, the one caller
   * that passes it) then needs no `systemctl show`; a process that runs for long asks again
   * later, as another process may have changed a unit meanwhile. With `linksFirst` (a
   * change of the links on disk run alongside, LINKS_ONLY), its question runs at once and a reload
   * waits for that change to settle, so it reads those links. Resolves true when it reloaded.
   * Throws when the reload fails.
   */
  current(units: readonly string[], opts?: { recent?: boolean; linksFirst?: Promise<unknown>; asked?: Promise<AskedUnits> }): Promise<boolean>;
  /**
   * Asks the manager now the question current() asks (`systemctl show -p LoadState -p
   * NeedDaemonReload`), for a current() call later that passes it as `asked`: a start asks it
   * alongside discover, off its service step. current() uses the answer when it covers every unit
   * it is given, and still reloads for a unit written since (unitWritten). Never rejects.
   */
  ask(units: readonly string[]): Promise<AskedUnits>;
  /** Notes that this process wrote `unit`'s file with other bytes (writeUnitFile true): current() then reloads for it. */
  unitWritten(unit: string): void;
  /** Notes that [Install] links changed on disk (LINKS_ONLY): settle() then asks for a reload. */
  linksChanged(): void;
  /**
   * Reloads the manager now and waits for it (uninstall, after it removed unit files: the manager
   * must forget them before the command ends); settle() then has nothing left to ask for. Throws
   * when the reload fails.
   */
  reloadNow(): Promise<void>;
  /**
   * When links changed since the last reload: has PID 1 run `systemctl daemon-reload` as a unit
   * of its own (RELOAD_UNIT, waits only for the job to be queued), else launches it without
   * waiting (Exec.launch), or, where neither works, reloads and waits. Never throws.
   */
  settle(): Promise<void>;
}

/** An answer of ManagerReload.ask: the units asked about, and whether each was loaded from its current file (false also when the question failed). */
export interface AskedUnits {
  units: readonly string[];
  current: boolean;
}

/**
 * The units (Id) of `systemctl show -p Id -p LoadState -p NeedDaemonReload U1 U2 …` output (one
 * block per unit, blank lines between) that are not loaded from their current file.
 */
export function unitsNeedingReload(showOutput: string): string[] {
  const need: string[] = [];
  for (const block of showOutput.split(/\n\s*\n/)) {
    const kv = showProperties(block);
    if (!kv.has('Id')) continue;
    if (kv.get('LoadState') !== 'loaded' || kv.get('NeedDaemonReload') !== 'no') need.push(kv.get('Id')!);
  }
  return need;
}

/** ms for which ManagerReload.current takes a unit it found current as still current (one start's service step to its follower: < 1 s). */
export const KNOWN_CURRENT_MS = 10_000;

/** The systemd ManagerReload over `exec` (systemctl, systemd-run); `now` a monotonic clock in ms. */
export function systemdReload(exec: Exec, now: () => number = () => performance.now()): ManagerReload {
  let pending = false;
  // Counts linksChanged() calls: a reload clears `pending` only when no link changed since it
  // began (a reenable may run alongside a reload, whose read of the links then may miss it).
  let linkChanges = 0;
  const written = new Set<string>();
  // Units this process found loaded from their current file (or reloaded for), not written since: when.
  const known = new Map<string, number>();
  const remember = (units: readonly string[]) => {
    for (const u of units) known.set(u, now());
  };
  const reload = async (units: readonly string[]) => {
    const changesBefore = linkChanges;
    // Only the units written before it began are surely read by it: one written meanwhile (the
    // proxy's start writes its unit while the capture's start reloads) stays for the next one.
    const writtenBefore = [...written];
    const r = await exec.run('systemctl', ['daemon-reload'], { timeoutMs: 60_000 });
    if (r.code !== 0) throw new Error(`systemctl daemon-reload failed (${r.stderr.trim() || `exit ${r.code}`}); see "journalctl -b _PID=1" and fix the cause, then retry.`);
    if (linkChanges === changesBefore) pending = false;
    for (const u of writtenBefore) written.delete(u);
    remember(units.filter((u) => !written.has(u)));
  };
  const ask = async (units: readonly string[]): Promise<AskedUnits> => {
    const r = await exec.run('systemctl', ['show', '-p', 'Id', '-p', 'LoadState', '-p', 'NeedDaemonReload', '--', ...units], { timeoutMs: 10_000 }).catch(() => null);
    if (r?.code !== 0) return { units, current: false };
    // Every unit asked for has a block; fewer (an unexpected output) is read as "reload".
    const blocks = r.stdout.split(/\n\s*\n/).filter((b) => showProperties(b).has('Id')).length;
    return { units, current: unitsNeedingReload(r.stdout).length === 0 && blocks === units.length };
  };
  return {
    async current(units, opts) {
      if (units.length === 0) return false;
      const reloadAfterLinks = async () => {
        await opts?.linksFirst?.catch(() => undefined);
        await reload(units);
      };
      if (units.some((u) => written.has(u))) {
        await reloadAfterLinks();
        return true;
      }
      if (opts?.recent && units.every((u) => now() - (known.get(u) ?? Number.NEGATIVE_INFINITY) < KNOWN_CURRENT_MS)) return false;
      const early = opts?.asked ? await opts.asked : null;
      const answer = early && units.every((u) => early.units.includes(u)) ? early : await ask(units);
      if (answer.current) {
        remember(units);
        return false;
      }
      await reloadAfterLinks();
      return true;
    },
    ask,
    linksChanged() {
      pending = true;
      linkChanges++;
    },
    async reloadNow() {
      await reload([]);
    },
    unitWritten(unit) {
      written.add(unit);
      known.delete(unit);
    },
    async settle() {
      if (!pending) return;
      // Still pending when every way failed, or when a link changed while it was asked for (the
      // reload may have read the links before): the next settle of this process asks again.
      const changesBefore = linkChanges;
      const unit = await exec.run('systemd-run', RELOAD_UNIT, { timeoutMs: 10_000 }).catch(() => null);
      if (unit?.code === 0 || exec.launch?.('systemctl', ['daemon-reload'])) {
        if (linkChanges === changesBefore) pending = false;
        return;
      }
      await reload([]).catch(() => undefined);
    },
  };
}

/**
 * Writes a unit file (0644) only when its bytes differ from `text`: a rewrite of the same bytes
 * would move its mtime and make a loaded unit need a reload for nothing. True when it wrote.
 */
export async function writeUnitFile(fs: HostFs, file: string, text: string): Promise<boolean> {
  if ((await fs.readFile(file).catch(() => null))?.toString('utf8') === text) return false;
  await fs.writeFileAtomic(file, text, { mode: 0o644 });
  return true;
}

/** Waits for every promise to settle (systemctl calls run side by side), then throws the first one's error, in order, if any failed. */
export async function settledAll(all: readonly Promise<unknown>[]): Promise<void> {
  const r = await Promise.allSettled(all);
  const failed = r.find((x): x is PromiseRejectedResult => x.status === 'rejected');
  if (failed) throw failed.reason;
}
