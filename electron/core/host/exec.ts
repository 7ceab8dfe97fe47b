import { spawn } from 'node:child_process';

/** Outcome of one finished command. `code` is null when a signal ended it. */
export interface ExecResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Options for one command. `timeoutMs` kills it with SIGKILL after that many ms and ends the
 * wait then, even when a process it started still holds its stdout or stderr open (a shell
 * script's `sleep`): the result so far, `code` null. `maxOutputChars` kills it the same way once
 * its stdout and stderr together reach that many characters (a program that prints without
 * end), the output kept up to there.
 */
export interface ExecOptions {
  timeoutMs?: number;
  maxOutputChars?: number;
  input?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs programs with an argv array, never through a shell. Injected so tests can observe or
 * replace host commands.
 */
export interface Exec {
  /** Runs `file` with `args`; never throws for a non-zero exit, only when it cannot start. */
  run(file: string, args: readonly string[], options?: ExecOptions): Promise<ExecResult>;
  /**
   * Starts `file` with `args` in a session of its own, no stdio, and does not wait for it: it
   * outlives this process (its exit status is nobody's). Never throws; false when it could not
   * be spawned. Absent: the caller runs it with run() instead.
   */
  launch?(file: string, args: readonly string[]): boolean;
}

/** The real Exec: child_process.spawn with an argv array and no shell. */
export const nodeExec: Exec = {
  run(file, args, options = {}) {
    return new Promise((resolve, reject) => {
      // stdin only when there is input: writing to a child that already exited raises EPIPE.
      const child = spawn(file, [...args], {
        stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        env: options.env ?? process.env,
      });
      let stdout = '';
      let stderr = '';
      // A kill ends the wait: 'close' waits for the pipes, which a grandchild may hold open
      // (child_process: 'close' after the stdio streams close), so they are closed on our side.
      const end = () => {
        child.kill('SIGKILL');
        child.stdout!.destroy();
        child.stderr!.destroy();
      };
      const cap = options.maxOutputChars;
      let taken = 0;
      const take = (d: string, add: (text: string) => void) => {
        if (cap === undefined) return add(d);
        if (taken >= cap) return;
        add(d.slice(0, cap - taken));
        taken += d.length;
        if (taken >= cap) end();
      };
      child.stdout!.setEncoding('utf8').on('data', (d: string) => take(d, (t) => (stdout += t)));
      child.stderr!.setEncoding('utf8').on('data', (d: string) => take(d, (t) => (stderr += t)));
      const timer = options.timeoutMs === undefined ? undefined : setTimeout(end, options.timeoutMs);
      child.on('error', (err) => {
        if (timer) clearTimeout(timer);
        reject(err);
      });
      child.on('close', (code) => {
        if (timer) clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
      if (child.stdin) {
        child.stdin.on('error', () => undefined);
        child.stdin.end(options.input);
      }
    });
  },
  launch(file, args) {
    try {
      const child = spawn(file, [...args], { detached: true, stdio: 'ignore' });
      child.on('error', () => undefined);
      child.unref();
      return child.pid !== undefined;
    } catch {
      return false;
    }
  },
};
