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
 * settle() asks for that reload at the end of the command without waiting for it. A command
 * run outside a service (a login shell, sudo, the desktop app's helper) launches
 * `systemctl daemon-reload` as a detached child of its own session, which outlives it by the
 * reload's time; one run inside a service has PID 1 run it as a transient unit of its own
 * (RELOAD_UNIT). A systemctl call made meanwhile waits in the
 * manager until the reload is done. Not a child of a command run as a service
 * (`systemd-run`, a unit of the admin's) has its whole cgroup killed as it exits
 * (KillMode=control-group, systemd.kill(5)), and a reload launched as its child was killed with
 * it before it reached PID 1 (measured on the booted Debian 13 host: 2 of 3 such commands left no
 * reload, and the manager kept the links of the run before). (The manager's Reload() sent by
 * `busctl --expect-reply=no` does the same in 8–15 ms, but PID 1 then logs a warning at every
 * start and stop — "Failed to send queued reload message" — because nobody is left to take its
 * reply.)
 */
import { readFile } from 'node:fs/promises';
import { showUnits } from '../../../shared/systemd-show';
import { inServiceCgroup } from './cgroup-unit';
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
   * (linksChanged) after the reload began leaves settle() its own reload to ask for.
   * What this process heard of a unit within the last KNOWN_CURRENT_MS is used instead of a
   * question of its own — an answer of ask() (one still in flight is waited for), or a reload
   * that began since — and a unit written since is reloaded for whatever was heard. A start asks
   * about the proxy's unit with its preflight's status and about the others before that
   * (systemd-service.ts status, askUnits), so its capture's, its service step's and its
   * follower's calls here run no `systemctl show`; a process that runs for long asks again
   * later, as another process may have changed a unit meanwhile. With `linksFirst` (a change of the links on disk run alongside,
   * LINKS_ONLY), a reload waits for that change to settle, so it reads those links. Resolves true
   * when it reloaded. Throws when the reload fails.
   */
  current(units: readonly string[], opts?: { linksFirst?: Promise<unknown> }): Promise<boolean>;
  /**
   * Asks the manager `systemctl show -p Id -p LoadState -p NeedDaemonReload [-p P for each of
   * `props`] -- UNITS` in one process and keeps what it says of each unit asked about (its block,
   * by Id=) for current(); resolves to that output, null when systemctl failed (then nothing is
   * kept). Rejects only when systemctl could not be run.
   */
  ask(units: readonly string[], props?: readonly string[]): Promise<string | null>;
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
   * When links changed since the last reload: outside a service (inService false) launches
   * `systemctl daemon-reload` without waiting (Exec.launch: a session of its own, no stdio, so it
   * outlives this process and reaches PID 1 after its exit too); inside one, or where that launch
   * fails, has PID 1 run it as a unit of its own (RELOAD_UNIT, waits for the job to be queued: a
   * child would be killed with the service's cgroup), else launches it, or, where neither works,
   * reloads and waits. One at a time: a call while another asks waits for it, then asks only for
   * links changed since. Never throws.
   */
  settle(): Promise<void>;
}

/** True when a unit's `systemctl show` block (showUnits) says it is loaded from its current file. */
function loadedCurrent(kv: Map<string, string>): boolean {
  return kv.get('LoadState') === 'loaded' && kv.get('NeedDaemonReload') === 'no';
}

/**
 * The units (Id) of `systemctl show -p Id -p LoadState -p NeedDaemonReload U1 U2 …` output (one
 * block per unit, blank lines between) that are not loaded from their current file.
 */
export function unitsNeedingReload(showOutput: string): string[] {
  return [...showUnits(showOutput)].filter(([, kv]) => !loadedCurrent(kv)).map(([id]) => id);
}

/**
 * ms for which ManagerReload.current takes what it heard of a unit as still so (a start's
 * preflight to its follower's start after verify: < 1 s on a booted Debian 13 host).
 */
export const KNOWN_CURRENT_MS = 10_000;

let ownCgroup: Promise<boolean> | null = null;
/**
 * Whether this process runs in a `.service` unit's cgroup (cgroup-unit.ts inServiceCgroup of
 * /proc/self/cgroup, read once); true when that file cannot be read.
 */
export function processInService(): Promise<boolean> {
  ownCgroup ??= readFile('/proc/self/cgroup', 'utf8').then(inServiceCgroup, () => true);
  return ownCgroup;
}

/**
 * The systemd ManagerReload over `exec` (systemctl, systemd-run); `now` a monotonic clock in ms;
 * `inService` whether this process's cgroup is killed with a service as it exits (settle).
 */
export function systemdReload(exec: Exec, now: () => number = () => performance.now(), inService: () => Promise<boolean> = processInService): ManagerReload {
  let pending = false;
  // The settle() asking now, if any.
  let settling: Promise<void> | null = null;
  // Counts linksChanged() calls: a reload clears `pending` only when no link changed since it
  // began (a relink may run alongside a reload, whose read of the links then may miss it).
  let linkChanges = 0;
  const written = new Set<string>();
  // What this process heard of each unit not written since: loaded from its current file or not,
  // and when it was asked (or the reload that read it began). A later hearing replaces an earlier
  // one, never the other way round (an answer asked before a reload that lands after it).
  const heard = new Map<string, { current: boolean; at: number }>();
  const hear = (unit: string, current: boolean, at: number) => {
    if ((heard.get(unit)?.at ?? Number.NEGATIVE_INFINITY) <= at) heard.set(unit, { current, at });
  };
  // Questions in flight, for a current() that needs their answer.
  const asking = new Set<{ units: readonly string[]; done: Promise<unknown> }>();
  // Reloads in flight, for a current() that one of them may answer (never reject).
  const reloading = new Set<Promise<unknown>>();
  const reload = (units: readonly string[]): Promise<void> => {
    const run = reloadOnce(units);
    const done = run.catch(() => undefined);
    reloading.add(done);
    void done.then(() => reloading.delete(done));
    return run;
  };
  const reloadOnce = async (units: readonly string[]) => {
    const changesBefore = linkChanges;
    const began = now();
    // Only the units written before it began are surely read by it: one written meanwhile (the
    // proxy's start writes its unit while the capture's start reloads) stays for the next one.
    const writtenBefore = [...written];
    const r = await exec.run('systemctl', ['daemon-reload'], { timeoutMs: 60_000 });
    if (r.code !== 0) throw new Error(`systemctl daemon-reload failed (${r.stderr.trim() || `exit ${r.code}`}); see "journalctl -b _PID=1" and fix the cause, then retry.`);
    if (linkChanges === changesBefore) pending = false;
    for (const u of writtenBefore) written.delete(u);
    // A reload reads every unit file (systemctl(1) daemon-reload): each unit heard of, or written
    // before it began, is then loaded from its current file unless written since.
    for (const u of new Set([...units, ...writtenBefore, ...heard.keys()])) if (!written.has(u)) hear(u, true, began);
  };
  const ask = (units: readonly string[], props: readonly string[] = []): Promise<string | null> => {
    const at = now();
    const answer = (async () => {
      const r = await exec.run('systemctl', ['show', ...['Id', 'LoadState', 'NeedDaemonReload', ...props].flatMap((p) => ['-p', p]), '--', ...units], { timeoutMs: 10_000 });
      if (r.code !== 0) return null;
      // A unit without its block (an output this code does not know) is not heard of: asked again, or reloaded for.
      for (const [id, kv] of showUnits(r.stdout)) if (units.includes(id)) hear(id, loadedCurrent(kv), at);
      return r.stdout;
    })();
    // In flight until its answer is kept (or it failed).
    const q = { units, done: answer.catch(() => null) };
    asking.add(q);
    void q.done.then(() => asking.delete(q));
    return answer;
  };
  /** What was heard of `u` within KNOWN_CURRENT_MS and not written since, else null. */
  const fresh = (u: string) => {
    const h = heard.get(u);
    return h && !written.has(u) && now() - h.at < KNOWN_CURRENT_MS ? h : null;
  };
  const needsReload = async (units: readonly string[]): Promise<boolean> => {
    const clear = () => units.every((u) => fresh(u)?.current === true);
    if (clear()) return false;
    // A reload in flight (the capture's start, for its new unit, while the service step writes
    // nothing new: start.ts has the proxy's units written before it) reads every unit written
    // before it began: waited for, not run again after it.
    if (reloading.size > 0) {
      await Promise.all(reloading);
      if (clear()) return false;
    }
    if (units.some((u) => written.has(u) || fresh(u)?.current === false)) return true;
    // A question in flight that covers a unit not heard of: its answer (preflight's, asked alongside its checks).
    const unheard = () => units.filter((u) => !fresh(u));
    await Promise.all([...asking].filter((q) => unheard().some((u) => q.units.includes(u))).map((q) => q.done));
    if (unheard().length > 0) await ask(unheard()).catch(() => null);
    return units.some((u) => fresh(u)?.current !== true);
  };
  return {
    async current(units, opts) {
      if (units.length === 0 || !(await needsReload(units))) return false;
      await opts?.linksFirst?.catch(() => undefined);
      await reload(units);
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
      heard.delete(unit);
    },
    async settle() {
      // One at a time: a settle called while one asks (stop begins it once the proxy's stop is
      // done, and again at its end) waits for that one, then asks only for links changed since.
      while (settling) await settling;
      if (!pending) return;
      settling = (async () => {
        // Still pending when every way failed, or when a link changed while it was asked for (the
        // reload may have read the links before): the next settle of this process asks again.
        const changesBefore = linkChanges;
        const asked = () => {
          if (linkChanges === changesBefore) pending = false;
        };
        // Outside a service nothing kills a detached child as this command exits: the request is
        // not waited for (the systemd-run, 7–12 ms on an idle booted Debian 13 host and more under
        // load, was the last thing a stop waited for; issue #21).
        if (exec.launch && !(await inService()) && exec.launch('systemctl', ['daemon-reload'])) return asked();
        const unit = await exec.run('systemd-run', RELOAD_UNIT, { timeoutMs: 10_000 }).catch(() => null);
        if (unit?.code === 0 || exec.launch?.('systemctl', ['daemon-reload'])) return asked();
        await reload([]).catch(() => undefined);
      })().finally(() => {
        settling = null;
      });
      await settling;
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
