/**
 * Breaker 10 H1, M1, L1: the saved original is a symlink and, while K2s DNS runs, its target's
 * mode changes (`chmod 666`, then `chmod 644`) with no byte written. That is no new network
 * file: the follower records no refusal (whose `chmod o-w /etc/resolv.conf` fix changed K2s's own
 * file, not the target), status says the saved original is writable by its own note, and a
 * refusal of the target recorded before is over once the target holds the saved bytes again.
 * A refusal of new bytes at the target names the target in its fix.
 */
import { describe, expect, it } from 'vitest';
import { chmod, mkdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { followNetwork } from './follow';
import { dnsStatus } from './status';
import { trackedHosts, TEST_START_OPTS } from '../../../e2e/support/test-deps';

const host = trackedHosts();
const quiet = () => undefined;
const LINKED = '# netx link\nnameserver 192.0.2.53\nsearch x.example.test\n';
const NEWER = '# netx link\nnameserver 192.0.2.77\nsearch y.example.test\n';
const TARGET = 'run/netx/resolv.conf';
const readState = async (root: string) => JSON.parse(await readFile(join(root, 'var/lib/k2s/dns-resolver-state.json'), 'utf8'));

/** A host whose /etc/resolv.conf is a link to /run/netx/resolv.conf (LINKED, 0644), started. */
async function linkedHost() {
  const h = await host('nameserver 192.0.2.53\n');
  await mkdir(join(h.root, 'run/netx'), { recursive: true });
  await writeFile(join(h.root, TARGET), LINKED, { mode: 0o644 });
  await rename(join(h.root, 'etc/resolv.conf'), join(h.root, 'etc/old'));
  await symlink('/run/netx/resolv.conf', join(h.root, 'etc/resolv.conf'));
  expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
  expect((await readState(h.root)).resolvConf).toMatchObject({ kind: 'symlink', target: '/run/netx/resolv.conf' });
  return h;
}

/** The network rewrites the target in place with `text`, then sets `mode` (umask 0; printf > …). */
async function targetWritten(root: string, text: string, mode: number) {
  await writeFile(join(root, TARGET), text);
  await chmod(join(root, TARGET), mode);
}

describe('the saved link target: a mode change is no network change', () => {
  it('chmod 666 of the target: no refusal recorded, the saved-original note says it; chmod 644: nothing said', async () => {
    const h = await linkedHost();
    await chmod(join(h.root, TARGET), 0o666);
    expect(await followNetwork(h.deps)).toEqual({ kind: 'idle', why: 'the network wrote what is saved already' });
    expect((await readState(h.root)).lastNetworkChange).toBeNull();
    const s = await dnsStatus(h.deps);
    const all = s.messages.join('\n');
    expect(all).not.toContain('not followed');
    expect(all).not.toContain('rewritten');
    expect(s.networkChange ?? null).toBeNull();
    expect(s.savedOriginalWritable).toBe('writable by every user (mode 0666)');

    await chmod(join(h.root, TARGET), 0o644);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'idle' });
    const after = await dnsStatus(h.deps);
    expect(after.savedOriginalWritable).toBeUndefined();
    expect(after.messages.join('\n')).not.toContain('follows it at its next look');
  });

  it('new bytes at the target with mode 0666: refused with a fix that names the target; run as printed, it is followed', async () => {
    const h = await linkedHost();
    await targetWritten(h.root, NEWER, 0o666);
    const r = await followNetwork(h.deps);
    expect(r).toMatchObject({ kind: 'drift', change: { how: 'link target /run/netx/resolv.conf rewritten' } });
    const reason = (await readState(h.root)).lastNetworkChange.reason;
    expect(reason).toBe('the new file is writable by every user (mode 0666); K2s follows no file a user could write — fix it with sudo chmod o-w /run/netx/resolv.conf');
    expect((await dnsStatus(h.deps)).messages.join('\n')).toContain('fix it with sudo chmod o-w /run/netx/resolv.conf');
    // The fix as printed, on the target (K2s's own /etc/resolv.conf is not touched).
    await chmod(join(h.root, TARGET), 0o664);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'followed', change: { to: ['192.0.2.77'], fixed: { fix: 'mode fixed to 0664' } } });
  });

  it('a refusal of the target is over once it holds the saved bytes again: the record goes, status promises no follow', async () => {
    const h = await linkedHost();
    await targetWritten(h.root, NEWER, 0o666);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'drift' });
    // The network puts the saved file back (0644): nothing is left to follow.
    await targetWritten(h.root, LINKED, 0o644);
    const before = await dnsStatus(h.deps);
    expect(before.networkChange?.outcome).toBe('drift');
    expect(await followNetwork(h.deps)).toEqual({ kind: 'idle', why: 'the network wrote what is saved already' });
    expect((await readState(h.root)).lastNetworkChange).toBeNull();
    const s = await dnsStatus(h.deps);
    expect(s.networkChange ?? null).toBeNull();
    expect(s.messages.join('\n')).not.toContain('follows it at its next look');
    expect(s.messages.join('\n')).not.toContain('not followed');
  });

  it('the breaker\'s steps: a link to a 0666 file refused, chmod 644 followed, then chmod 666 and 644 of that target record nothing new', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    await mkdir(join(h.root, 'run/netx'), { recursive: true });
    await writeFile(join(h.root, TARGET), LINKED);
    await chmod(join(h.root, TARGET), 0o666);
    await symlink('/run/netx/resolv.conf', join(h.root, 'etc/rc.lnk'));
    await rename(join(h.root, 'etc/rc.lnk'), join(h.root, 'etc/resolv.conf'));
    // /etc/resolv.conf is their link: chmod(1) through it reaches the target, so that fix names it.
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'drift', change: { reason: expect.stringContaining('fix it with sudo chmod o-w /etc/resolv.conf') } });
    await chmod(join(h.root, TARGET), 0o644);
    const followed = await followNetwork(h.deps);
    expect(followed).toMatchObject({ kind: 'followed', change: { fixed: { fix: 'mode fixed to 0644' } } });

    await chmod(join(h.root, TARGET), 0o666);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'idle' });
    expect((await readState(h.root)).lastNetworkChange).toEqual(followed.kind === 'followed' ? followed.change : null);
    const s = await dnsStatus(h.deps);
    expect(s.messages.join('\n')).not.toContain("chmod o-w /etc/resolv.conf'");
    expect(s.messages.join('\n')).not.toContain('not followed:');
    expect(s.savedOriginalWritable).toBe('writable by every user (mode 0666)');

    await chmod(join(h.root, TARGET), 0o644);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'idle' });
    const after = await dnsStatus(h.deps);
    expect(after.messages.join('\n')).not.toContain('follows it at its next look');
    expect(after.savedOriginalWritable).toBeUndefined();
  });
});
