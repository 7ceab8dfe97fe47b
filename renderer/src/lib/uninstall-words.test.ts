import { describe, expect, it } from 'vitest';
import { uninstallQuestion } from './uninstall-words';

const LOGS = 'the proxy log (/var/log/dnsproxy/dnsproxy.log) and the exact query log (/var/log/dnsproxy/queries.jsonl), each with its rotated copy';

describe('uninstallQuestion: the Uninstall dialog names only what will happen (walk 5 L8)', () => {
  it('running with a saved original: restore, stop, remove', () => {
    expect(uninstallQuestion({ state: 'running', savedAt: '2026-12-04T19:05:45.674Z', pid: 4242 })).toBe(
      `Restore the original /etc/resolv.conf, stop the k2s-dnsproxy service (on systemd hosts also remove its unit) and remove the proxy config, the saved state and ${LOGS}?`,
    );
  });
  it('nothing running and nothing saved: no "Restore the original" and no "stop the service", only the files left', () => {
    const q = uninstallQuestion({ state: 'stopped', savedAt: null, pid: null });
    expect(q).toBe(`K2s DNS is not running and no original /etc/resolv.conf is saved, so nothing is restored or stopped. Remove the K2s-owned files that are left: the proxy config, the k2s-dnsproxy unit on systemd hosts, ${LOGS}?`);
    expect(q).not.toContain('Restore the original');
    expect(q).not.toContain('stop the k2s-dnsproxy service');
  });
  it('a saved original with the proxy down (gave up): restore, no stop', () => {
    expect(uninstallQuestion({ state: 'stopped', savedAt: '2026-12-04T19:05:45.674Z', pid: null })).toBe(
      `Restore the original /etc/resolv.conf (k2s-dnsproxy is not running) and remove the proxy config, the k2s-dnsproxy unit on systemd hosts, the saved state and ${LOGS}?`,
    );
  });
  it('status unknown (not read yet, or the state unreadable by this user): every step, as before', () => {
    const full = uninstallQuestion({ state: 'running', savedAt: 'x', pid: 1 });
    expect(uninstallQuestion(null)).toBe(full);
    expect(uninstallQuestion({ state: 'stopped', savedAt: null, pid: null, stateUnreadable: 'permission denied' })).toBe(full);
  });
});
