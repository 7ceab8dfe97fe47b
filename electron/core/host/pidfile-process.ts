/**
 * A detached root process recorded by a pidfile in /run/k2s — how the network follower and the
 * exact query log's companion run on hosts without systemd. The pid counts only while
 * /proc/PID/cmdline is still that program (`isOwnArgv`), so a reused pid is never signalled.
 * Both are Node programs that make no TLS connection: they run without NODE_EXTRA_CA_CERTS, and
 * without the variables pkexec and sudo set, which make their internal verbs refuse to run
 * (child-env.ts internalVerbEnv).
 */
import { spawn } from 'node:child_process';
import { access, open, readFile } from 'node:fs/promises';
import { constants as fsc } from 'node:fs';
import path from 'node:path';
import type { HostFs } from './host-fs';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { parseCmdline } from './own-proxy';
import { internalVerbEnv } from './child-env';

/** Where the process is recorded and how it is recognised. */
export interface PidfileSpec {
  /** Host path of its pid. */
  pidFile: string;
  /** Host path its stdout and stderr are appended to (0600). */
  logFile: string;
  /** True when a /proc/PID/cmdline is this program. */
  isOwnArgv(argv: readonly string[]): boolean;
  /** How long stop waits after SIGTERM before SIGKILL, ms (the process's own bounded shutdown). */
  stopWaitMs: number;
}

/**
 * sh script run as `sh -c HOLD_BACK sh PROGRAM ARGS…`: waits for the line "go" on stdin, then
 * execs the program with stdin from /dev/null; at EOF (the starter died) it exits, status 1.
 */
const HOLD_BACK = 'IFS= read -r go && [ "$go" = go ] && exec "$@" </dev/null; exit 1';

/**
 * A program started ahead of its job (pidfileProcess `prepare`): it runs, but waits for one line
 * on its stdin before it does anything, and exits when stdin ends without one — so a starter
 * that dies or drops it leaves nothing behind. Not recorded in the pidfile until let go.
 */
export interface HeldProcess {
  readonly pid: number;
  /** True once it has exited (it can no longer be let go). */
  exited(): boolean;
  /** Ends its stdin without a line, so it exits having done nothing; no-op once let go. Idempotent. */
  drop(): void;
  /** Records its pid, then writes `line` to its stdin and ends it (startHeld). */
  letGo(line: string): void;
}

/** Starts (detached, pid recorded) and stops (SIGTERM, then SIGKILL after `stopWaitMs`) the one process of `spec`. */
export function pidfileProcess(fs: HostFs, spec: PidfileSpec, procDir = '/proc'): { start(argv: string[]): Promise<void>; prepare(argv: string[], opts?: { holdBack?: boolean }): Promise<HeldProcess>; startHeld(held: HeldProcess, line: string): Promise<void>; stop(): Promise<void>; running(): Promise<boolean>; pid(): Promise<number | null> } {
  const recorded = async (): Promise<number | null> => {
    const pid = Number.parseInt((await fs.readFile(spec.pidFile).catch(() => Buffer.from(''))).toString('utf8'), 10);
    if (!Number.isInteger(pid) || pid <= 1) return null;
    const argv = await readFile(path.join(procDir, String(pid), 'cmdline')).then(parseCmdline, () => [] as string[]);
    return spec.isOwnArgv(argv) ? pid : null;
  };
  const stop = async () => {
    const pid = await recorded();
    if (pid !== null) {
      process.kill(pid, 'SIGTERM');
      // Looked at again after 1, 2, 4, 8, then every 10 ms: a follower ends within a few ms of
      // SIGTERM (a whole first period was stop's time); a draining capture takes up to ~1 s.
      const deadline = Date.now() + spec.stopWaitMs;
      for (let wait = 1; Date.now() < deadline && (await recorded()) === pid; wait = Math.min(10, wait * 2)) await new Promise((r) => setTimeout(r, wait));
      if ((await recorded()) === pid) process.kill(pid, 'SIGKILL');
    }
    await fs.remove(spec.pidFile);
  };
  return {
    async start(argv) {
      await stop();
      // A missing program fails here, as its spawn did before the shell came in between.
      await access(argv[0]!, fsc.X_OK);
      await fs.mkdirp(K2S_PATHS.runDir, 0o755);
      const log = await open(fs.real(spec.logFile), 'a', 0o600);
      try {
        // The program runs only once its pid is recorded: a shell holds it back until the "go"
        // line we write after the pidfile, then execs it (same pid). Killed in between, we close
        // the pipe and the shell reads EOF and exits: never an untracked root process.
        const child = spawn('/bin/sh', ['-c', HOLD_BACK, 'sh', ...argv], { detached: true, stdio: ['pipe', log.fd, log.fd], env: internalVerbEnv() });
        const pid = await new Promise<number>((resolve, reject) => {
          child.once('error', reject);
          child.once('spawn', () => resolve(child.pid!));
        });
        child.unref();
        child.stdin!.on('error', () => undefined); // the shell gone (EPIPE): start's error is the pidfile's or none
        try {
          await fs.writeFileAtomic(spec.pidFile, `${pid}\n`, { mode: 0o644 });
        } catch (err) {
          child.stdin!.destroy(); // EOF: the shell exits without running the program
          throw err;
        }
        child.stdin!.end('go\n');
      } finally {
        await log.close();
      }
    },
    /**
     * Spawns `argv` now, detached, output appended to the log, held: the program itself waits
     * for its line on stdin (the capture companion's CAPTURE_HELD_FLAG) — its start-up runs while
     * the caller still decides — or, with `holdBack`, the HOLD_BACK shell waits for the line "go"
     * and only then execs the program (same pid): the spawn, which blocks this thread until the
     * child has exec'd, is paid while the caller waits for something else. The old process is
     * left alone until startHeld.
     */
    async prepare(argv, opts = {}) {
      await access(argv[0]!, fsc.X_OK);
      await fs.mkdirp(K2S_PATHS.runDir, 0o755);
      const log = await open(fs.real(spec.logFile), 'a', 0o600);
      try {
        const child = opts.holdBack
          ? spawn('/bin/sh', ['-c', HOLD_BACK, 'sh', ...argv], { detached: true, stdio: ['pipe', log.fd, log.fd], env: internalVerbEnv() })
          : spawn(argv[0]!, argv.slice(1), { detached: true, stdio: ['pipe', log.fd, log.fd], env: internalVerbEnv() });
        const pid = await new Promise<number>((resolve, reject) => {
          child.once('error', reject);
          child.once('spawn', () => resolve(child.pid!));
        });
        child.unref();
        child.stdin!.on('error', () => undefined); // gone (EPIPE): its start is then a fresh one
        let gone = false;
        let settled = false;
        child.once('exit', () => (gone = true));
        return {
          pid,
          exited: () => gone,
          drop: () => {
            if (settled) return;
            settled = true;
            child.stdin!.destroy();
          },
          letGo: (line: string) => {
            if (settled) return;
            settled = true;
            child.stdin!.end(`${line}\n`);
          },
        };
      } finally {
        await log.close();
      }
    },
    /**
     * Lets `held` go as the one process of `spec`: the old one is stopped, the held pid recorded,
     * then `line` written to its stdin. A pidfile that cannot be written drops it (it exits) and
     * throws; a held process that has exited is an error (the caller starts afresh).
     */
    async startHeld(held, line) {
      await stop();
      if (held.exited()) throw new Error('the prepared process exited before it was let go');
      try {
        await fs.writeFileAtomic(spec.pidFile, `${held.pid}\n`, { mode: 0o644 });
      } catch (err) {
        held.drop();
        throw err;
      }
      held.letGo(line);
    },
    stop,
    /** True while the recorded pid is alive and still this program (a kill -9 leaves the pidfile, not the process). */
    async running() {
      return (await recorded()) !== null;
    },
    /** The recorded pid while it is still this program, else null. */
    pid: recorded,
  };
}
