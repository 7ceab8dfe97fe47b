/**
 * The ServiceManager for hosts without systemd: a detached watchdog (own session, output
 * appended to the log) that owns the proxy, pid in K2S_PATHS.pidFile written before exec.
 * Liveness = pid alive AND /proc/<pid>/cmdline's argv[0] equals the one we started (guards
 * against pid reuse after a reboot or crash), or a process with our exact command line.
 */
import { spawn } from 'node:child_process';
import { promises as fsp, constants as fsc } from 'node:fs';
import path from 'node:path';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import type { HostFs } from './host-fs';
import { openQueryLog, readAdmGid, rotateLogIfOver, startLogGuard } from './query-log';
import type { ServiceManager } from './service-manager';
import { findOwnProxies, parseCmdline } from './own-proxy';
import { isWatchdogArgv, parseWatchdogState, watchdogArgv, type WatchdogState } from './supervisor-script';
import { waitForFile } from './wait-file';

/** Sidecar next to the pidfile holding the started argv[0], so a later process can check /proc. */
export const SUPERVISED_ARGV0_FILE = `${K2S_PATHS.pidFile}.argv0`;

/** Timing knobs in ms: how long stop waits after SIGTERM (then SIGKILL), and the poll interval. */
export interface SupervisedOptions {
  stopTimeoutMs?: number;
  pollMs?: number;
  /** /proc location (tests may point elsewhere); processes are host-global, so no root prefix. */
  procDir?: string;
}

/** kill(2) that treats "already gone" (ESRCH) as success. */
function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** True when `pid` exists and its argv[0] is `argv0` (a zombie has an empty cmdline: false). */
export async function isProcessRunning(pid: number, argv0: string, procDir = '/proc'): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const cmdline = await fsp.readFile(path.join(procDir, String(pid), 'cmdline'));
    return cmdline.toString('utf8').split('\0')[0] === argv0;
  } catch {
    return false;
  }
}

/**
 * Waits until `pid` has exec'd `argv0` (its /proc/PID/cmdline starts with it) or is gone, for
 * at most `ms` ms, looking again after 1, 2, 4 … ms, at most `pollMs` apart (the exec follows
 * the pid write within a millisecond or two on an idle host: a first wait of a whole period was
 * start's time). The watchdog's shell writes the pid BEFORE it
 * execs (setpriv, then) the proxy, so a status read in that gap — milliseconds, longer on a busy
 * host or with setpriv's extra exec — would call a starting proxy "not running" (seen as a flaky
 * SERVICE_EXITED). Returns true when the exec was seen, false on exit or deadline.
 */
export async function waitForExec(pid: number, argv0: string, ms: number, procDir = '/proc', pollMs = 20): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (let wait = 1; ; wait = Math.min(pollMs, wait * 2)) {
    if (await isProcessRunning(pid, argv0, procDir)) return true;
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false; // exited (exec failed)
    }
    if (Date.now() >= deadline) return false;
    await sleep(wait);
  }
}

/** Host path of the watchdog's state file (restarts so far; supervisor-script.ts). */
export const WATCHDOG_STATE_FILE = `${K2S_PATHS.runDir}/dnsproxy-watchdog.state`;

/** Host path of the watchdog's pid (written by the parent after spawn; the scan covers the gap). */
export const WATCHDOG_PID_FILE = `${K2S_PATHS.runDir}/dnsproxy-watchdog.pid`;

/**
 * True when the pid in WATCHDOG_PID_FILE is a live watchdog shell (its /proc cmdline is the
 * watchdog's argv). A watchdog killed during its backoff sleep leaves `state=restarting` behind;
 * only a live one makes "it is restarting, wait" true.
 */
export async function watchdogAlive(fs: HostFs, procDir = '/proc'): Promise<boolean> {
  const pid = Number.parseInt((await fs.readFile(WATCHDOG_PID_FILE).catch(() => Buffer.from(''))).toString('utf8'), 10);
  if (!Number.isInteger(pid) || pid <= 1) return false;
  const argv = await fsp.readFile(path.join(procDir, String(pid), 'cmdline')).then(parseCmdline, () => [] as string[]);
  return isWatchdogArgv(argv);
}

/**
 * The proxy PID the pidfile holds (written by the proxy's own shell before exec:
 * supervisor-script.ts), alive or not; null when there is none. After the proxy and its watchdog
 * were both killed, this is the PID of the proxy that ended last (the watchdog removes the
 * file only when it exits by itself).
 */
export async function recordedProxyPid(fs: HostFs): Promise<number | null> {
  const pid = Number.parseInt((await fs.readFile(K2S_PATHS.pidFile).catch(() => Buffer.from(''))).toString('utf8').trim(), 10);
  return Number.isInteger(pid) && pid > 1 ? pid : null;
}

/** What the supervised manager knows beyond running/pid: the watchdog's restarts. */
export async function readWatchdogState(fs: HostFs): Promise<WatchdogState | null> {
  const text = await fs.readFile(WATCHDOG_STATE_FILE).then((b) => b.toString('utf8'), () => null);
  return text === null ? null : parseWatchdogState(text);
}

/**
 * Supervised ServiceManager on `fs` (pidfile and log under its root). The proxy runs under the
 * watchdog of supervisor-script.ts (pid recorded before exec, restarts with bounded backoff);
 * stop also finds our processes by their exact command line (own-proxy.ts), so an orphan whose
 * pidfile was lost is stopped too.
 */
export function createSupervisedManager(fs: HostFs, opts: SupervisedOptions = {}): ServiceManager {
  const stopTimeoutMs = opts.stopTimeoutMs ?? 5000;
  // 10 ms at most between two looks: a proxy exits within a few ms of SIGTERM; a 50 ms poll made
  // each of stop's two waits (watchdog, then proxy) cost a whole period (docs/bench.md stop-service).
  const pollMs = opts.pollMs ?? 10;
  const procDir = opts.procDir ?? '/proc';

  async function readRecord(): Promise<{ pid: number; argv0: string } | null> {
    let pidText: string;
    let argv0: string;
    try {
      pidText = (await fs.readFile(K2S_PATHS.pidFile)).toString('utf8');
      argv0 = (await fs.readFile(SUPERVISED_ARGV0_FILE)).toString('utf8');
    } catch {
      return null;
    }
    const pid = Number.parseInt(pidText.trim(), 10);
    return Number.isInteger(pid) && pid > 1 ? { pid, argv0 } : null;
  }

  async function alive(pid: number): Promise<boolean> {
    try {
      process.kill(pid, 0);
      // A zombie (killed, not yet reaped by its parent) has an empty cmdline: gone for us.
      return (await fsp.readFile(path.join(procDir, String(pid), 'cmdline'))).length > 0;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EPERM';
    }
  }

  /**
   * The pids of `pids` still alive after at most `ms`: looked at again after 1, 2, 4, 8, then
   * every `pollMs` ms. The watchdog's shell ends within a few ms of SIGTERM, once its proxy has
   * (supervisor-script.ts): with a first look a whole period later its end was seen 11–12 ms
   * after the SIGTERM, with this backoff 4–7 ms (medians of 10–12 stops per engine, sandbox on the
   * 2-core test machine at load 7–11, docs/benchmarking.md "Where a sandbox stop's time goes").
   */
  async function waitAllGone(pids: number[], ms: number): Promise<number[]> {
    const deadline = Date.now() + ms;
    for (let wait = 1; ; wait = Math.min(pollMs, wait * 2)) {
      const left: number[] = [];
      for (const pid of pids) if (await alive(pid)) left.push(pid);
      if (left.length === 0 || Date.now() >= deadline) return left;
      await sleep(Math.min(wait, pollMs));
    }
  }

  /** SIGTERM, bounded wait, then SIGKILL; throws with the fix when something survives. */
  async function terminate(pids: number[]): Promise<void> {
    if (pids.length === 0) return;
    for (const pid of pids) signal(pid, 'SIGTERM'); // dnsproxy, dnsmasq and the watchdog exit cleanly on SIGTERM
    const left = await waitAllGone(pids, stopTimeoutMs);
    for (const pid of left) signal(pid, 'SIGKILL');
    const stuck = await waitAllGone(left, 2000);
    if (stuck.length > 0) {
      throw new Error(`The proxy (pid ${stuck.join(', ')}) did not exit after SIGKILL; check it with "ps -p ${stuck[0]}" and stop it by hand.`);
    }
  }

  async function ownProcesses(): Promise<{ watchdogs: number[]; proxies: number[] }> {
    const watchdogs: number[] = [];
    const proxies: number[] = [];
    for (const pid of await findOwnProxies(fs, procDir)) {
      const argv = await fsp.readFile(path.join(procDir, String(pid), 'cmdline')).then(parseCmdline, () => [] as string[]);
      (isWatchdogArgv(argv) ? watchdogs : proxies).push(pid);
    }
    const recorded = Number.parseInt((await fs.readFile(WATCHDOG_PID_FILE).catch(() => Buffer.from(''))).toString('utf8'), 10);
    if (Number.isInteger(recorded) && recorded > 1 && !watchdogs.includes(recorded)) {
      const argv = await fsp.readFile(path.join(procDir, String(recorded), 'cmdline')).then(parseCmdline, () => [] as string[]);
      if (isWatchdogArgv(argv)) watchdogs.push(recorded);
    }
    return { watchdogs, proxies };
  }

  const manager: ServiceManager = {
    kind: 'supervised',
    async start(spec) {
      const [file, ...args] = spec.argv;
      if (file === undefined) throw new Error('No command given for the proxy service; pass the proxy binary and its arguments.');
      // runAs: setpriv execs the proxy as that user with only CAP_NET_BIND_SERVICE (ambient, so
      // it survives the exec), so /proc/PID/cmdline then shows the proxy binary, not setpriv.
      const launch = spec.runAs
        ? ['setpriv', `--reuid=${spec.runAs.user}`, `--regid=${spec.runAs.group}`, '--clear-groups', '--inh-caps=+net_bind_service', '--ambient-caps=+net_bind_service', '--bounding-set=-all,+net_bind_service', '--', file, ...args]
        : spec.argv;
      await manager.stop(); // like `systemctl restart`: one instance, new argv applies
      // The watchdog shell would only report a missing binary in the log: check a path here
      // (the lifecycle always passes an absolute one; a bare name is looked up in PATH by sh).
      if (file.includes('/')) await fsp.access(file, fsc.X_OK).catch((err: NodeJS.ErrnoException) => {
        throw new Error(`Cannot start ${file} (spawn ${file} ${err.code ?? err.message}); check that the proxy binary exists and is executable.`);
      });
      await fs.mkdirp(path.posix.dirname(spec.logFile), 0o755);
      await fs.mkdirp(K2S_PATHS.runDir, 0o755);
      // Identity first: argv[0] is on disk before anything is spawned, the pid is written by
      // the proxy's own shell before exec (supervisor-script.ts).
      await fs.writeFileAtomic(SUPERVISED_ARGV0_FILE, file, { mode: 0o644 });
      await fs.remove(K2S_PATHS.pidFile);
      // O_APPEND: writers from several starts and the CLI never overwrite each other.
      // Private (root:adm 0640) and bounded: query-log.ts.
      await rotateLogIfOver(fs.real(spec.logFile));
      const log = await openQueryLog(fs.real(spec.logFile), await readAdmGid(fs.real('/etc/group')));
      const argv = watchdogArgv(fs.real(K2S_PATHS.pidFile), fs.real(WATCHDOG_STATE_FILE), launch, spec.guardDirs ?? [], spec.startLine);
      let watchdogPid: number;
      try {
        const child = spawn(argv[0] as string, argv.slice(1), { detached: true, stdio: ['ignore', log.fd, log.fd] });
        watchdogPid = await new Promise<number>((resolve, reject) => {
          child.once('error', (err) => reject(new Error(`Cannot start ${file} (${err.message}); check that /bin/sh and the proxy binary exist.`)));
          child.once('spawn', () => resolve(child.pid as number));
        });
        child.unref(); // the service outlives this process (helper/CLI exit)
        await fs.writeFileAtomic(WATCHDOG_PID_FILE, `${watchdogPid}\n`, { mode: 0o644 });
      } finally {
        await log.close();
      }
      // Copytruncate at the cap for as long as the watchdog (and so the service) lives.
      await startLogGuard(fs.real(spec.logFile), watchdogPid);
      // Bounded wait for the pid the proxy's shell writes (it exists before the proxy serves),
      // woken by inotify at its write (wait-file.ts), `pollMs` the fallback poll.
      const deadline = Date.now() + 5000;
      let rec: { pid: number; argv0: string } | null = null;
      await waitForFile(async () => (rec = await readRecord()) !== null, fs.real(path.posix.dirname(K2S_PATHS.pidFile)), 5000, pollMs);
      if (!rec) return { pid: null };
      const found: { pid: number; argv0: string } = rec;
      // …and for its exec, so the caller's first status() sees the proxy, not its shell.
      await waitForExec(found.pid, found.argv0, Math.max(0, deadline - Date.now()), procDir, pollMs);
      return { pid: found.pid };
    },
    async stop() {
      const rec = await readRecord();
      const own = await ownProcesses();
      // The watchdog first: a proxy stopped under a live watchdog would be restarted.
      await terminate(own.watchdogs);
      const proxies = new Set(own.proxies);
      if (rec && (await isProcessRunning(rec.pid, rec.argv0, procDir))) proxies.add(rec.pid);
      // One the watchdog started meanwhile: only a watchdog stopped just now could have, so
      // /proc is walked again only then (a walk reads every process's cmdline: own-proxy.ts).
      if (own.watchdogs.length > 0) for (const pid of await findOwnProxies(fs, procDir)) proxies.add(pid);
      await terminate([...proxies]);
      await fs.remove(K2S_PATHS.pidFile);
      await fs.remove(SUPERVISED_ARGV0_FILE);
      await fs.remove(WATCHDOG_STATE_FILE);
      await fs.remove(WATCHDOG_PID_FILE);
    },
    async status() {
      const rec = await readRecord();
      if (rec && (await isProcessRunning(rec.pid, rec.argv0, procDir))) return { running: true, pid: rec.pid };
      // No record (killed CLI, /run emptied) but our proxy serves: it is running, and stop stops it.
      const { proxies } = await ownProcesses();
      if (proxies[0] !== undefined) return { running: true, pid: proxies[0] };
      return { running: false, pid: null };
    },
  };
  return manager;
}
