/**
 * New-user walk H1: a window left on the Logs tab kept the deleted proxy log after Uninstall run
 * in another window, and after the next Start appended the new file's lines to the stale ones.
 * Two logs stores on one backend are two windows: the backend's `logs:reset` empties both.
 */
import { describe, expect, it } from 'vitest';
import { createLogsStore, logResetText } from './logs';
import { inProcessApi } from '../../../e2e/support/in-process-api';

describe('logs store: the log removed under an open window', () => {
  it('Uninstall from another window empties this one and says why; after the next Start only the new lines', async () => {
    const api = inProcessApi({ running: true, logIntervalMs: 3_600_000 });
    const other = createLogsStore(api);
    const offOther = other.getState().attach();
    await other.getState().loadTail();
    expect(other.getState().lines.length).toBeGreaterThan(0);
    expect(other.getState().queries.length).toBeGreaterThan(0);
    // Uninstall, as the other window's button calls it.
    await api.dnsUninstall();
    expect(other.getState().lines).toEqual([]);
    expect(other.getState().queries).toEqual([]);
    expect(other.getState().cleared).toBe('The proxy log (/var/log/dnsproxy/dnsproxy.log) was removed.');
    await api.dnsStart({});
    // A fresh window reads the new log: the open one holds exactly the same lines.
    const fresh = createLogsStore(api);
    await fresh.getState().loadTail();
    expect(fresh.getState().lines.length).toBeGreaterThan(0);
    expect(other.getState().lines).toEqual(fresh.getState().lines);
    offOther();
  });

  it('a pushed reset after the buffer was emptied with a reason keeps that reason (Uninstall\'s own words)', async () => {
    const api = inProcessApi({ running: false });
    const logs = createLogsStore(api);
    const off = logs.getState().attach();
    logs.getState().reset('Uninstall removed the proxy log (/var/log/dnsproxy/dnsproxy.log).');
    await api.dnsUninstall();
    expect(logs.getState().cleared).toBe('Uninstall removed the proxy log (/var/log/dnsproxy/dnsproxy.log).');
    expect(logResetText({ reason: 'replaced', path: '/x.log', at: 0 })).toBe('The proxy log (/x.log) was replaced by a new file; its old lines are gone.');
    expect(logResetText({ reason: 'truncated', path: '/x.log', at: 0 })).toBe('The proxy log (/x.log) was emptied.');
    off();
  });
});
