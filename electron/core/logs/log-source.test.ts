import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LogLine, LogReset } from '../../../shared/types';
import { createLogSource } from './log-source';
import { createReadProblemReporter } from './read-problems';

// Wrap (not replace) the follower so the test can count pollers started and stopped.
const counts = vi.hoisted(() => ({ started: 0, stopped: 0 }));
vi.mock('./follow', async (importOriginal) => {
  const real = await importOriginal<typeof import('./follow')>();
  return {
    ...real,
    followLog: (...args: Parameters<typeof real.followLog>) => {
      counts.started += 1;
      const f = real.followLog(...args);
      return {
        stop() {
          counts.stopped += 1;
          f.stop();
        },
      };
    },
  };
});

const WAIT = { timeout: 5_000, interval: 10 };
const UDP = '2026/11/29 15:04:05.123456 INFO listening to udp addr=127.0.0.1:53';
const TCP = '2026/11/29 15:04:05.123500 INFO listening to tcp addr=127.0.0.1:53';
const QUERY = '2026/11/29 15:04:06.000001 DEBUG handling query id=4711 question="kubernetes.default.svc.cluster.local. IN A" upstream=172.21.0.10:53';

let dir: string;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'k2s-dns-logsrc-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  counts.started = 0;
  counts.stopped = 0;
});

function logPath(): string {
  n += 1;
  return path.join(dir, `dnsproxy-${n}.log`);
}

describe('createLogSource', () => {
  it('tail parses the last lines and skips blank ones', async () => {
    const file = logPath();
    writeFileSync(file, `${UDP}\n\n${TCP}\n${QUERY}\n`);
    const src = createLogSource(file);
    const lines = await src.tail(2);
    expect(lines).toEqual([
      { time: '2026-11-29T15:04:05.123500', level: 'INFO', message: 'listening to tcp', fields: { addr: '127.0.0.1:53' }, raw: TCP },
      {
        time: '2026-11-29T15:04:06.000001',
        level: 'DEBUG',
        message: 'handling query',
        fields: { id: '4711', question: 'kubernetes.default.svc.cluster.local. IN A', upstream: '172.21.0.10:53' },
        raw: QUERY,
      },
    ]);
    await expect(src.tail(10)).resolves.toHaveLength(3);
    await expect(createLogSource(path.join(dir, 'missing.log')).tail(10)).resolves.toEqual([]);
  });

  it('tells every subscriber that the log was removed (Uninstall), with its path', async () => {
    const file = logPath();
    writeFileSync(file, '');
    const src = createLogSource(file, { pollMs: 20 });
    const a: LogReset[] = [];
    const b: LogReset[] = [];
    const lines: LogLine[] = [];
    const offA = src.follow((l) => lines.push(...l), (r) => a.push(r));
    const offB = src.follow(() => undefined, (r) => b.push(r));
    appendFileSync(file, `${UDP}\n`);
    await vi.waitFor(() => expect(lines).toHaveLength(1), WAIT);
    unlinkSync(file);
    await vi.waitFor(() => expect(b).toHaveLength(1), WAIT);
    expect(a).toEqual([expect.objectContaining({ reason: 'removed', path: file })]);
    expect(b[0]!.at).toBeGreaterThan(0);
    offA();
    offB();
  });

  it('shares one poller between subscribers and stops it with the last unsubscribe', async () => {
    const file = logPath();
    writeFileSync(file, '');
    const src = createLogSource(file, { pollMs: 20 });
    const a: LogLine[] = [];
    const b: LogLine[] = [];
    const offA = src.follow((lines) => a.push(...lines));
    const offB = src.follow((lines) => b.push(...lines));
    expect(counts.started).toBe(1);

    appendFileSync(file, `${UDP}\n`);
    await vi.waitFor(() => expect(b.map((l) => l.raw)).toEqual([UDP]), WAIT);
    expect(a.map((l) => l.message)).toEqual(['listening to udp']);

    offA();
    offA(); // idempotent: must not drop B's reference
    expect(counts.stopped).toBe(0);
    appendFileSync(file, `${TCP}\n`);
    await vi.waitFor(() => expect(b.map((l) => l.raw)).toEqual([UDP, TCP]), WAIT);
    expect(a).toHaveLength(1);

    offB();
    expect(counts.stopped).toBe(1);
    const offC = src.follow(() => undefined);
    expect(counts.started).toBe(2);
    offC();
    expect(counts.stopped).toBe(2);
  });

  it('follow after tail continues at the tail’s offset, so no line is lost in between', async () => {
    const file = logPath();
    writeFileSync(file, `${UDP}\n`);
    const src = createLogSource(file, { pollMs: 20 });
    await expect(src.tail(10)).resolves.toMatchObject([{ raw: UDP }]);
    appendFileSync(file, `${TCP}\n`); // lands between the tail and the follow
    const got: string[] = [];
    const off = src.follow((lines) => got.push(...lines.map((l) => l.raw)));
    appendFileSync(file, `${QUERY}\n`);
    await vi.waitFor(() => expect(got).toEqual([TCP, QUERY]), WAIT);
    off();
  });

  it('a later follow does not replay lines from an old tail (no duplicates after the page reopens)', async () => {
    const file = logPath();
    writeFileSync(file, `${UDP}\n`);
    const src = createLogSource(file, { pollMs: 20 });
    await src.tail(10);
    const first: string[] = [];
    const off1 = src.follow((lines) => first.push(...lines.map((l) => l.raw)));
    appendFileSync(file, `${TCP}\n`);
    await vi.waitFor(() => expect(first).toEqual([TCP]), WAIT);
    off1();
    // The page is closed; a new one follows without a fresh tail: only newer lines arrive.
    const second: string[] = [];
    const off2 = src.follow((lines) => second.push(...lines.map((l) => l.raw)));
    appendFileSync(file, `${QUERY}\n`);
    await vi.waitFor(() => expect(second).toEqual([QUERY]), WAIT);
    off2();
  });

  it('a read problem met by follower after follower is written once, and again after the file was read and broke again (walk 20)', async () => {
    const file = logPath();
    execFileSync('mkfifo', [file]);
    const written: string[] = [];
    const reporter = createReadProblemReporter((l) => written.push(l));
    let met = 0;
    const src = createLogSource(file, { pollMs: 20, problems: { problem: (p, e) => (met++, reporter.problem(p, e)), readable: (p) => reporter.readable(p) } });
    const said = `k2s-dns logs: Cannot read the proxy log ${file}: it is a FIFO (named pipe), not a file; replace it with the proxy's log file (rm it, then restart the proxy).`;
    // Each page's follow starts its own follower (the last one left stopped it), and each meets the FIFO.
    for (let page = 1; page <= 3; page++) {
      const off = src.follow(() => undefined);
      await vi.waitFor(() => expect(met).toBe(page), WAIT);
      off();
    }
    expect(written).toEqual([said]);
    // Fixed: a file in its place is read; then a FIFO again is said again.
    unlinkSync(file);
    writeFileSync(file, `${UDP}\n`);
    expect((await src.tail(10)).map((l) => l.raw)).toEqual([UDP]);
    unlinkSync(file);
    execFileSync('mkfifo', [file]);
    const off = src.follow(() => undefined);
    await vi.waitFor(() => expect(met).toBe(4), WAIT);
    off();
    expect(written).toEqual([said, said]);
  });

  it('keeps delivering to the others when one subscriber throws', async () => {
    const file = logPath();
    writeFileSync(file, '');
    const errors: string[] = [];
    const src = createLogSource(file, { pollMs: 20, onError: (err) => errors.push(err.message) });
    const offBad = src.follow(() => {
      throw new Error('renderer went away');
    });
    const good: string[] = [];
    const offGood = src.follow((lines) => good.push(...lines.map((l) => l.raw)));
    appendFileSync(file, `${UDP}\n`);
    await vi.waitFor(() => expect(good).toEqual([UDP]), WAIT);
    expect(errors).toEqual(['renderer went away']);
    offBad();
    offGood();
  });

  it('search without probes leaves out a probe\'s query lines but keeps the engine\'s ERROR line about it (an outage)', async () => {
    const file = logPath();
    const probeIn = '2026/11/29 15:04:07.000001 DEBUG sending request addr=172.21.0.10:53 proto=udp qtype=A qname=KUBERNETES.DEFAULT.svc.cluster.local. id=7';
    const probeErr = '2026/11/29 15:04:09.000001 ERROR exchange failed prefix=dnsproxy upstream=172.21.0.10:53 question=";KUBERNETES.DEFAULT.svc.cluster.local.\\tIN\\t A" duration=2.0s err="i/o timeout"';
    writeFileSync(file, `${QUERY}\n${probeIn}\n${probeErr}\n`);
    const src = createLogSource(file);
    const found = await src.search('cluster.local', { lines: 100, context: 0 });
    expect(found.lines.map((l) => l.raw)).toEqual([QUERY, probeErr]);
    expect(found.matches).toBe(2);
    expect((await src.search('cluster.local', { lines: 100, context: 0, probes: true })).matches).toBe(3);
  });
});
