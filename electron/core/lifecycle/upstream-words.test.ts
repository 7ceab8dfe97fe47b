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
    const r = await startDns(h.deps, { ...TEST_START_OPTS, upstreams: ['fe80::1%eth9'] }, () => undefined);
    expect(r).toMatchObject({ ok: false, code: 'NO_UPSTREAM' });
    expect(r.message).toMatch(/^No --upstream you named is usable \(dropped: fe80::1%eth9: /);
    expect(r.message).not.toContain('original resolver');
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
