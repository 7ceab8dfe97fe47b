/**
 * Issue 20 low: stop's result and status's notes printed ISO times ("original saved at
 * 2026-12-04T17:12:03.123Z") and `17:12:03 UTC` clocks while the rest of the CLI prints local
 * `HH:MM:SS` (shared/clock.ts). They print in the one format; --json keeps the ISO time.
 * New-user walk: that format had no zone ("saved at 17:13:22" while docs/host-integration.md writes UTC): the
 * CLI's times carry it (shared/clock.ts cliTimeText: `17:13:22 UTC`, `22:43:22 UTC+5:30`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HostDnsStatus } from '../../shared/types';
import { clockTime, cliTimeText } from '../../shared/clock';
import { formatStatus, printEvent } from './print';

const iso = new Date(Date.now() - 60_000).toISOString();
const tz = process.env.TZ;
afterEach(() => {
  if (tz === undefined) delete process.env.TZ;
  else process.env.TZ = tz;
});
const lines = (e: Parameters<typeof printEvent>[0], json = false) => {
  const out: string[] = [];
  printEvent(e, json, (s) => out.push(s));
  return out;
};

describe('CLI times in one format', () => {
  it("stop's result: the ISO time of the saved original prints as local HH:MM:SS and its zone (the date before it on another day)", () => {
    process.env.TZ = 'UTC';
    const message = `Restored the original saved at ${iso}, byte for byte.`;
    const out = lines({ type: 'result', op: 'stop', ok: true, exitCode: 0, message } as never);
    expect(out).toEqual([`OK: Restored the original saved at ${cliTimeText(Date.parse(iso))}, byte for byte.`]);
    expect(out[0]).toMatch(/ saved at (?:\d{4}-\d{2}-\d{2} )?\d{2}:\d{2}:\d{2} UTC, byte for byte\.$/);
    expect(out[0]).not.toContain(iso);
    // A day earlier keeps its date.
    const old = '2026-01-02T03:04:05.678Z';
    expect(lines({ type: 'result', op: 'uninstall', ok: true, exitCode: 0, message: `saved at ${old}.` } as never)[0]).toMatch(new RegExp(`saved at 2026-01-0\\d ${clockTime(Date.parse(old))} UTC\\.$`));
    // --json keeps the backend's ISO time.
    expect(lines({ type: 'result', op: 'stop', ok: true, exitCode: 0, message } as never, true)[0]).toContain(iso);
  });

  it('a step line and a warning print their times the same way', () => {
    expect(lines({ type: 'step', op: 'stop', step: 'restore', status: 'done', message: `kept the copy saved at ${iso}` } as never)[0]).toContain(`kept the copy saved at ${cliTimeText(Date.parse(iso))}`);
    const w = lines({ type: 'result', op: 'stop', ok: true, exitCode: 0, message: 'Done.', warnings: [{ code: 'X', message: `at ${iso}` }] } as never);
    expect(w[1]).toBe(`warning [X]: at ${cliTimeText(Date.parse(iso))}`);
  });

  it("status: a note's `HH:MM:SS UTC` clock and the saved line's time print as local HH:MM:SS and the local zone", () => {
    // A zone with no daylight saving and a half-hour offset: its name is its offset.
    process.env.TZ = 'Asia/Kolkata';
    const now = new Date();
    // Today's UTC day (a `HH:MM:SS UTC` clock is read as today's).
    const at = Math.max(now.getTime() - 60_000, Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const utc = `${new Date(at).toISOString().slice(11, 19)} UTC`;
    const s = {
      state: 'running', engine: null, pid: null, listeners: [], skippedListeners: [], resolverOwner: 'k2s', upstreams: [], clusterDomain: null, kubeDnsIp: null,
      savedAt: iso, savedBy: 'k2s-dns', savedOriginal: `the file in place at Start, saved at ${utc} by k2s-dns`,
      messages: [`The file from before Start (${utc}) is kept; \`k2s-dns stop --restore start\` puts it back.`],
    } as unknown as HostDnsStatus;
    const out = formatStatus(s);
    const local = cliTimeText(Math.floor(at / 1000) * 1000);
    expect(local).toMatch(/^(?:\d{4}-\d{2}-\d{2} )?\d{2}:\d{2}:\d{2} UTC\+5:30$/);
    expect(out).toContain(`saved:      the file in place at Start, saved at ${local} by k2s-dns`);
    expect(out).toContain(`note: The file from before Start (${local}) is kept;`);
    expect(out).not.toContain(utc);
  });
});
