/**
 * Status names when the original was saved: a clock time on the day it was saved (UTC), the whole
 * ISO time on a later day, so the CLI and the window (shared/clock.ts localTimes) never print an
 * older saved time as today's.
 */
import { describe, expect, it } from 'vitest';
import { startDns } from './start';
import { dnsStatus } from './status';
import { cliTimes } from '../../../shared/clock';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();

describe('status: when the original was saved', () => {
  it('a clock time the same day, the ISO time two days later; the CLI then prints the date', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    const today = await dnsStatus(h.deps);
    const savedAt = Date.parse(today.savedAt!);
    const iso = new Date(savedAt).toISOString();
    expect(today.savedOriginal).toBe(`the file in place at Start, saved at ${iso.slice(11, 19)} UTC by k2s-dns`);
    const later = savedAt + 2 * 86_400_000;
    h.deps.now = () => later;
    const after = await dnsStatus(h.deps);
    expect(after.savedOriginal).toBe(`the file in place at Start, saved at ${iso} by k2s-dns`);
    // In the CLI's words (TZ as the test runs): the saved day, not today's.
    const d = new Date(savedAt);
    const day = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    expect(cliTimes(after.savedOriginal!, later)).toContain(`saved at ${day} `);
  });
});
