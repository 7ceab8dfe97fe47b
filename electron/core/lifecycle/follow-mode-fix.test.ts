/**
 * Walk 9 H1, L6: a valid resolver file put in place with mode 0666 is refused by the follower's
 * owner rule, which prints `chmod o-w /etc/resolv.conf` as the fix. Run as printed, the file
 * (now 0664 root:root) passes the rule; the follower must judge it again (the chmod changes no
 * mtime, only inotify's IN_ATTRIB tells) and follow it as if it had been written so, its record
 * naming the fix; status must never repeat the 0666 reason or its fix for the file as it is now.
 */
import { describe, expect, it } from 'vitest';
import { chmod, chown, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MANAGED_HEADER } from '../../../shared/k2s-paths';
import { describeNetworkChange, networkChangeNowWords, networkChangeOutcomeWords, ownerFixWords } from '../../../shared/network-writer';
import { startDns } from './start';
import { followNetwork, ownerFixed } from './follow';
import { watchNetwork } from './follow-watch';
import { dnsStatus } from './status';
import { trackedHosts, TEST_START_OPTS } from '../../../e2e/support/test-deps';
import type { FollowOutcome } from './follow';

const host = trackedHosts();
const quiet = () => undefined;
const THEIRS = '# written by my-dhcp\nnameserver 192.0.2.66\nsearch corp.test\n';
const REFUSED = 'the new file is writable by every user (mode 0666); K2s follows no file a user could write';
const readState = async (root: string) => JSON.parse(await readFile(join(root, 'var/lib/k2s/dns-resolver-state.json'), 'utf8'));

/** Puts THEIRS at /etc/resolv.conf by rename, root:root with `mode` (as `install -m 666 …; mv …` in the walk). */
async function theyWrite(root: string, mode: number) {
  const tmp = join(root, 'etc/resolv.conf.new');
  await writeFile(tmp, THEIRS);
  await chown(tmp, 0, 0);
  await chmod(tmp, mode);
  await rename(tmp, join(root, 'etc/resolv.conf'));
}

describe('a refused 0666 file made 0664 by the printed chmod', () => {
  it('the watcher judges it again on the mode change alone (inotify, no poll) and follows it; the record names the fix', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    const stop = new AbortController();
    const lines: string[] = [];
    const looks: FollowOutcome[] = [];
    let ready: () => void = () => undefined;
    const isReady = new Promise<void>((r) => (ready = r));
    // A 60 s poll: only the inotify events can make it judge and follow within the deadlines below.
    const watching = watchNetwork(h.deps, { signal: stop.signal, log: (l) => lines.push(l), pollMs: 60_000, onReady: () => ready(), onLook: (o) => looks.push(o) });
    await isReady;
    const until = async (what: () => Promise<boolean>, ms: number) => {
      const deadline = Date.now() + ms;
      while (!(await what()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    };
    try {
      await theyWrite(h.root, 0o666);
      await until(async () => looks.some((o) => o.kind === 'drift'), 10_000);
      const refused = (await readState(h.root)).lastNetworkChange;
      expect(refused).toMatchObject({ outcome: 'drift', judged: { uid: 0, gid: 0, mode: 0o666 } });
      expect(refused.reason).toContain(REFUSED);

      // The fix as printed: chmod o-w. mtime, size and inode stay; only the mode changes.
      await chmod(join(h.root, 'etc/resolv.conf'), 0o664);
      await until(async () => (await readState(h.root)).upstreams[0] === '192.0.2.66', 10_000);
    } finally {
      stop.abort();
      await watching;
    }
    const state = await readState(h.root);
    expect(state.upstreams).toEqual(['192.0.2.66']);
    expect(Buffer.from(state.resolvConf.contentBase64, 'base64').toString('utf8')).toBe(THEIRS);
    expect(state.resolvConf.mode).toBe(0o664);
    expect((await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).split('\n')[0]).toBe(MANAGED_HEADER);
    expect(await readFile(join(h.root, 'etc/k2s/dnsmasq.conf'), 'utf8')).toContain('server=192.0.2.66');
    const change = state.lastNetworkChange;
    const hhmmss = (iso: string) => `${iso.slice(11, 19)} UTC`;
    expect(change).toMatchObject({ outcome: 'followed', from: ['192.0.2.53'], to: ['192.0.2.66'], fixed: { problem: 'writable by every user (mode 0666)', fix: 'mode fixed to 0664' } });
    // Led by the time it was written (the refusal's), the fix at its own time (breaker 10 L2).
    expect(describeNetworkChange(change)).toBe(`${change.fixed.refusedAt}: another program (its first comment: "# written by my-dhcp") wrote a new resolver (/etc/resolv.conf replaced by a new file); not followed then (it was writable by every user (mode 0666)); mode fixed to 0664 at ${hhmmss(change.at)}, followed: upstreams 192.0.2.53 → 192.0.2.66, and stop restores that file.`);
    // The window's Host DNS card: the same after the change's time and how.
    expect(networkChangeOutcomeWords(change)).toBe(`not followed at ${hhmmss(change.fixed.refusedAt)} (it was writable by every user (mode 0666)); mode fixed to 0664 at ${hhmmss(change.at)}, followed: upstreams 192.0.2.53 → 192.0.2.66; stop restores that file.`);
    // status: running, the note says it followed after the fix, no chmod fix printed any more.
    const s = await dnsStatus(h.deps);
    expect(s.resolverOwner).toBe('k2s');
    expect(s.messages).toContain(describeNetworkChange(change));
    expect(s.messages.join('\n')).not.toContain('chmod o-w');
    expect(lines.join('\n')).toContain('mode fixed to 0664 at');
  }, 30_000);

  it('status between the chmod and the next look: the 0666 reason is told as past, without its fix, with what is true now; the next look follows', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    await theyWrite(h.root, 0o666);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'drift' });
    const before = await dnsStatus(h.deps);
    expect(before.networkChange?.now).toBeUndefined();
    expect(before.messages.join('\n')).toContain(`${REFUSED} — fix it with sudo chmod o-w /etc/resolv.conf`);

    await chmod(join(h.root, 'etc/resolv.conf'), 0o664);
    const s = await dnsStatus(h.deps);
    const at = (await readState(h.root)).lastNetworkChange.at;
    const note = `${at}: another program (its first comment: "# written by my-dhcp") changed the resolver (/etc/resolv.conf replaced by a new file); not followed then: ${REFUSED}. Since then its mode was changed to 0664: the file as it is now passes the follower's rules, and the network follower follows it at its next look.`;
    expect(s.messages).toContain(note);
    expect(s.messages.join('\n')).not.toContain('mode 0666); K2s follows no file a user could write — fix it');
    expect(s.messages.join('\n')).not.toContain('chmod o-w');
    expect(s.driftOwnerRefusal).toBeUndefined();
    // The window's words: the same, after the change's time and how.
    expect(networkChangeOutcomeWords(s.networkChange!)).toBe(`not followed then: ${REFUSED}. Since then its mode was changed to 0664: the file as it is now passes the follower's rules, and the network follower follows it at its next look.`);

    // Made 0666 again: the stored reason is true again, said as it was (with its fix).
    await chmod(join(h.root, 'etc/resolv.conf'), 0o666);
    expect((await dnsStatus(h.deps)).networkChange?.now).toBeUndefined();
    // Made writable by a user group instead: the reason now is another one, with its own fix.
    await chown(join(h.root, 'etc/resolv.conf'), 0, 100);
    await chmod(join(h.root, 'etc/resolv.conf'), 0o664);
    expect((await dnsStatus(h.deps)).networkChange?.now).toBe('Since then its mode was changed to 0664 and its group was changed to gid 100; now the new file is writable by group 100 (mode 0664); K2s follows no file a user could write — fix it with sudo chmod g-w /etc/resolv.conf.');

    await chown(join(h.root, 'etc/resolv.conf'), 0, 0);
    const r = await followNetwork(h.deps);
    expect(r).toMatchObject({ kind: 'followed', change: { to: ['192.0.2.66'], fixed: { problem: 'writable by every user (mode 0666)', fix: 'mode fixed to 0664' } } });
    expect((await dnsStatus(h.deps)).state).toBe('running');
  }, 30_000);
});

describe('the judgement words', () => {
  const judged = { uid: 0, gid: 0, mode: 0o666, sha256: 'a'.repeat(64) };
  const refusal = { outcome: 'drift' as const, at: '2026-12-05T00:10:00.000Z', reason: `${REFUSED} — fix it with sudo chmod o-w /etc/resolv.conf`, judged };

  it('ownerFixed: the same bytes refused for their mode and passing now are a fix; other bytes, another refusal or no change are not', () => {
    expect(ownerFixed({ ...refusal, writer: 'x', evidence: '', how: 'h', from: [], to: [] }, judged.sha256, { uid: 0, gid: 0, mode: 0o664 })).toEqual({ refusedAt: refusal.at, problem: 'writable by every user (mode 0666)', fix: 'mode fixed to 0664' });
    expect(ownerFixed({ ...refusal, writer: 'x', evidence: '', how: 'h', from: [], to: [] }, 'b'.repeat(64), { uid: 0, gid: 0, mode: 0o664 })).toBeNull();
    expect(ownerFixed({ ...refusal, judged: { ...judged, mode: 0o644 }, writer: 'x', evidence: '', how: 'h', from: [], to: [] }, judged.sha256, { uid: 0, gid: 0, mode: 0o644 })).toBeNull();
    expect(ownerFixed({ ...refusal, outcome: 'followed', writer: 'x', evidence: '', how: 'h', from: [], to: [] }, judged.sha256, { uid: 0, gid: 0, mode: 0o644 })).toBeNull();
    expect(ownerFixWords({ uid: 1000, gid: 1000, mode: 0o644 }, { uid: 0, gid: 0, mode: 0o644 })).toBe('owner fixed to uid 0 and group fixed to gid 0');
  });

  it('networkChangeNowWords: null while the stored reason holds; the follower named only when it watches', () => {
    expect(networkChangeNowWords(refusal, refusal.reason, { uid: 0, gid: 0, mode: 0o666 }, true, true)).toBeNull();
    expect(networkChangeNowWords(refusal, null, { uid: 0, gid: 0, mode: 0o644 }, true, false)).toBe("Since then its mode was changed to 0644: the file as it is now passes the follower's rules.");
    expect(networkChangeNowWords(refusal, 'the new file lists no nameserver (x)', { uid: 0, gid: 0, mode: 0o666 }, false, true)).toBe('Since then its bytes changed; now the new file lists no nameserver (x).');
    // A drift by another rule (no judged file: a policy, a loop) is never re-judged here.
    expect(networkChangeNowWords({ outcome: 'drift', reason: 'the policy is --on-network-change keep' }, null, { uid: 0, gid: 0, mode: 0o644 }, true, true)).toBeNull();
  });
});
