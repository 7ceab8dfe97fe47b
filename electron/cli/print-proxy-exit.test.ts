/**
 * Issue 20 medium: a proxy killed and restarted by the watchdog (hosts without systemd) is said by
 * `k2s-dns status`, as docs/verdict.md promises ("killed by signal KILL"), not only in its --json.
 */
import { describe, expect, it } from 'vitest';
import type { HostDnsStatus } from '../../shared/types';
import { cliTimeText } from '../../shared/clock';
import { formatStatus } from './print';

const at = Date.parse('2026-12-04T12:32:57Z');
const running = {
  state: 'running', engine: 'dnsmasq', engineVersion: null, pid: 415, listeners: [{ address: '127.0.0.1', port: 53 }], skippedListeners: [], resolverOwner: 'k2s',
  upstreams: ['192.0.2.53'], clusterDomain: 'cluster.local', kubeDnsIp: '172.21.0.10', savedAt: null, savedBy: null, messages: [],
  proxyExit: { pid: 353, at: new Date(at).toISOString(), how: 'killed by signal KILL (exit status 137)', restartedBy: 'watchdog' },
} as unknown as HostDnsStatus;

describe('k2s-dns status names the proxy\'s kill and restart', () => {
  it('the watchdog restarted it: when, how, the dead PID and the new one', () => {
    expect(formatStatus(running).split('\n')).toContain(`proxy exit: At ${cliTimeText(at)} k2s-dnsproxy (PID 353) was killed by signal KILL (exit status 137); the watchdog restarted it as PID 415.`);
  });
  it('while the watchdog waits to restart it, and with nothing recorded: no line', () => {
    expect(formatStatus({ ...running, pid: null, watchdogRestart: { restarts: 1, max: 6 } })).toContain('the watchdog is restarting it.');
    expect(formatStatus({ ...running, proxyExit: null })).not.toContain('proxy exit:');
  });
});
