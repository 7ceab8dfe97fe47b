/**
 * `k2s-dns status` as a user who cannot read root's saved state while K2s DNS runs (new user: the
 * text said listeners and upstreams were not shown, although the window and --json showed them
 * from the proxy's 0644 config, HostDnsStatus.configFacts): printed, marked as read from the config.
 */
import { describe, expect, it } from 'vitest';
import type { HostDnsStatus } from '../../shared/types';
import { formatStatus } from './print';
import { stateUnreadableNote } from '../../shared/state-unreadable-note';

const WAY = 'they are shown as root: `sudo npx k2s-dns status`.';

function userStatus(facts: HostDnsStatus['configFacts'] | undefined): HostDnsStatus {
  return { state: 'running', engine: 'adguard', engineVersion: null, pid: 812, listeners: [], skippedListeners: [], resolverOwner: 'k2s', upstreams: [], clusterDomain: null, kubeDnsIp: '172.21.0.10', savedAt: null, savedBy: null, messages: [stateUnreadableNote(facts ?? null, WAY)], health: null, ...(facts ? { configFacts: facts } : {}) } as unknown as HostDnsStatus;
}

describe("status without the saved state: listeners and upstreams from the proxy's config", () => {
  it('AdGuard: both printed with the mark, and the note no longer says they are not shown', () => {
    const out = formatStatus(userStatus({ file: '/etc/k2s/dnsproxy.yaml', listeners: [{ address: '127.0.0.1', port: 53 }, { address: '172.19.1.1', port: 53 }], upstreams: ['192.0.2.53'], zones: [] })).split('\n');
    expect(out).toContain("listeners:  127.0.0.1:53, 172.19.1.1:53 (read from the proxy's config /etc/k2s/dnsproxy.yaml; the saved state is root-only)");
    expect(out).toContain("upstreams:  192.0.2.53 (read from the proxy's config /etc/k2s/dnsproxy.yaml; the saved state is root-only)");
    expect(out).toContain("note: /var/lib/k2s/dns-resolver-state.json is readable by root only, so its details (saved original) are not shown; they are shown as root: `sudo npx k2s-dns status`. The listeners and upstreams shown are read from the running proxy's config /etc/k2s/dnsproxy.yaml (readable by all).");
  });

  it("dnsmasq (its listeners are on its command lines, in no file): upstreams only; the note still names the listeners as not shown", () => {
    const out = formatStatus(userStatus({ file: '/etc/k2s/dnsmasq.conf', listeners: [], upstreams: ['192.0.2.53'], zones: [] })).split('\n');
    expect(out.filter((l) => l.startsWith('listeners:'))).toEqual([]);
    expect(out).toContain("upstreams:  192.0.2.53 (read from the proxy's config /etc/k2s/dnsmasq.conf; the saved state is root-only)");
    expect(out).toContain("note: /var/lib/k2s/dns-resolver-state.json is readable by root only, so its details (saved original, listeners) are not shown; they are shown as root: `sudo npx k2s-dns status`. The upstreams shown are read from the running proxy's config /etc/k2s/dnsmasq.conf (readable by all).");
  });

  it('no config read: the note as before, no listeners or upstreams line', () => {
    const out = formatStatus(userStatus(undefined)).split('\n');
    expect(out.some((l) => l.startsWith('listeners:') || l.startsWith('upstreams:'))).toBe(false);
    expect(out).toContain('note: /var/lib/k2s/dns-resolver-state.json is readable by root only, so its details (saved original, listeners, upstreams) are not shown; they are shown as root: `sudo npx k2s-dns status`.');
  });
});
