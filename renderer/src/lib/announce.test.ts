/** Counts in words: "1 error", never "1 errors" (new-user pass: the Diagnostics summary badge). */
import { describe, expect, it } from 'vitest';
import { afterResult, ANNOUNCE_MAX, announceResult, announceStatus, severityCountText, SILENT, statusNewsChanged, statusWords } from './announce';
import type { HostDnsStatus } from '../../../shared/types';
import { clockTime } from '../../../shared/clock';

describe('Diagnostics summary counts', () => {
  it('singular for one, plural otherwise', () => {
    expect(severityCountText('error', 1)).toBe('1 error');
    expect(severityCountText('error', 0)).toBe('0 errors');
    expect(severityCountText('warn', 1)).toBe('1 warning');
    expect(severityCountText('warn', 2)).toBe('2 warnings');
    expect(severityCountText('info', 3)).toBe('3 info');
    expect(severityCountText('ok', 1)).toBe('1 ok');
  });
});

describe('announceResult: times as the window shows them (walk 7 L6)', () => {
  it('the stop result\'s ISO time reads as the local HH:MM:SS of today, as in the timeline', () => {
    const at = Date.now();
    const iso = new Date(at).toISOString();
    const text = announceResult({ type: 'result', op: 'stop', ok: true, exitCode: 0, message: `Restored the original saved at ${iso}, byte for byte.`, at });
    expect(text).toBe(`Stop done: Restored the original saved at ${clockTime(at)}, byte for byte.`);
  });
});

describe('announceStatus: drift said as what happened (walk 7 L5)', () => {
  it('a deleted /etc/resolv.conf is "deleted", not "another program rewrote"', () => {
    const drifted = { state: 'running', resolverOwner: 'foreign' } as HostDnsStatus;
    expect(announceStatus({ ...drifted, driftGone: 'deleted' })).toBe('K2s DNS is running; /etc/resolv.conf was deleted.');
    expect(announceStatus(drifted)).toBe('K2s DNS is running; another program rewrote /etc/resolv.conf.');
    expect(announceStatus({ ...drifted, resolverOwner: 'k2s' })).toBe('K2s DNS is running.');
  });
});

describe('statusNewsChanged: the live region follows the drift\'s file (walk 8 M4)', () => {
  const deleted = { state: 'degraded', resolverOwner: 'foreign', driftGone: 'deleted', resolverStamp: 'gone-1' } as HostDnsStatus;
  it('a deleted file replaced by another (a NUL file): announced, in the banner\'s words', () => {
    const nul = { ...deleted, driftGone: null, resolverStamp: 'nul-1' } as HostDnsStatus;
    expect(statusNewsChanged(deleted, nul)).toBe(true);
    expect(announceStatus(nul)).toBe('K2s DNS is degraded; another program rewrote /etc/resolv.conf.');
  });
  it('their file rewritten again (a new stamp) is news; the same status read again is not', () => {
    const theirs = { state: 'running', resolverOwner: 'foreign', resolverStamp: 'a' } as HostDnsStatus;
    expect(statusNewsChanged(theirs, { ...theirs, resolverStamp: 'b' })).toBe(true);
    expect(statusNewsChanged(theirs, { ...theirs })).toBe(false);
    expect(statusNewsChanged(deleted, { ...deleted })).toBe(false);
    // A stamp first read, or K2s's own file rewritten: no drift news.
    expect(statusNewsChanged({ ...theirs, resolverStamp: null }, theirs)).toBe(false);
    const own = { state: 'running', resolverOwner: 'k2s', resolverStamp: 'a' } as HostDnsStatus;
    expect(statusNewsChanged(own, { ...own, resolverStamp: 'b' })).toBe(false);
  });
  it('state and owner changes are news as before', () => {
    const own = { state: 'running', resolverOwner: 'k2s' } as HostDnsStatus;
    expect(statusNewsChanged(undefined, own)).toBe(true);
    expect(statusNewsChanged(own, { ...own, state: 'stopped' })).toBe(true);
    expect(statusNewsChanged(own, { ...own, resolverOwner: 'foreign' })).toBe(true);
  });
});

describe('announceResult: a long result by its first sentence (walk 11 L5)', () => {
  it('a Keep\'s stop result is announced as "K2s DNS is stopped." with where the rest is; a short one whole', () => {
    const message = 'K2s DNS is stopped. Kept the /etc/resolv.conf someone else wrote while K2s ran (nameserver 192.0.2.53 → 127.0.0.1); the copy saved at start was discarded. The kept file is not text (it holds NUL bytes), so `sudo k2s-dns start` refuses to save it as the original: replace it with a resolver file first.';
    expect(message.length).toBeGreaterThan(ANNOUNCE_MAX);
    expect(announceResult({ type: 'result', op: 'stop', ok: true, exitCode: 0, message, at: 0 })).toBe('Stop done: K2s DNS is stopped. The timeline in Host DNS says more.');
    expect(announceResult({ type: 'result', op: 'stop', ok: true, exitCode: 0, message: 'K2s DNS is stopped; the host resolver is back as it was.', at: 0 })).toBe('Stop done: K2s DNS is stopped; the host resolver is back as it was.');
  });
});

describe('statusWords: the live region ends with the badge\'s state (walk 13 L1)', () => {
  const running = { state: 'running', resolverOwner: 'k2s' } as HostDnsStatus;
  const degraded = { ...running, state: 'degraded' } as HostDnsStatus;
  it('the first status is said; the same read again is not; the health fold into degraded is', () => {
    const first = statusWords(SILENT, running, false, false);
    expect(first.text).toBe('K2s DNS is running.');
    expect(statusWords(first.voice, { ...running }, false, false).text).toBeNull();
    expect(statusWords(first.voice, degraded, false, false).text).toBe('K2s DNS is degraded.');
  });
  it('after a result: the refresh that repeats it is quiet, a later change within the hold is said once it ends', () => {
    const before = { state: 'stopped', resolverOwner: 'original' } as HostDnsStatus;
    let v = statusWords(SILENT, before, false, false).voice;
    // Start runs: nothing is said of the status meanwhile.
    expect(statusWords(v, before, true, false)).toEqual({ voice: v, text: null });
    v = afterResult(v, before);
    // The refresh after Start (running): the result said it.
    let r = statusWords(v, running, false, true);
    expect(r.text).toBeNull();
    v = r.voice;
    // The verdict folds it into degraded a moment later, still within the hold: quiet now…
    r = statusWords(v, degraded, false, true);
    expect(r.text).toBeNull();
    v = r.voice;
    // …and said at the first read after it (the old region compared with the store's previous status: never said).
    r = statusWords(v, { ...degraded }, false, false);
    expect(r.text).toBe('K2s DNS is degraded.');
    expect(statusWords(r.voice, { ...degraded }, false, false).text).toBeNull();
  });
  it('a result with no refresh within the hold: the state after it is said once the hold ends', () => {
    const v = afterResult(statusWords(SILENT, running, false, false).voice, running);
    expect(statusWords(v, running, false, true).text).toBeNull();
    expect(statusWords(v, degraded, false, false).text).toBe('K2s DNS is degraded.');
  });
});
