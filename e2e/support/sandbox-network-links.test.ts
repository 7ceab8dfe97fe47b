/**
 * The sandbox's `network change` (e2e/sandbox-network.ts) adds 192.0.2.99 before it starts that
 * network's dnsmasq. When the dnsmasq fails to start, the address stays; a second change then
 * found it present (ensureLinks records nothing added) and close() left it on the link.
 * The links and dnsmasq are stubbed here: no namespaces needed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The link's addresses as the stubbed ip(8) sees them, and what removeLinks was asked to undo. */
const state = vi.hoisted(() => ({ have: new Set<string>(), removed: [] as unknown[], dnsmasqFails: 0 }));

vi.mock('../bed/netns-links', () => ({
  UPSTREAM_LINK: 'k2s-upstream0',
  async ensureLinks(addresses: Record<string, string[]>) {
    const changes = { createdPair: false, addedAddresses: [] as [string, string][] };
    for (const [link, cidrs] of Object.entries(addresses))
      for (const cidr of cidrs) {
        if (state.have.has(cidr)) continue;
        state.have.add(cidr);
        changes.addedAddresses.push([link, cidr]);
      }
    return changes;
  },
  async removeLinks(changes: { addedAddresses: [string, string][] }) {
    state.removed.push(changes);
    for (const [, cidr] of changes.addedAddresses) state.have.delete(cidr);
  },
}));

vi.mock('../bed/dnsmasq-server', () => ({
  async startDnsmasq() {
    if (state.dnsmasqFails-- > 0) throw new Error('dnsmasq: failed to create listening socket for 192.0.2.99: Address in use');
    return { pid: 4242, stop: async () => undefined };
  },
}));

const { createSandboxNetwork, OTHER_NETWORK } = await import('../sandbox-network');

describe('sandbox network change: the other network address is removed on close', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'k2s-sandbox-net-'));
    state.have.clear();
    state.removed = [];
    state.dnsmasqFails = 0;
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('after a change whose dnsmasq failed, a second change and close() remove 192.0.2.99/32', async () => {
    const net = createSandboxNetwork({ nameserver: '192.0.2.53', search: 'home.test' }, join(dir, 'resolv.conf'));
    state.dnsmasqFails = 1;
    await expect(net.change()).rejects.toThrow(/dnsmasq/);
    expect([...state.have]).toEqual([`${OTHER_NETWORK.nameserver}/32`]);
    expect(await net.change()).toMatch(/^ok: the network changed/);
    await net.close();
    expect(state.removed).toEqual([{ createdPair: false, addedAddresses: [['k2s-upstream0', '192.0.2.99/32']] }]);
    expect([...state.have]).toEqual([]);
  });

  it('after a change whose dnsmasq failed, close() alone removes 192.0.2.99/32', async () => {
    const net = createSandboxNetwork({ nameserver: '192.0.2.53', search: 'home.test' }, join(dir, 'resolv.conf'));
    state.dnsmasqFails = 1;
    await expect(net.change()).rejects.toThrow(/dnsmasq/);
    await net.close();
    expect([...state.have]).toEqual([]);
  });
});
