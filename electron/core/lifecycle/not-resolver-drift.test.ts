/**
 * Drift to a file that is no resolver file at all (issue 20, M6): the follower refuses it ("not a
 * resolver file", NUL bytes…) and leaves it as drift. Then status says why and that a plain stop
 * restores (driftFileRefusal, the banner's `not-resolver` default), a plain stop restores the
 * saved original over it, and a start on such a file (after a stop that kept it) refuses to save
 * it as the original (NOT_RESOLVER_FILE), with or without --upstream — unless its one fault is
 * a line that is no resolv.conf(5) directive and it names a nameserver (glibc ignores the odd
 * line; start saves it and says so); NUL bytes are refused even beside a nameserver line. While
 * start would refuse the file, status and the verdict offer no start (walk 8 H1, M3, L5). A drift
 * note whose file is K2s's again is told in the past (issue 20 low).
 */
import { describe, expect, it } from 'vitest';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns } from './stop';
import { followNetwork } from './follow';
import { dnsStatus } from './status';
import { trackedHosts, TEST_START_OPTS } from '../../../e2e/support/test-deps';
import { cliCommand } from '../../../shared/fix';
import { statusWithHealth } from '../health/status-with-health';
import { healthProbes } from '../health/probes';
import { checkHealth } from '../health/check-health';
import { verdictFix, verdictLine } from '../../../shared/health';
import { notResolverFix, notResolverGuiFix } from '../../../shared/network-writer';
import { formatStatus } from '../../cli/print';
import { driftRestoreLabel } from '../../../shared/saved-copy';
import { cliTimeText, timeText } from '../../../shared/clock';
import { readDoctorContext } from '../doctor/context';
import { checkHealthPath } from '../doctor/health';
import { statusExitCode } from '../../../shared/status-exit';
import { topologyFromHealth } from '../../../renderer/src/lib/topology';

const host = trackedHosts();
const quiet = () => undefined;
const ORIGINAL = 'nameserver 192.0.2.53\nsearch corp.example\n';
const GARBAGE = 'nameserver 192.0.2.99\nthis is a log line\n';
/** Garbage with no nameserver at all: start will not save it. */
const JUNK = 'this is a log line\n';
const REASON = 'it is not a resolver file (line "this is a log line" is no resolv.conf(5) directive)';

/** Writes `text` at /etc/resolv.conf by rename (as a network tool does). */
async function networkWrites(root: string, text: string | Buffer) {
  await writeFile(join(root, 'etc/resolv.conf.tmp'), text, { mode: 0o644 });
  await rename(join(root, 'etc/resolv.conf.tmp'), join(root, 'etc/resolv.conf'));
}

async function driftedTo(text: string | Buffer) {
  const h = await host(ORIGINAL);
  expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
  await networkWrites(h.root, text);
  expect(await followNetwork(h.deps)).toMatchObject({ kind: 'drift', change: { reason: expect.stringMatching(/not a resolver file|not text/) } });
  return h;
}

describe('status during drift to a file that is no resolver file', () => {
  it("names the follower's reason and says a plain stop restores (CLI), the banner's default (GUI)", async () => {
    const h = await driftedTo(GARBAGE);
    const s = await dnsStatus(h.deps, 'cli');
    expect(s.resolverOwner).toBe('foreign');
    expect(s.driftFileRefusal).toBe('the new file is not a resolver file (line "this is a log line" is no resolv.conf(5) directive)');
    // A nameserver line that bypasses the proxy: nothing else would make restore the default.
    expect(s.driftRoute).toMatchObject({ viaK2s: false, keepLeavesNone: false });
    // The follower's note gives the reason; this note adds what Keep leaves and what a plain stop does, once (walk 9 M3).
    expect(s.messages.filter((m) => m.includes(REASON.replace(/^it /, 'the new file ')))).toHaveLength(1);
    expect(s.messages).toContain(`Keeping their file leaves a file that is no resolver file as this host's resolver. So a plain ${cliCommand('stop', true)} restores your saved original over it ("Restore my original"; --on-drift keep keeps it).`);
    // The window: the banner says it next to the choice; the Host DNS card gets no second copy.
    const gui = await dnsStatus(h.deps, 'gui');
    expect(gui.messages.join('\n')).not.toMatch(/Keeping their file|did not follow their file/);
  });

  it('NUL bytes: the same, in the follower\'s words', async () => {
    const h = await driftedTo(Buffer.from('nameserver 192.0.2.99\n\0\0'));
    expect((await dnsStatus(h.deps)).driftFileRefusal).toBe('the new file is not text (it holds NUL bytes)');
  });

  // Walk 7 H1: garbage glibc reads as no nameserver line: keeping it leaves no name resolving — said too.
  it('NUL bytes with no nameserver line: status (CLI) warns that no name would resolve after keep; stop --on-drift keep says none does', async () => {
    const h = await driftedTo(Buffer.from('this is not\0 a resolver {{{ garbage\n'));
    const s = await dnsStatus(h.deps, 'cli');
    expect(s.driftRoute).toMatchObject({ implicit: true, keepLeavesNone: true });
    // Why host apps still go through K2s DNS, once per front end (walk 10 L1): status's note for the
    // CLI (its health line is one clause, shared/health.ts); the window's banner, so no card note.
    const VIA = "it has no nameserver line, so glibc asks 127.0.0.1:53 (resolv.conf(5)), k2s-dnsproxy's listener";
    expect(s.messages.filter((m) => m.includes(VIA))).toHaveLength(1);
    expect((await dnsStatus(h.deps, 'gui')).messages.join('\n')).not.toContain('glibc asks');
    expect(s.messages).toContain(`Keeping their file stops K2s DNS and leaves /etc/resolv.conf pointing at 127.0.0.1:53, where nothing answers then: no name would resolve on this host. So a plain ${cliCommand('stop', true)} restores your saved original over it ("Restore my original"; --on-drift keep keeps it).`);
    const r = await stopDns(h.deps, { onDrift: 'keep' }, quiet);
    expect(r.message).toContain('No name resolves on this host now');
    // Walk 9 M2: the walk's case (garbage with NUL bytes, kept) ends with a warning and exit 5, as status then.
    expect(r).toMatchObject({ ok: true, exitCode: 5, warnings: [{ code: 'RESOLVER_DOWN' }] });
  });

  it('a resolver file with a nameserver (NetworkManager under keep policy) has no file refusal', async () => {
    const h = await host(ORIGINAL);
    expect(await startDns(h.deps, { ...TEST_START_OPTS, onNetworkChange: 'keep' }, quiet)).toMatchObject({ ok: true });
    await networkWrites(h.root, '# Generated by NetworkManager\nnameserver 192.0.2.99\n');
    const s = await dnsStatus(h.deps);
    expect(s.resolverOwner).toBe('foreign');
    expect(s.driftFileRefusal).toBeUndefined();
    expect(s.messages.join('\n')).not.toContain('start refuses');
  });
});

describe('stop, then start, with such a file', () => {
  it('a plain stop restores the saved original over it and says why', async () => {
    const h = await driftedTo(GARBAGE);
    const r = await stopDns(h.deps, {}, quiet);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    expect(r.message).toContain(`Someone else had changed /etc/resolv.conf. K2s DNS did not follow their file because ${REASON}; keeping it leaves that file as this host's resolver. So the original saved at `);
    expect(r.message).toContain('(--on-drift keep would have kept theirs)');
  });

  it('stop --on-drift keep keeps garbage with no nameserver and warns; a later start refuses to save it, with the fix, and changes nothing', async () => {
    const h = await driftedTo(JUNK);
    const r = await stopDns(h.deps, { onDrift: 'keep' }, quiet);
    expect(r.ok).toBe(true);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(JUNK);
    expect(r.message).toContain(`The kept file is not a resolver file (line "this is a log line" is no resolv.conf(5) directive), so ${cliCommand('start', true)} refuses to save it as the original`);
    const started = h.services.started.length;
    for (const opts of [TEST_START_OPTS, { ...TEST_START_OPTS, upstreams: ['192.0.2.53'] }]) {
      const s = await startDns(h.deps, opts, quiet);
      expect(s).toMatchObject({ ok: false, exitCode: 3, code: 'NOT_RESOLVER_FILE' });
      // Walk 7 M4: the fix is prose, never a command that runs unedited with a placeholder.
      expect(s.message).toBe(`/etc/resolv.conf is not a resolver file (line "this is a log line" is no resolv.conf(5) directive), so K2s will not save it as your original (stop would put it back byte for byte). Replace /etc/resolv.conf with a resolver file that names your nameserver — reconnect the network so NetworkManager or your DHCP client writes it again, or write it yourself as root (sudo) with a line such as \`nameserver 192.0.2.1\`, your router's or company DNS's IP address in place of 192.0.2.1 — then start again; --upstream does not help, since the file itself would be saved and put back at stop. Nothing was changed.`);
      expect(s.message).not.toMatch(/echo|<your/);
    }
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(JUNK);
    expect(h.services.started).toHaveLength(started);
    expect((await dnsStatus(h.deps)).state).toBe('stopped');
  });

  it('a kept file that names a nameserver beside a line glibc ignores: start saves it as is and its preflight step names the line; stop gives it back byte for byte', async () => {
    const h = await driftedTo(GARBAGE);
    const r = await stopDns(h.deps, { onDrift: 'keep' }, quiet);
    expect(r.message).not.toContain('refuses to save it');
    const steps: string[] = [];
    const s = await startDns(h.deps, TEST_START_OPTS, (e) => { if (e.type === 'step' && e.step === 'preflight' && e.status === 'done') steps.push(e.message ?? ''); });
    expect(s).toMatchObject({ ok: true });
    expect(steps[0]).toContain('; your /etc/resolv.conf is saved as is, though its line "this is a log line" is no resolv.conf(5) directive (glibc ignores that line)');
    expect((await stopDns(h.deps, {}, quiet)).ok).toBe(true);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(GARBAGE);
  });

  it('start still saves a resolver file with comments, ; lines and indented lines (glibc ignores them)', async () => {
    const h = await host('# my resolver\n; old comment\nnameserver 192.0.2.53\n   indented note\n');
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
  });
});

// Walk 7 M4: the placeholder line written as is (`nameserver <your router or company DNS>`): glibc cannot use it.
describe('start on a file whose only nameserver line glibc cannot use', () => {
  const PLACEHOLDER = 'nameserver <your router or company DNS>\n';
  it('without --upstream: refused NO_UPSTREAM, as a file with no nameserver line; nothing changed', async () => {
    const h = await host(PLACEHOLDER);
    const s = await startDns(h.deps, TEST_START_OPTS, quiet);
    expect(s).toMatchObject({ ok: false, code: 'NO_UPSTREAM' });
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(PLACEHOLDER);
  });

  it('with --upstream: starts, and its preflight step warns that after stop no name resolves', async () => {
    const h = await host(PLACEHOLDER);
    const steps: string[] = [];
    const s = await startDns(h.deps, { ...TEST_START_OPTS, upstreams: ['192.0.2.53'] }, (e) => { if (e.type === 'step' && e.step === 'preflight' && e.status === 'done') steps.push(e.message ?? ''); });
    expect(s).toMatchObject({ ok: true });
    expect(steps[0]).toContain('; warning: your /etc/resolv.conf names no nameserver glibc can use (its only nameserver line "nameserver <your router or company DNS>" is unusable to glibc: not an IP address in column one, resolv.conf(5)), and it is saved as is: after stop, when it is put back, glibc asks 127.0.0.1 and no name resolves on this host until the file names your nameserver');
  });

  it('with --upstream on a file with no nameserver line: the same warning; none on a file that names one', async () => {
    const warned = async (text: string) => {
      const h = await host(text);
      const steps: string[] = [];
      expect(await startDns(h.deps, { ...TEST_START_OPTS, upstreams: ['192.0.2.53'] }, (e) => { if (e.type === 'step' && e.step === 'preflight' && e.status === 'done') steps.push(e.message ?? ''); })).toMatchObject({ ok: true });
      return steps[0] ?? '';
    };
    expect(await warned('search corp.example\n')).toContain('names no nameserver glibc can use (it has no nameserver line)');
    expect(await warned(ORIGINAL)).not.toContain('names no nameserver');
  });
});

describe('a drift note once the drift is over', () => {
  it("is told in the past once /etc/resolv.conf is K2s's file again", async () => {
    const h = await host(ORIGINAL);
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    const k2sFile = await readFile(join(h.root, 'etc/resolv.conf'));
    await networkWrites(h.root, GARBAGE);
    await followNetwork(h.deps);
    const during = await dnsStatus(h.deps);
    const note = during.messages.find((m) => m.includes('changed the resolver'))!;
    expect(note).toMatch(/^\S+: another program \(the file does not say which\) changed the resolver \(\/etc\/resolv\.conf replaced by a new file\); not followed: the new file is not a resolver file/);
    expect(during.networkChange?.ended).toBeUndefined();

    // Someone puts K2s's own file back (the bytes K2s wrote): the drift is over.
    await networkWrites(h.root, k2sFile);
    const after = await dnsStatus(h.deps);
    expect(after.resolverOwner).toBe('k2s');
    expect(after.state).toBe('running');
    expect(after.networkChange).toMatchObject({ outcome: 'drift', ended: true });
    const past = after.messages.find((m) => m.includes('changed the resolver'))!;
    expect(past).toMatch(/^\S+ \(ended\): another program \(the file does not say which\) changed the resolver \(\/etc\/resolv\.conf replaced by a new file\); it was not followed: the new file is not a resolver file .*\. That drift is over: \/etc\/resolv\.conf is K2s DNS's own file again\.$/);
    expect(after.messages.some((m) => / not followed: /.test(m) && !m.includes('(ended)'))).toBe(false);
  });
});

// Walk 8 H1, M3, L5: no printed fix offers a start that start itself refuses (NOT_RESOLVER_FILE).
describe('a /etc/resolv.conf start refuses: status and the verdict never offer start', () => {
  const NUL_REASON = 'the new file is not text (it holds NUL bytes)';
  const REFUSED = 'and start would refuse this /etc/resolv.conf (NOT_RESOLVER_FILE): it is not text (it holds NUL bytes), so K2s will not save it as your original';
  /** The walk's hand-written file: a nameserver line glibc uses, then NUL bytes. */
  const NUL_WITH_NS = Buffer.from('nameserver 192.0.2.53\nsearch example.test\n\0\0junk\n');

  it('stopped, names resolve but the cluster name does not (status exit 0 in the walk): the verdict names the refusal and gives start\'s own fix; start refuses as said', async () => {
    const h = await host(ORIGINAL);
    await networkWrites(h.root, NUL_WITH_NS);
    h.world.systemAnswer = null;
    const s = await dnsStatus(h.deps, 'cli');
    expect(s.state).toBe('stopped');
    expect(s.startRefusal).toBe(NUL_REASON);
    const cli = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(cli.health?.verdict).toMatchObject({ level: 'off', cause: 'stopped', action: 'replace-resolver' });
    expect(verdictLine(cli.health!.verdict, 'cli')).toBe(`Cluster names do not resolve on this host: K2s DNS is stopped, ${REFUSED} — ${notResolverFix()}`);
    expect(verdictLine(cli.health!.verdict, 'cli')).not.toContain(cliCommand('start', true));
    // The window's verdict (M3): start's own fix, never "press Start in Host DNS below" (that is action `start` only).
    const gui = await statusWithHealth(healthProbes(h.deps), 'gui');
    expect(gui.health?.verdict.action).not.toBe('start');
    expect(verdictFix(gui.health!.verdict, 'gui')).toBe(notResolverGuiFix());
    const r = await startDns(h.deps, TEST_START_OPTS, quiet);
    expect(r).toMatchObject({ ok: false, code: 'NOT_RESOLVER_FILE' });
    expect(r.message).toContain(notResolverFix());
  });

  it('the walk\'s chain: drift to NUL bytes, stop --on-drift keep, status: no "add a nameserver, then start"', async () => {
    const h = await driftedTo(Buffer.concat([Buffer.alloc(64), Buffer.from('nameserver 192.0.2.53\n\0\0\0garbage\n')]));
    expect((await stopDns(h.deps, { onDrift: 'keep' }, quiet)).ok).toBe(true);
    h.world.systemAnswer = null;
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(s.state).toBe('stopped');
    expect(s.startRefusal).toBe(NUL_REASON);
    expect(s.health?.verdict.action).toBe('replace-resolver');
    const line = verdictLine(s.health!.verdict, 'cli');
    expect(line).toContain(`${REFUSED} — ${notResolverFix()}`);
    expect(line).not.toMatch(/add "nameserver|k2s-dns start/);
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: false, code: 'NOT_RESOLVER_FILE' });
  });

  it('during drift to NUL bytes (L5): Keep their file\'s fix says a start would refuse the file, not save it', async () => {
    const h = await driftedTo(Buffer.from('nameserver 192.0.2.99\n\0\0'));
    expect((await dnsStatus(h.deps)).startRefusal).toBe(NUL_REASON);
    h.world.systemAnswer = null;
    const v = (await checkHealth(healthProbes(h.deps))).verdict;
    expect(v.keepRisk).toMatchObject({ refused: 'it is not text (it holds NUL bytes)', startRefuses: true });
    for (const fe of ['cli', 'gui'] as const) {
      expect(verdictFix(v, fe)).toMatch(/[sS]tart would refuse it \(NOT_RESOLVER_FILE\) until \/etc\/resolv\.conf is replaced with a resolver file/);
      expect(verdictFix(v, fe)).not.toContain('save it as your original');
    }
  });

  it('a file start saves (a line glibc ignores beside a nameserver, or a plain resolver file): no refusal, the fix stays Start', async () => {
    const h = await driftedTo(GARBAGE);
    expect((await dnsStatus(h.deps)).startRefusal).toBeUndefined();
    expect((await checkHealth(healthProbes(h.deps))).verdict.keepRisk?.startRefuses).toBeUndefined();
    const plain = await host(ORIGINAL);
    plain.world.systemAnswer = null;
    const s = await statusWithHealth(healthProbes(plain.deps), 'cli');
    expect(s.startRefusal).toBeUndefined();
    expect(s.health?.verdict).toMatchObject({ cause: 'stopped', action: 'start' });
  });
});

// Walk 9 L2, L4: stopped, the resolver hop of a file start refuses is never ✓, and a file with nothing saved is "host's own".
describe('status hop marks for a host file start refuses (walk 9 L2, L4)', () => {
  it('NUL bytes beside a nameserver line: ✗ (doctor calls it an error), "host\'s own" (nothing saved), exit 0 (names resolve)', async () => {
    const h = await host(ORIGINAL);
    await networkWrites(h.root, Buffer.from('nameserver 192.0.2.53\n\0junk\n'));
    h.world.systemAnswer = null;
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    const out = formatStatus(s);
    // The ✗ line says why, briefly (walk 11 L9).
    expect(out).toContain("  ✗ /etc/resolv.conf: host's own (nameservers 192.0.2.53) — not text (it holds NUL bytes): start refuses it\n");
    expect(out).not.toMatch(/✓ \/etc\/resolv\.conf/);
    expect(s.health!.hops.find((x) => x.kind === 'resolver')!.reason).toBe("/etc/resolv.conf is this host's own file (nameservers 192.0.2.53): host apps do not ask k2s-dnsproxy; start would refuse it (NOT_RESOLVER_FILE): it is not text (it holds NUL bytes)");
    // The host's resolver answers: README's exit table gives 0 for "stopped with your own resolver working".
    expect(statusExitCode(s)).toBe(0);
    expect(topologyFromHealth(s.health!).find((b) => b.id === 'resolver')).toMatchObject({ mark: 'fail', ok: false, detail: "owner: host's own · nameserver 192.0.2.53" });
  });

  it('garbage with nothing saved: "host\'s own", not "original"; a plain resolver file stays ✓', async () => {
    const h = await host(JUNK);
    h.world.systemAnswer = null;
    const out = formatStatus(await statusWithHealth(healthProbes(h.deps), 'cli'));
    expect(out).toMatch(/^  ✗ \/etc\/resolv\.conf: host's own — not a resolver file \(line "this is a log line" is no resolv\.conf\(5\) directive\): start refuses it$/m);
    expect(out).not.toContain('/etc/resolv.conf: original');
    const plain = await host(ORIGINAL);
    plain.world.systemAnswer = null;
    expect(formatStatus(await statusWithHealth(healthProbes(plain.deps), 'cli'))).toContain("  ✓ /etc/resolv.conf: host's own (nameservers 192.0.2.53)");
  });
});

// Walk 9 M3, L1 (issue #20 "one message per fact"): a NUL-byte drift while running, as the walk made it.
describe('a NUL-byte drift while running: the long explanation once, the restore named as the banner names it', () => {
  const NUL = Buffer.from('\0\0\0garbage\0\n');
  const LONG = 'where nothing answers then: no name would resolve on this host';

  it('status (CLI): a short health line, the explanation in one note, the reason once', async () => {
    const h = await driftedTo(NUL);
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(s.health?.verdict).toMatchObject({ cause: 'drift', action: 'restore-via' });
    const out = formatStatus(s);
    const health = out.split('\n').find((l) => l.startsWith('health:'))!;
    expect(health).toMatch(/ — nothing is broken now; to end the drift: sudo npx k2s-dns stop --on-drift restore \(the default; not --on-drift keep: no name would resolve on this host after it\)$/);
    expect(health).not.toContain('did not follow their file');
    expect(health.length).toBeLessThan(400);
    expect(out.split(LONG)).toHaveLength(2);
    expect(out.split('it holds NUL bytes')).toHaveLength(2);
    // Doctor has no notes: its finding's meaning says it in full, its fix in a clause.
    const finding = await checkHealthPath(await readDoctorContext(h.deps, { kubeconfigPath: null }));
    expect(finding.meaning.split(LONG)).toHaveLength(2);
    expect(finding.fix).toBe('nothing is broken now; to end the drift: sudo npx k2s-dns stop --on-drift restore (the default; not --on-drift keep: no name would resolve on this host after it)');
  });

  it('the window\'s verdict: the outage in one clause and a pointer to the banner', async () => {
    const h = await driftedTo(NUL);
    const v = (await checkHealth(healthProbes(h.deps))).verdict;
    expect(verdictFix(v, 'gui')).toBe('Nothing is broken now, you can leave K2s DNS running; to end the drift, choose "Restore my original" (the default) in the banner at the top, not "Keep their file": no name would resolve on this host after it (the banner says why)');
  });

  it('after a followed file (L1): the verdict and status name the restore as the banner\'s button, never "Restore my original"', async () => {
    const h = await host(ORIGINAL);
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    await networkWrites(h.root, '# Generated by NetworkManager\nnameserver 192.0.2.77\n');
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'followed' });
    await networkWrites(h.root, NUL);
    await followNetwork(h.deps);
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    const label = driftRestoreLabel(s, [], false, timeText);
    expect(label).toMatch(/^Restore the saved file from \d\d:\d\d:\d\d$/);
    expect(verdictFix(s.health!.verdict, 'gui', label)).toContain(`choose "${label}" (the default) in the banner at the top`);
    const out = formatStatus(s);
    expect(out).not.toContain('Restore my original');
    // The CLI names it with its time as every CLI time, with the zone (shared/clock.ts cliTimeText).
    expect(out).toContain(`("${driftRestoreLabel(s, [], false, cliTimeText)}"; --on-drift keep keeps it)`);
    // A NUL file naming another nameserver (host apps bypass K2s DNS): the health line names it too (Restore first, the default).
    await networkWrites(h.root, Buffer.from('nameserver 192.0.2.99\n\0\0'));
    await followNetwork(h.deps);
    h.world.systemAnswer = null;
    const down = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(down.health?.verdict.action).toBe('restore');
    const cliLabel = driftRestoreLabel(down, [], false, cliTimeText);
    expect(formatStatus(down)).toMatch(new RegExp(`^health: .* — "${cliLabel.replace(/[()+]/g, '\\$&')}" \\(the default\\): sudo npx k2s-dns stop --on-drift restore && `, 'm'));
  });
});
