import { spawn } from 'node:child_process';

/** Outcome of one finished command. `code` is null when a signal ended it. */
export interface ExecResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options for one command. `timeoutMs` kills it with SIGKILL after that many ms. */
export interface ExecOptions {
  timeoutMs?: number;
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
      child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const timer =
        options.timeoutMs === undefined
          ? undefined
          : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
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
