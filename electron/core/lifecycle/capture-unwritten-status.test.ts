/**
 * Status while the exact query log's companion could not write rows (capture/rows-file.ts,
 * CAPTURE_UNWRITTEN_FILE): its line said while the capture runs; nothing without the file, and,
 * as for the missed packets (capture-missed-status.test.ts), nothing once the capture has
 * stopped: its stop is said, and "the next rows are written again" would not be true.
 */
import { describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { dnsStatus } from './status';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();

const LINE = '12 rows not written (no space left on /var/log/dnsproxy)';
const WORDS = `The exact query log misses rows: ${LINE}; free space there, the next rows are written again.`;

describe('status: rows the exact query log could not write', () => {
  it("said from the companion's line while running; absent without it", async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    expect((await dnsStatus(h.deps)).messages.filter((m) => m.includes('misses rows'))).toEqual([]);
    await mkdir(join(h.root, 'run/k2s'), { recursive: true });
    await writeFile(join(h.root, 'run/k2s/capture.unwritten'), `${LINE}\n`);
    expect((await dnsStatus(h.deps)).messages.filter((m) => m.includes('misses rows'))).toEqual([WORDS]);
  });

  it('a slow log disk (rows past the companion\'s queue cap): said without the full disk\'s remedy', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    await mkdir(join(h.root, 'run/k2s'), { recursive: true });
    const slow = '40 rows not written (/var/log/dnsproxy too slow: 16 MiB of rows were waiting)';
    await writeFile(join(h.root, 'run/k2s/capture.unwritten'), `${slow}\n`);
    expect((await dnsStatus(h.deps)).messages.filter((m) => m.includes('misses rows'))).toEqual([`The exact query log misses rows: ${slow}; the next rows are tried again.`]);
  });

  it('not said once the capture stopped: its stop is, with why', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    await mkdir(join(h.root, 'run/k2s'), { recursive: true });
    await writeFile(join(h.root, 'run/k2s/capture.unwritten'), `${LINE}\n`);
    await writeFile(join(h.root, 'run/k2s/capture.failed'), '2026-12-05T07:41:00.000Z tcpdump exited unexpectedly (signal SIGKILL)\n');
    const messages = (await dnsStatus(h.deps)).messages;
    expect(messages.filter((m) => m.includes('misses rows'))).toEqual([]);
    expect(messages.filter((m) => m.startsWith('The exact query log stopped'))).toHaveLength(1);
  });
});
