/**
 * dnsperf 2.x runs (DNS-OARC dnsperf; `apt-get install dnsperf`): the maximum rate one client
 * gets, and the latency at a fixed rate (`-Q`). dnsperf 2.10 prints no percentiles, so the
 * fixed-rate run uses `-v` (one `> RCODE name type seconds` line per answer) and computes them.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { percentile } from './stats';

/** One dnsperf run's outcome: qps achieved, lost queries, latencies in ms (fixed-rate runs). */
export interface DnsperfRun {
  qps: number;
  lost: number;
  p50Ms: number;
  p99Ms: number;
}

/** Whether dnsperf is installed. */
export function hasDnsperf(): Promise<boolean> {
  // `dnsperf -h` exits non-zero; only a spawn error (ENOENT: not installed) means it is missing.
  return new Promise((resolve) => execFile('dnsperf', ['-h'], (err) => resolve((err as NodeJS.ErrnoException | null)?.code !== 'ENOENT')));
}

/** Writes a query file with `names` (type A each) into `dir`; returns its path. */
export async function queryFile(dir: string, label: string, names: string[]): Promise<string> {
  const path = join(dir, `queries-${label}.txt`);
  await writeFile(path, names.map((n) => `${n} A\n`).join(''));
  return path;
}

/**
 * Runs dnsperf against `server` (IP) port 53 for `seconds`; with `rate`, at that fixed rate and
 * verbose (latency percentiles). Throws when dnsperf fails to run.
 */
export function dnsperf(server: string, file: string, seconds: number, rate?: number): Promise<DnsperfRun> {
  const args = ['-s', server, '-d', file, '-l', String(seconds), '-t', '2', ...(rate ? ['-Q', String(rate), '-v'] : [])];
  return new Promise((resolve, reject) => {
    execFile('dnsperf', args, { maxBuffer: 256 * 1024 * 1024, timeout: (seconds + 30) * 1000 }, (err, stdout) => {
      if (err && !stdout) return reject(err);
      const qps = Number(/Queries per second:\s+([\d.]+)/.exec(stdout)?.[1] ?? Number.NaN);
      const lost = Number(/Queries lost:\s+(\d+)/.exec(stdout)?.[1] ?? Number.NaN);
      const lat = rate ? [...stdout.matchAll(/^> \S+ \S+ \S+ ([\d.]+)$/gm)].map((m) => Number(m[1]) * 1000) : [];
      resolve({ qps, lost, p50Ms: percentile(lat, 50), p99Ms: percentile(lat, 99) });
    });
  });
}
