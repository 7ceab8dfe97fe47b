import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LifecycleEvent, ResultEvent } from '../shared/lifecycle-events';

const BIN = fileURLToPath(new URL('../bin/k2s-dns.mjs', import.meta.url));

/** Output of one `k2s-dns` run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Parsed `--json` event lines (empty without --json). */
  events: LifecycleEvent[];
  result: ResultEvent | undefined;
}

/** Runs the real CLI (`node bin/k2s-dns.mjs ARGS`) as a child process; bounded to 60 s. */
export function k2sDns(args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      const events = stdout
        .split('\n')
        .filter((l) => l.startsWith('{"type":'))
        .map((l) => JSON.parse(l) as LifecycleEvent);
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr, events, result: events.findLast((e): e is ResultEvent => e.type === 'result') });
    });
  });
}

/** `getent hosts NAME` → the addresses it printed ([] when it fails). */
export function getentHosts(name: string): Promise<string[]> {
  return new Promise((resolve) => {
    execFile('getent', ['hosts', name], { timeout: 15_000 }, (err, stdout) => {
      resolve(err ? [] : stdout.split('\n').filter(Boolean).map((l) => l.split(/\s+/)[0]!));
    });
  });
}
