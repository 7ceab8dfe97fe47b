/**
 * /etc/resolv.conf deleted, replaced by a dangling symlink, or by a
 * directory while K2s DNS runs. On main, stop read the first two as "someone else's file, keep
 * it" and discarded the saved original: the host was left with no resolver and no way back.
 */
import { keepRisk } from '../../../shared/drift-default';
import { describe, expect, it } from 'vitest';
import { lstat, mkdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns } from './stop';
import { dnsStatus } from './status';
import { followNetwork } from './follow';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();
const ORIGINAL = 'nameserver 192.0.2.53\nsearch corp.example\n';
const opts = TEST_START_OPTS;
const sink = () => () => undefined;
const STATE = 'var/lib/k2s/dns-resolver-state.json';

async function running(resolv = ORIGINAL) {
  const h = await newHost(resolv);
  expect((await startDns(h.deps, opts, sink())).ok).toBe(true);
  return h;
}

describe('a resolv.conf that vanished while K2s ran', () => {
  it('rm /etc/resolv.conf: stop restores the saved original byte for byte (also with --on-drift keep) and says so', async () => {
    const h = await running();
    await rm(join(h.root, 'etc/resolv.conf'));
    const r = await stopDns(h.deps, { onDrift: 'keep' }, sink());
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(r.message).toContain('/etc/resolv.conf had been deleted while K2s ran; restored the original saved at');
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    expect((await lstat(join(h.root, 'etc/resolv.conf'))).mode & 0o7777).toBe(0o644);
    expect(h.services.running).toBe(false);
    await expect(lstat(join(h.root, STATE))).rejects.toThrow(/ENOENT/);
  });

  it('a dangling symlink in its place: stop restores the original (a symlink original keeps its exact target)', async () => {
    const h = await newHost(ORIGINAL);
    await mkdir(join(h.root, 'run/systemd/resolve'), { recursive: true });
    await writeFile(join(h.root, 'run/systemd/resolve/stub-resolv.conf'), 'nameserver 127.0.0.53\n');
    await rm(join(h.root, 'etc/resolv.conf'));
    await symlink('../run/systemd/resolve/stub-resolv.conf', join(h.root, 'etc/resolv.conf'));
    expect((await startDns(h.deps, { ...opts, upstreams: ['192.0.2.53'] }, sink())).ok).toBe(true);
    await rm(join(h.root, 'etc/resolv.conf'));
    await symlink('/run/NetworkManager/no-such-resolv.conf', join(h.root, 'etc/resolv.conf'));
    const r = await stopDns(h.deps, {}, sink());
    expect(r.ok).toBe(true);
    expect(r.message).toContain('replaced by a dangling symlink (→ /run/NetworkManager/no-such-resolv.conf)');
    expect(await readlink(join(h.root, 'etc/resolv.conf'))).toBe('../run/systemd/resolve/stub-resolv.conf');
    await expect(lstat(join(h.root, STATE))).rejects.toThrow(/ENOENT/);
  });

  it('a directory in its place: stop keeps the saved original and the proxy, names the code and the fix; after mv, stop restores', async () => {
    const h = await running();
    await rm(join(h.root, 'etc/resolv.conf'));
    await mkdir(join(h.root, 'etc/resolv.conf'));
    await writeFile(join(h.root, 'etc/resolv.conf/keep-me'), 'not ours\n');
    const status = await dnsStatus(h.deps);
    expect(status.state).toBe('degraded');
    expect(status.messages.join(' ')).toContain('/etc/resolv.conf is a directory');
    const r = await stopDns(h.deps, {}, sink());
    expect(r).toMatchObject({ ok: false, exitCode: 1, code: 'RESOLV_CONF_NOT_FILE' });
    expect(r.message).toContain('mv /etc/resolv.conf /etc/resolv.conf.moved');
    const saved = JSON.parse(await readFile(join(h.root, STATE), 'utf8'));
    expect(Buffer.from(saved.resolvConf.contentBase64, 'base64').toString()).toBe(ORIGINAL);
    expect(h.services.running).toBe(true);
    expect(await readFile(join(h.root, 'etc/resolv.conf/keep-me'), 'utf8')).toBe('not ours\n');
    // The user moves it away; the next stop puts the original back.
    await rm(join(h.root, 'etc/resolv.conf'), { recursive: true });
    const again = await stopDns(h.deps, {}, sink());
    expect(again.ok).toBe(true);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
  });

  it('status while it is deleted says so and the fix (degraded), instead of "changed by someone else"', async () => {
    const h = await running();
    await rm(join(h.root, 'etc/resolv.conf'));
    const s = await dnsStatus(h.deps);
    expect(s.state).toBe('degraded');
    expect(s.messages).toContain("/etc/resolv.conf was deleted while K2s ran; to end it, run as root: `sudo npx k2s-dns stop`, or `su -c 'npx k2s-dns stop'` where sudo is not installed.");
    // No file is read by glibc as no nameserver line: 127.0.0.1, the proxy — still through K2s
    // DNS (fourth walk high: it said "bypassed"). There is no file of theirs to keep: the drift
    // default is said as "deleted", never as a file with no nameserver line (walk5 M5).
    expect(s.driftRoute).toEqual({ nameservers: ['127.0.0.1'], implicit: true, viaK2s: true, keepLeavesNone: true });
    expect(s.driftGone).toBe('deleted');
    expect(keepRisk(s, null)).toEqual({ kind: 'gone', what: 'deleted' });
  });
});

describe('the follower\'s record says what status says (walk 12 L2)', () => {
  it('a dangling symlink in its place: the note names the dangling link, never "removed"', async () => {
    const h = await running();
    await rm(join(h.root, 'etc/resolv.conf'));
    await symlink('/run/systemd/resolve/stub-resolv.conf', join(h.root, 'etc/resolv.conf'));
    const r = await followNetwork(h.deps);
    expect(r).toMatchObject({ kind: 'drift', change: { how: '/etc/resolv.conf replaced by a dangling symlink → /run/systemd/resolve/stub-resolv.conf', reason: 'no file is at its end' } });
    const s = await dnsStatus(h.deps);
    expect(s.driftGone).toBe('replaced by a dangling symlink (→ /run/systemd/resolve/stub-resolv.conf)');
    expect(s.messages[0]).toMatch(/^\/etc\/resolv\.conf was replaced by a dangling symlink \(→ \/run\/systemd\/resolve\/stub-resolv\.conf\) while K2s ran; /);
    expect(s.messages[1]).toMatch(/: another program \(the file does not say which\) changed the resolver \(\/etc\/resolv\.conf replaced by a dangling symlink → \/run\/systemd\/resolve\/stub-resolv\.conf\); not followed: no file is at its end\.$/);
    expect(s.messages.join('\n')).not.toContain('removed');
  });

  it('deleted: the record says removed, as status says deleted', async () => {
    const h = await running();
    await rm(join(h.root, 'etc/resolv.conf'));
    const r = await followNetwork(h.deps);
    expect(r).toMatchObject({ kind: 'drift', change: { how: '/etc/resolv.conf removed', reason: 'the resolver file was deleted' } });
    const s = await dnsStatus(h.deps);
    expect(s.messages[1]).toMatch(/changed the resolver \(\/etc\/resolv\.conf removed\); not followed: the resolver file was deleted\.$/);
  });
});

describe('status as a user who cannot read the state dir', () => {
  it('a running host is "running" (exit 0), not degraded, with a note to ask as root', async () => {
    const h = await running();
    const fs = h.deps.fs;
    const denied = Object.assign(new Error('EACCES: permission denied, lstat'), { code: 'EACCES' });
    h.deps.fs = { ...fs, real: fs.real.bind(fs), lstat: async (p) => (p.startsWith('/var/lib/k2s/') ? Promise.reject(denied) : fs.lstat(p)) };
    h.world.uid = 1000;
    const s = await dnsStatus(h.deps);
    expect(s.state).toBe('running');
    expect(s.messages).toEqual(['/var/lib/k2s/dns-resolver-state.json is readable by root only, so its details (saved original, listeners, upstreams) are not shown; they are shown as root: `sudo npx k2s-dns status`, or `su -c \'npx k2s-dns status\'` where sudo is not installed.']);
    // Unknown, not empty: the card says what cannot be read and why (HostDnsPanel).
    expect(s.stateUnreadable).toBe('/var/lib/k2s/dns-resolver-state.json is readable by root only (its directory /var/lib/k2s is 0700) and this app runs as uid 1000');
    expect(s.listeners).toEqual([]);
    expect(s.savedAt).toBeNull();
  });

  it('the app (gui words) says Start, Stop and Uninstall still work, not that details come later', async () => {
    const h = await running();
    const fs = h.deps.fs;
    const denied = Object.assign(new Error('EACCES: permission denied, lstat'), { code: 'EACCES' });
    h.deps.fs = { ...fs, real: fs.real.bind(fs), lstat: async (p) => (p.startsWith('/var/lib/k2s/') ? Promise.reject(denied) : fs.lstat(p)) };
    h.world.uid = 1000;
    const s = await dnsStatus(h.deps, 'gui');
    expect(s.messages).toEqual(['/var/lib/k2s/dns-resolver-state.json is readable by root only, so its details (saved original, listeners, upstreams) are not shown; K2s DNS itself is not affected; Start, Stop and Uninstall still work (they run as root through polkit).']);
  });
});

describe('start while the resolver is gone', () => {
  it('refuses (exit 3, RESOLV_CONF_GONE) instead of saving "absent" over the saved original; stop then restores it', async () => {
    const h = await running();
    const saved = await readFile(join(h.root, STATE), 'utf8');
    await rm(join(h.root, 'etc/resolv.conf'));
    const r = await startDns(h.deps, opts, sink());
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'RESOLV_CONF_GONE' });
    expect(r.message).toContain('run sudo npx k2s-dns stop first (it puts the saved original back)');
    expect(await readFile(join(h.root, STATE), 'utf8')).toBe(saved);
    expect((await stopDns(h.deps, {}, sink())).ok).toBe(true);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
  });
});
