/**
 * The ServiceManager for hosts without systemd: a detached process (own session), output
 * appended to the log, pid in K2S_PATHS.pidFile. Liveness = pid alive AND /proc/<pid>/cmdline's
 * argv[0] equals the one we started (guards against pid reuse after a reboot or crash).
 */
import { spawn } from 'node:child_process';
import { promises as fsp, constants as fsc } from 'node:fs';
import path from 'node:path';
import { K2S_PATHS } from '../../shared/k2s-paths';
import type { HostFs } from './host-fs';
import type { ServiceManager } from './service-manager';

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

/** Supervised ServiceManager on `fs` (pidfile and log under its root). */
export function createSupervisedManager(fs: HostFs, opts: SupervisedOptions = {}): ServiceManager {
  const stopTimeoutMs = opts.stopTimeoutMs ?? 5000;
  const pollMs = opts.pollMs ?? 50;
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

  async function waitGone(pid: number, argv0: string, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (;;) {
      if (!(await isProcessRunning(pid, argv0, procDir))) return true;
      if (Date.now() >= deadline) return false;
      await sleep(pollMs);
    }
  }

  const manager: ServiceManager = {
    kind: 'supervised',
    async start(spec) {
      const [file, ...args] = spec.argv;
      if (file === undefined) throw new Error('No command given for the proxy service; pass the proxy binary and its arguments.');
      await manager.stop(); // like `systemctl restart`: one instance, new argv applies
      await fs.mkdirp(path.posix.dirname(spec.logFile), 0o755);
      await fs.mkdirp(K2S_PATHS.runDir, 0o755);
      // O_APPEND: writers from several starts and the CLI never overwrite each other.
      const log = await fsp.open(fs.real(spec.logFile), fsc.O_WRONLY | fsc.O_APPEND | fsc.O_CREAT, 0o644);
      let pid: number;
      try {
        const child = spawn(file, args, { detached: true, stdio: ['ignore', log.fd, log.fd] });
        pid = await new Promise<number>((resolve, reject) => {
          child.once('error', (err) => reject(new Error(`Cannot start ${file} (${err.message}); check that the proxy binary exists and is executable.`)));
          child.once('spawn', () => resolve(child.pid as number));
        });
        child.unref(); // the service outlives this process (helper/CLI exit)
      } finally {
        await log.close();
      }
      await fs.writeFileAtomic(SUPERVISED_ARGV0_FILE, file, { mode: 0o644 });
      await fs.writeFileAtomic(K2S_PATHS.pidFile, `${pid}\n`, { mode: 0o644 });
      return { pid };
    },
    async stop() {
      const rec = await readRecord();
      if (rec && (await isProcessRunning(rec.pid, rec.argv0, procDir))) {
        signal(rec.pid, 'SIGTERM'); // dnsproxy and dnsmasq exit cleanly on SIGTERM
        if (!(await waitGone(rec.pid, rec.argv0, stopTimeoutMs))) {
          signal(rec.pid, 'SIGKILL');
          if (!(await waitGone(rec.pid, rec.argv0, 2000))) {
            throw new Error(`The proxy (pid ${rec.pid}) did not exit after SIGKILL; check it with "ps -p ${rec.pid}" and stop it by hand.`);
          }
        }
      }
      await fs.remove(K2S_PATHS.pidFile);
      await fs.remove(SUPERVISED_ARGV0_FILE);
    },
    async status() {
      const rec = await readRecord();
      if (rec && (await isProcessRunning(rec.pid, rec.argv0, procDir))) return { running: true, pid: rec.pid };
      return { running: false, pid: null };
    },
  };
  return manager;
}
