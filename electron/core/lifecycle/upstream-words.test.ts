/**
 * A refusal names where the unusable nameservers came from: `--upstream fe80::1%eth9` (no such
 * interface) is the user's value, not "the original resolver" (breaker finding).
 */
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();
const ORIGINAL = 'nameserver 192.0.2.53\nsearch corp.example\n';

describe('NO_UPSTREAM names its source', () => {
  it('--upstream with a scope id of no interface: "No --upstream you named is usable", the reason, nothing changed', async () => {
    const h = await newHost(ORIGINAL);
    const r = await startDns(h.deps, { ...TEST_START_OPTS, cliDoor: true, upstreams: ['fe80::1%eth9'] }, () => undefined);
    expect(r).toMatchObject({ ok: false, code: 'NO_UPSTREAM' });
    expect(r.message).toMatch(/^No --upstream you named is usable \(dropped: fe80::1%eth9: /);
    expect(r.message).not.toContain('original resolver');
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
  });

  it('from the window (its helper: no cliDoor): the Start options field, never the --upstream flag, as VERIFY_UPSTREAM says it', async () => {
    const h = await newHost(ORIGINAL);
    const r = await startDns(h.deps, { ...TEST_START_OPTS, upstreams: ['fe80::1%eth9'] }, () => undefined);
    expect(r.code).toBe('NO_UPSTREAM');
    expect(r.message).toBe('No upstream you entered in Start options → Upstreams is usable (dropped: fe80::1%eth9: its interface eth9 does not exist on this host); enter a nameserver this host can reach (an IPv6 link-local address needs an existing interface: fe80::1%eth0).');
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
  });

  it('the original file with no usable nameserver keeps its own words', async () => {
    const h = await newHost('nameserver fe80::1%eth9\n');
    const r = await startDns(h.deps, TEST_START_OPTS, () => undefined);
    expect(r.code).toBe('NO_UPSTREAM');
    expect(r.message).toMatch(/^The original resolver lists no usable upstream nameserver \(dropped: fe80::1%eth9: /);
    // Walk 7 M4: the --upstream value in prose, never `--upstream IP`.
    expect(r.message).toBe("The original resolver lists no usable upstream nameserver (dropped: fe80::1%eth9: its interface eth9 does not exist on this host); fix the host's DNS first or start with `sudo npx k2s-dns start --upstream <IP>` (replace <IP> with your nameserver's IP address).");
  });
});

describe('UPSTREAM_LOOP names its source per front end', () => {
  it('an upstream that is a proxy listener (127.0.0.1): the CLI says --upstream, the window its Start options field', async () => {
    const cli = await startDns((await newHost(ORIGINAL)).deps, { ...TEST_START_OPTS, cliDoor: true, upstreams: ['127.0.0.1'] }, () => undefined);
    expect(cli.code).toBe('UPSTREAM_LOOP');
    expect(cli.message).toBe('--upstream lists 127.0.0.1, which reaches k2s-dnsproxy itself: forwarding there would loop. Give your real nameserver.');
    const gui = await startDns((await newHost(ORIGINAL)).deps, { ...TEST_START_OPTS, upstreams: ['127.0.0.1'] }, () => undefined);
    expect(gui.code).toBe('UPSTREAM_LOOP');
    expect(gui.message).toBe('The upstream you entered in Start options → Upstreams lists 127.0.0.1, which reaches k2s-dnsproxy itself: forwarding there would loop. Enter your real nameserver there.');
    const two = await startDns((await newHost(ORIGINAL)).deps, { ...TEST_START_OPTS, upstreams: ['192.0.2.53', '127.0.0.1'] }, () => undefined);
    expect(two.message).toBe('The upstreams you entered in Start options → Upstreams list 127.0.0.1, which reaches k2s-dnsproxy itself: forwarding there would loop. Enter your real nameserver there.');
  });
});
