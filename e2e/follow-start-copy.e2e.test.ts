/**
 * Issue #20 in the sandbox, through the real CLI and its network follower: a headerless write to
 * /etc/resolv.conf (what isc-dhclient's dhclient-script writes, or `printf >`) is followed; status
 * names "another program (the file does not say which)", never "by k2s-dns"; `stop --restore start` gives back
 * the file that was in place at Start byte for byte (mode and owner too), a plain stop the
 * followed file. dnsmasq only: the engine plays no part in which file stop restores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, chown, lstat, rename, writeFile } from 'node:fs/promises';
import { startTestbed, type Testbed } from './bed/testbed';
import { snapshotResolver } from './bed/resolv-layout';
import { k2sDns } from './cli';
import type { HostDnsStatus } from '../shared/types';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: follow-start-copy e2e runs only inside e2e/bed/sandbox.sh (as root)');

const START_COPY = '/var/lib/k2s/dns-resolver-start.json';
/** The admin's own file at Start: 0640 root:adm, so mode and owner are checked too. */
const ORIGINAL = '# my own resolver\nnameserver 192.0.2.53\nsearch example.test\n';
/** dhclient-script's make_resolv_conf: no header. */
const DHCLIENT = 'domain lan.example\nsearch lan.example example.test\nnameserver 192.0.2.53\noptions timeout:2\n';
const FOLLOW_DEADLINE_MS = 15_000;

const status = async () => JSON.parse((await k2sDns(['status', '--json'])).stdout) as HostDnsStatus;

/** Until status shows the headerless file followed (its upstream list equals the old one: the follow is seen in the state, not in answers). */
async function untilFollowed(): Promise<HostDnsStatus | null> {
  const t0 = Date.now();
  while (Date.now() - t0 < FOLLOW_DEADLINE_MS) {
    const s = await status();
    if (s.networkChange?.outcome === 'followed' && s.resolverOwner === 'k2s') return s;
    await new Promise((res) => setTimeout(res, 200));
  }
  return null;
}

describe.skipIf(!inSandbox)('a followed headerless file, and the file from before Start (sandbox)', () => {
  let tb: Testbed;
  beforeAll(async () => {
    tb = await startTestbed();
  }, 60_000);
  afterAll(async () => {
    await k2sDns(['stop', '--json']).catch(() => undefined);
    await tb?.stop();
  });

  /** Starts with ORIGINAL in place, then a dhclient-style write (rename of a temp file) that is followed. */
  async function startThenDhclient(): Promise<{ before: Awaited<ReturnType<typeof snapshotResolver>>; followed: HostDnsStatus }> {
    await writeFile('/etc/resolv.conf.k2s-e2e', ORIGINAL, { mode: 0o640 });
    await chmod('/etc/resolv.conf.k2s-e2e', 0o640);
    await chown('/etc/resolv.conf.k2s-e2e', 0, 4);
    await rename('/etc/resolv.conf.k2s-e2e', '/etc/resolv.conf');
    const before = await snapshotResolver();
    expect((await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json'])).result).toMatchObject({ ok: true });
    await writeFile('/etc/resolv.conf.dhclient-new', DHCLIENT, { mode: 0o644 });
    await rename('/etc/resolv.conf.dhclient-new', '/etc/resolv.conf');
    const followed = await untilFollowed();
    expect(followed).not.toBeNull();
    return { before, followed: followed! };
  }

  it('status names "another program (the file does not say which)"; stop --restore start gives back the start-time file byte for byte', async () => {
    const { before, followed } = await startThenDhclient();
    expect(followed.networkChange).toMatchObject({ outcome: 'followed', writer: 'an unknown program', evidence: '' });
    expect(followed.savedOriginal).toMatch(/^written by another program \(the file does not say which\) at \d\d:\d\d:\d\d UTC, followed while K2s DNS ran$/);
    expect(followed.startCopy?.savedAt).toMatch(/^\d{4}-/);
    expect(followed.messages.some((m) => /^The file from before Start \(\d\d:\d\d:\d\d UTC\) is kept; `.*k2s-dns stop --restore start` puts it back\.$/.test(m))).toBe(true);
    const text = (await k2sDns(['status'])).stdout;
    expect(text).toMatch(/saved: +written by another program \(the file does not say which\) at /);
    expect(text).not.toMatch(/saved: .*by k2s-dns/);
    expect((await lstat(START_COPY)).mode & 0o777).toBe(0o600);

    const stop = await k2sDns(['stop', '--restore', 'start', '--json']);
    expect(stop.result).toMatchObject({ ok: true });
    expect(stop.result?.message).toContain('Restored the file from before Start');
    const after = await snapshotResolver();
    expect(after.kind).toBe('file');
    expect(after.bytes?.equals(before.bytes!)).toBe(true);
    expect(after.bytes?.toString('utf8')).toBe(ORIGINAL);
    expect([after.mode, after.uid, after.gid]).toEqual([0o640, 0, 4]);
    await expect(lstat(START_COPY)).rejects.toThrow(/ENOENT/);
  }, 120_000);

  it('a plain stop gives back the followed file byte for byte (the default is unchanged)', async () => {
    await startThenDhclient();
    const stop = await k2sDns(['stop', '--json']);
    expect(stop.result).toMatchObject({ ok: true });
    expect(stop.result?.message).toContain('Restored the file another program (the file does not say which) wrote at');
    const after = await snapshotResolver();
    expect(after.kind).toBe('file');
    expect(after.bytes?.toString('utf8')).toBe(DHCLIENT);
    await expect(lstat(START_COPY)).rejects.toThrow(/ENOENT/);
    await tb.setResolvLayout('file');
  }, 120_000);
});
