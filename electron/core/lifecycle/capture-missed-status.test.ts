/**
 * Status while the exact query log runs at idle priority and the kernel dropped packets it could
 * not take (capture/capture-missed.ts, CAPTURE_MISSED_FILE): said with the count, since when, and
 * why; nothing without the file, and nothing once the capture has stopped (its stop is said).
 */
import { describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { dnsStatus } from './status';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();

const RECORD = 'dropped=1200\nsince=2026-12-05T07:40:12.000Z\nat=2026-12-05T07:40:17.000Z\nidle=1\n';
const WORDS = 'The exact query log missed 1200 packets since 2026-12-05T07:40:12.000Z while the proxy was busy (it runs at idle priority, its parser takes at most 5 % of one core, and it yields the CPU to DNS).';

describe('status: packets the exact query log missed while the proxy was busy', () => {
  it('said from the companion\'s record while running; absent without it', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    expect((await dnsStatus(h.deps)).messages.filter((m) => m.includes('missed'))).toEqual([]);
    await mkdir(join(h.root, 'run/k2s'), { recursive: true });
    await writeFile(join(h.root, 'run/k2s/capture.missed'), RECORD);
    expect((await dnsStatus(h.deps)).messages.filter((m) => m.includes('missed'))).toEqual([WORDS]);
  });

  it('not said once the capture stopped: its stop is, with why', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    await mkdir(join(h.root, 'run/k2s'), { recursive: true });
    await writeFile(join(h.root, 'run/k2s/capture.missed'), RECORD);
    await writeFile(join(h.root, 'run/k2s/capture.failed'), '2026-12-05T07:41:00.000Z tcpdump exited unexpectedly (signal SIGKILL)\n');
    const messages = (await dnsStatus(h.deps)).messages;
    expect(messages.filter((m) => m.includes('missed'))).toEqual([]);
    expect(messages.filter((m) => m.startsWith('The exact query log stopped'))).toHaveLength(1);
  });
});
