/**
 * The CLI's drift fix names the same default as the drift banner and a plain stop
 * (shared/drift-default.ts keepRisk, shared/health.ts verdictFix). walk5 H1: for a 0666 file the
 * follower refused, `status` printed "Keep their file" (the default) while the banner and stop
 * restored by default; running that "default" discarded the saved original. walk5 M5: a deleted
 * file was described as one with "no nameserver line" whose Keep "would resolve no name".
 */
import { describe, expect, it } from 'vitest';
import { chmod, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from '../lifecycle/start';
import { stopDns } from '../lifecycle/stop';
import { dnsStatus } from '../lifecycle/status';
import { setCliName } from '../../../shared/fix';
import { verdictLine } from '../../../shared/health';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';
import { healthProbes } from './probes';
import { statusWithHealth } from './status-with-health';
import { followNetwork } from '../lifecycle/follow';
import { formatStatus } from '../../cli/print';
import { runDoctor } from '../doctor/run-doctor';

const newHost = trackedHosts();
const sink = () => undefined;

describe('status (CLI): the drift fix names the banner’s and stop’s default', () => {
  it('a 0666 file whose nameserver does not answer: Restore my original first as the default, Keep second with the banner’s warning; a plain stop restores', async () => {
    setCliName('k2s-dns');
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, sink)).ok).toBe(true);
    const file = join(h.root, 'etc/resolv.conf');
    await writeFile(file, 'nameserver 10.99.99.99\n');
    await chmod(file, 0o666);
    // getaddrinfo through their nameserver: no reply (ENETUNREACH at once), as in the walk.
    h.deps.probeLookup = async (name) => ({ name, type: 'A', server: 'system', rcode: 'ERROR', answers: [], latencyMs: 2, error: 'getaddrinfo ENETUNREACH' }) as never;
    // Asked directly (the drift default's one rule, shared/drift-default.ts silentAfterStop): no reply either.
    const query = h.deps.query;
    h.deps.query = async (q) => (q.server === '10.99.99.99:53' ? { name: q.name, type: q.type, server: q.server, transport: 'udp', rcode: 'ERROR', answers: [], latencyMs: 1, error: 'ENETUNREACH' } : query(q));
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(s.health?.verdict).toMatchObject({ cause: 'drift', action: 'restore' });
    // The health line as `status` prints it (electron/cli/print.ts).
    const line = verdictLine(s.health!.verdict, 'cli');
    expect(line).toContain(' — "Restore my original" (the default): sudo k2s-dns stop --on-drift restore && sudo k2s-dns start');
    // Keep second, a stop only (the follower refused this 0666 file: a start would save it as the
    // original, walk 7 M1). The banner's warning (keepRiskWords) is said once, as a note, not in
    // the health line too (walk 9 M3).
    expect(line).toMatch(/; or "Keep their file", which only stops: sudo k2s-dns stop --on-drift keep \(no start after it: K2s DNS refused to follow their file, and a start would save it as your original\)$/);
    const warning = /^Keeping their file stops K2s DNS and leaves \/etc\/resolv\.conf pointing at 10\.99\.99\.99:53, where nothing would answer then \(10\.99\.99\.99 did not answer\): no name would resolve on this host\.$/;
    expect(s.messages.filter((m) => warning.test(m))).toHaveLength(1);
    expect(line).not.toContain('where nothing would answer then');
    expect(line).not.toMatch(/stop --on-drift keep &&/);
    expect(verdictLine(s.health!.verdict, 'gui')).toMatch(/ — Choose "Restore my original" \(the default\) in the banner at the top, then Start; "Keep their file" only stops \(no start after it: K2s DNS refused to follow their file, and Start would save it as your original\)$/);
    expect(line.indexOf('"Restore my original"')).toBeLessThan(line.indexOf('"Keep their file"'));
    expect(line).not.toContain('"Keep their file" (the default)');
    // The default named is what a plain stop does.
    const stopped = await stopDns(h.deps, {}, sink);
    expect(stopped.message).toContain('was restored, byte for byte (--on-drift keep would have kept theirs).');
  });

  it('walk 10 L1: a 0666 file the follower refused — status gives the reason and its chmod once, in the follower\'s note', async () => {
    setCliName('k2s-dns');
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, sink)).ok).toBe(true);
    const tmp = join(h.root, 'etc/resolv.conf.tmp');
    await writeFile(tmp, '# written by othertool\nnameserver 198.51.100.77\n');
    await chmod(tmp, 0o666);
    await rename(tmp, join(h.root, 'etc/resolv.conf'));
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'drift' });
    const text = formatStatus(await statusWithHealth(healthProbes(h.deps), 'cli'));
    expect(text.split('writable by every user (mode 0666)').length - 1).toBe(1);
    expect(text.split('chmod o-w').length - 1).toBe(1);
    // What Keep leaves is still said, without the reason again.
    expect(text).toContain("note: Keeping their file lets whoever can write it choose this host's DNS.");
    expect(text).toContain('(no start after it: K2s DNS refused to follow their file, and a start would save it as your original)');
  });

  it('walk 11 M3: a valid 0666 file the follower refused — the chmod that keeps K2s DNS running comes first in status\'s health line and doctor\'s fix, said once', async () => {
    setCliName('k2s-dns');
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, sink)).ok).toBe(true);
    const tmp = join(h.root, 'etc/resolv.conf.tmp');
    await writeFile(tmp, '# written by othertool\nnameserver 198.51.100.77\n');
    await chmod(tmp, 0o666);
    await rename(tmp, join(h.root, 'etc/resolv.conf'));
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'drift' });
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(s.driftOwnerFix).toBe('sudo chmod o-w /etc/resolv.conf');
    const text = formatStatus(s);
    const health = text.split('\n').find((l) => l.startsWith('health:'))!;
    expect(health).toContain(' — to keep K2s DNS running: sudo chmod o-w /etc/resolv.conf (the network follower then follows their file within seconds); or stop: "Restore my original" (the default): sudo k2s-dns stop --on-drift restore && sudo k2s-dns start');
    expect(health).toMatch(/; or "Keep their file", which only stops: sudo k2s-dns stop --on-drift keep \(no start after it: K2s DNS refused to follow their file, and a start would save it as your original\)$/);
    // One message per fact: the follower's note keeps its reason, not the fix again.
    expect(text.split('chmod o-w').length - 1).toBe(1);
    expect(text).toContain('not followed: the new file is writable by every user (mode 0666); K2s follows no file a user could write.\n');
    // The window's verdict refers to the banner, which prints the command.
    expect(verdictLine(s.health!.verdict, 'gui')).toContain(' — To keep K2s DNS running, run the fix the banner at the top names: the network follower then follows their file; or choose "Restore my original" (the default) in the banner at the top, then Start;');
    const findings = await runDoctor(h.deps, { kubeconfigPath: null });
    const healthFinding = findings.find((f) => f.id === 'health')!;
    expect(healthFinding.fix).toMatch(/^to keep K2s DNS running: sudo chmod o-w \/etc\/resolv\.conf \(the network follower then follows their file within seconds\); or stop: "Restore my original"/);
    // K2s DNS state's finding points at that fix rather than printing it again (walk 11 L5).
    const state = findings.find((f) => f.id === 'lifecycle-state')!;
    expect(state.fix).not.toContain('chmod');
    expect(findings.map((f) => f.fix ?? '').join('\n').split('chmod o-w').length - 1).toBe(1);
    expect(healthFinding.meaning).toContain('K2s DNS did not follow their file: it is writable by every user (mode 0666); K2s follows no file a user could write. Keeping it lets');
    expect(healthFinding.meaning).not.toContain('chmod');
  });

  it('walk 11 M3: the same file under --on-network-change keep gets no chmod fix (the follower would not follow it)', async () => {
    setCliName('k2s-dns');
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, { ...TEST_START_OPTS, onNetworkChange: 'keep' }, sink)).ok).toBe(true);
    const tmp = join(h.root, 'etc/resolv.conf.tmp');
    await writeFile(tmp, '# written by othertool\nnameserver 198.51.100.77\n');
    await chmod(tmp, 0o666);
    await rename(tmp, join(h.root, 'etc/resolv.conf'));
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(s.driftOwnerFix).toBeUndefined();
    expect(verdictLine(s.health!.verdict, 'cli')).not.toContain('to keep K2s DNS running');
  });

  it('a deleted file: said deleted, and stop puts the saved original back whatever the choice', async () => {
    setCliName('k2s-dns');
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, sink)).ok).toBe(true);
    await rm(join(h.root, 'etc/resolv.conf'));
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(s.driftGone).toBe('deleted');
    const v = s.health!.verdict;
    expect(v.keepRisk).toEqual({ words: '/etc/resolv.conf was deleted while K2s DNS ran, so there is no file of theirs to keep: stopping K2s DNS puts your saved original back, byte for byte.', short: 'stopping puts your saved original back', stopRestores: true, gone: 'deleted', refused: null });
    const text = [v.summary, ...s.messages].join('\n');
    expect(text).toContain('/etc/resolv.conf was deleted while K2s DNS ran');
    expect(text).not.toContain('no nameserver line');
    expect(text).not.toContain('no name would resolve');
    expect(s.health!.hops.find((x) => x.kind === 'resolver')?.reason).toContain('/etc/resolv.conf was deleted while K2s DNS ran');
    expect(verdictLine(v, 'cli')).toMatch(/ — nothing is broken now; to end it: sudo k2s-dns stop \(it puts the saved original back, with either --on-drift choice\)$/);
    // The banner has one button (nothing of theirs to keep) and says what it puts back; the card's Stop is plain (walk 12 M2).
    expect(verdictLine(v, 'gui')).toMatch(/; to end it, press Stop in Host DNS below or "Restore my original" in the banner at the top$/);
    expect(verdictLine(v, 'gui')).not.toContain('either button');
    // status says what stop puts back once: its health line, not again in each note (walk 12 M2: three times).
    const said = [verdictLine(v, 'cli'), ...s.messages].join('\n');
    expect(said.split('puts the saved original back').length - 1).toBe(1);
    const gui = await dnsStatus(h.deps, 'gui');
    expect(gui.messages).toContain('/etc/resolv.conf was deleted while K2s ran; press Stop to end it.');
    expect(gui.messages.join('\n')).not.toContain('puts the saved original back');
    expect((await stopDns(h.deps, { onDrift: 'keep' }, sink)).message).toContain('/etc/resolv.conf had been deleted while K2s ran; restored the original saved at');
  });
});
