/**
 * Doctor while K2s DNS runs and another program's file is /etc/resolv.conf (drift), walk 10:
 * M3 — start's NOT_RESOLVER_FILE rule is about the file a start would save, so while a saved
 * original exists it is no error with "then start again"; M4 — K2s DNS state's fix is the one
 * drift rule in the words `status` prints (default first; a deleted file: both choices restore);
 * L3 — "the original" is the saved file, never the file in place.
 */
import { describe, expect, it } from 'vitest';
import { chmod, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from '../lifecycle/start';
import { followNetwork } from '../lifecycle/follow';
import { trackedHosts, TEST_START_OPTS } from '../../../e2e/support/test-deps';
import { statusWithHealth } from '../health/status-with-health';
import { healthProbes } from '../health/probes';
import { verdictFix } from '../../../shared/health';
import { driftRestoreLabel } from '../../../shared/saved-copy';
import { timeText } from '../../../shared/clock';
import { notResolverFix, notResolverGuiFix } from '../../../shared/network-writer';
import { runDoctor } from './run-doctor';
import type { DoctorFinding } from '../../../shared/doctor';

const host = trackedHosts();
const quiet = () => undefined;
const ORIGINAL = 'nameserver 192.0.2.53\nsearch corp.example\n';

/** Writes `text` at /etc/resolv.conf by rename with mode `mode` (as a network tool does). */
async function networkWrites(root: string, text: string | Buffer, mode = 0o644) {
  const tmp = join(root, 'etc/resolv.conf.tmp');
  await writeFile(tmp, text);
  await chmod(tmp, mode);
  await rename(tmp, join(root, 'etc/resolv.conf'));
}

/** K2s DNS started on ORIGINAL, then `drift` done to the root and seen by the follower; `dead`: host apps get no answer. */
async function drifted(drift: (root: string) => Promise<void>, dead = false) {
  const h = await host(ORIGINAL);
  expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
  await drift(h.root);
  await followNetwork(h.deps);
  if (dead) h.world.systemAnswer = null;
  return h;
}

const byId = (fs: DoctorFinding[], id: string) => fs.find((f) => f.id === id)!;

const KINDS: [string, (root: string) => Promise<void>, boolean, 'restore' | 'keep'][] = [
  ['deleted', (r) => unlink(join(r, 'etc/resolv.conf')), false, 'restore'],
  ['NUL bytes, no nameserver line', (r) => networkWrites(r, Buffer.from('abc\0\0def\n')), false, 'restore'],
  ['NUL bytes beside a nameserver that does not answer', (r) => networkWrites(r, Buffer.from('nameserver 192.0.2.99\n\0\0')), true, 'restore'],
  ['a resolver file writable by every user (0666)', (r) => networkWrites(r, '# written by othertool\nnameserver 192.0.2.99\n', 0o666), false, 'restore'],
];

describe('M3: a file start would refuse, while K2s DNS runs with a saved original', () => {
  it('NUL bytes, no nameserver line (names resolve through K2s DNS): no error, no "start again", the loop check reads the saved original', async () => {
    const h = await drifted((r) => networkWrites(r, Buffer.from('abc\0\0def\n')));
    for (const frontEnd of ['cli', 'gui'] as const) {
      const findings = await runDoctor(h.deps, { kubeconfigPath: null, frontEnd });
      expect(findings.filter((f) => f.severity === 'error').map((f) => f.title)).toEqual([]);
      for (const f of findings) {
        const shown = [f.title, f.meaning, f.fix ?? '', f.remedy?.gui ?? ''].join(' ');
        expect(shown, f.id).not.toContain('NOT_RESOLVER_FILE');
        expect(shown, f.id).not.toContain(notResolverFix());
        expect(shown, f.id).not.toContain(notResolverGuiFix());
      }
      expect(byId(findings, 'nameserver-loop')).toMatchObject({ severity: 'ok', detail: { nameservers: ['192.0.2.53'] } });
      // The NUL file is the drift's, a warning with the drift choice as its fix, as status marks it (`! … foreign`).
      expect(byId(findings, 'lifecycle-state')).toMatchObject({ severity: 'warn', detail: { keepRisk: 'not-resolver', driftDefault: 'restore' } });
    }
    // The window gives the follower's reason here (its health finding does not), naming the file in place (L3).
    const gui = byId(await runDoctor(h.deps, { kubeconfigPath: null, frontEnd: 'gui' }), 'lifecycle-state');
    expect(gui.meaning).toContain("K2s DNS did not follow the file in /etc/resolv.conf now (another program's): it is not text (it holds NUL bytes).");
  });

  it('NUL bytes beside a nameserver that does not answer: the one error is the health finding (names do not resolve)', async () => {
    const h = await drifted((r) => networkWrites(r, Buffer.from('nameserver 192.0.2.99\n\0\0')), true);
    const findings = await runDoctor(h.deps, { kubeconfigPath: null });
    expect(findings.filter((f) => f.severity === 'error').map((f) => f.id)).toEqual(['health']);
    expect(byId(findings, 'nameserver-loop').severity).toBe('ok');
  });

  it('stopped on the same file (no start recorded): still start\'s error, with start\'s own fix', async () => {
    const h = await host(ORIGINAL);
    await networkWrites(h.root, Buffer.from('abc\0\0def\n'));
    const f = byId(await runDoctor(h.deps, { kubeconfigPath: null }), 'nameserver-loop');
    expect(f).toMatchObject({ severity: 'error', title: '/etc/resolv.conf is no resolver file', fix: notResolverFix() });
  });
});

describe('M4: K2s DNS state during drift says what status says, the default first', () => {
  // Walk 11 L5: the health finding (first) carries status's health-line fix; K2s DNS state points at it, never the same fix twice.
  it.each(KINDS)('%s: the health finding\'s fix is status\'s health-line fix for both front ends, Restore the default; K2s DNS state points at it', async (_kind, drift, dead, defaultChoice) => {
    const h = await drifted(drift, dead);
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(s.resolverOwner).toBe('foreign');
    const label = driftRestoreLabel(s, [], false, timeText);
    const findings = await runDoctor(h.deps, { kubeconfigPath: null });
    const f = byId(findings, 'lifecycle-state');
    const health = byId(findings, 'health');
    expect(f.severity).toBe('warn');
    expect(health.fix).toBe(verdictFix(s.health!.verdict, 'cli', label));
    expect(byId(await runDoctor(h.deps, { kubeconfigPath: null, frontEnd: 'gui' }), 'health').fix).toBe(verdictFix(s.health!.verdict, 'gui', label));
    const which = `the ${health.severity === 'error' ? 'error' : 'warning'} "${health.title}" above`;
    expect(f.fix).toBe(`See ${which}: its fix is this one's.`);
    expect(f.remedy).toMatchObject({ gui: `See ${which}: its fix is this one's.`, cli: `see ${which}` });
    expect(f.detail).toMatchObject({ driftDefault: defaultChoice, pointsAt: 'health' });
    // The default comes first: never keep before restore, never "keep" unmarked beside a restore default.
    const keepAt = health.fix!.indexOf('--on-drift keep');
    const restoreAt = health.fix!.indexOf('stop --on-drift restore');
    if (keepAt >= 0 && restoreAt >= 0) expect(restoreAt).toBeLessThan(keepAt);
  });

  it('deleted: both choices restore, never "pointing at 127.0.0.1" or "not --on-drift keep"', async () => {
    const h = await drifted((r) => unlink(join(r, 'etc/resolv.conf')));
    const findings = await runDoctor(h.deps, { kubeconfigPath: null });
    const f = byId(findings, 'lifecycle-state');
    expect(f.title).toBe('K2s DNS state: /etc/resolv.conf deleted while K2s DNS runs');
    expect(f.meaning).toBe("/etc/resolv.conf was deleted while K2s DNS ran, so there is no file of theirs to keep: stopping K2s DNS puts your saved original back, byte for byte. Until then host apps still ask the proxy: with no file glibc asks 127.0.0.1:53 (resolv.conf(5)), k2s-dnsproxy's listener.");
    expect(byId(findings, 'health').fix).toBe('nothing is broken now; to end it: sudo npx k2s-dns stop (it puts the saved original back, with either --on-drift choice)');
    expect(f.fix).toBe('See the warning "kubernetes.default.svc.cluster.local resolves through K2s DNS, but /etc/resolv.conf was deleted while K2s DNS ran: with no file glibc asks 127.0.0.1:53 (resolv.conf(5)), k2s-dnsproxy\'s listener" above: its fix is this one\'s.');
    expect(`${f.meaning} ${f.fix} ${f.remedy?.gui}`).not.toMatch(/pointing at|not --on-drift keep|has no nameserver line/);
  });

  it('a valid file K2s DNS would follow (keep policy): Keep their file is the default, first', async () => {
    const h = await host(ORIGINAL);
    expect(await startDns(h.deps, { ...TEST_START_OPTS, onNetworkChange: 'keep' }, quiet)).toMatchObject({ ok: true });
    await networkWrites(h.root, '# Generated by NetworkManager\nnameserver 192.0.2.77\n');
    const findings = await runDoctor(h.deps, { kubeconfigPath: null });
    expect(byId(findings, 'lifecycle-state').detail).toMatchObject({ driftDefault: 'keep', keepRisk: null, pointsAt: 'health' });
    expect(byId(findings, 'health').fix).toMatch(/^"Keep their file" \(the default\): sudo npx k2s-dns stop --on-drift keep && .*; or "Restore my original": sudo npx k2s-dns stop --on-drift restore && /);
  });

  it('after a followed file, the restore is named as the banner\'s button (the followed file), as in status', async () => {
    const h = await host(ORIGINAL);
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    await networkWrites(h.root, '# Generated by NetworkManager\nnameserver 192.0.2.77\n');
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'followed' });
    await networkWrites(h.root, Buffer.from('abc\0\0def\n'));
    await followNetwork(h.deps);
    const findings = await runDoctor(h.deps, { kubeconfigPath: null, frontEnd: 'gui' });
    const label = driftRestoreLabel(await statusWithHealth(healthProbes(h.deps), 'gui'), [], false, timeText);
    expect(label).not.toBe('Restore my original');
    const named = `choose "${label}" (the default)`;
    // The health finding names it so (it said "Restore my original", the file from before the follow); K2s DNS state points at it.
    expect(byId(findings, 'health').fix).toContain(named);
    expect(byId(findings, 'lifecycle-state').remedy?.gui).toMatch(/^See the warning ".*" above: its fix is this one's\.$/);
  });
});

describe('walk 11 L10: one verb for one write, from the follower\'s rule', () => {
  /** K2s DNS started with the keep policy (the follower records the drift, follows nothing), then `drift`. */
  async function kept(drift: (root: string) => Promise<void>) {
    const h = await host(ORIGINAL);
    expect(await startDns(h.deps, { ...TEST_START_OPTS, onNetworkChange: 'keep' }, quiet)).toMatchObject({ ok: true });
    await drift(h.root);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'drift' });
    return h;
  }

  it('written in place (printf > /etc/resolv.conf): status\'s note, the follower\'s note and doctor all say "rewritten in place"', async () => {
    const h = await kept((r) => writeFile(join(r, 'etc/resolv.conf'), '# my own\nnameserver 192.0.2.99\n'));
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(s.driftVerb).toBe('rewritten in place');
    const text = s.messages.join('\n');
    expect(text).toContain('/etc/resolv.conf was rewritten in place by another program (its first comment: "# my own") while K2s ran;');
    expect(text).toContain('(/etc/resolv.conf rewritten in place)');
    expect(text).not.toMatch(/was (changed|replaced) by/);
    const f = byId(await runDoctor(h.deps, { kubeconfigPath: null }), 'lifecycle-state');
    expect(f.meaning).toMatch(/^\/etc\/resolv\.conf was rewritten in place by another program \(its first comment: "# my own"\) while K2s DNS ran, /);
  });

  it('a new file put over it (mv): "replaced" in status and doctor alike', async () => {
    const h = await kept((r) => networkWrites(r, '# my own\nnameserver 192.0.2.99\n'));
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(s.driftVerb).toBe('replaced');
    expect(s.messages.join('\n')).toContain('/etc/resolv.conf was replaced by another program (its first comment: "# my own") while K2s ran;');
    expect(byId(await runDoctor(h.deps, { kubeconfigPath: null }), 'lifecycle-state').meaning).toMatch(/^\/etc\/resolv\.conf was replaced by another program \(its first comment: "# my own"\) while K2s DNS ran, /);
  });
});

describe('L3: "the original" during drift is the saved file', () => {
  it('NUL file in place: the saved original\'s one nameserver is counted, and named as the saved one', async () => {
    const h = await drifted((r) => networkWrites(r, Buffer.from('abc\0\0def\n')));
    const findings = await runDoctor(h.deps, { kubeconfigPath: null });
    expect(byId(findings, 'nameserver-count')).toMatchObject({ severity: 'ok', meaning: "The saved original, not the file in /etc/resolv.conf now (another program's), lists 1 nameserver; glibc uses up to 3.", detail: { nameservers: ['192.0.2.53'] } });
    expect(byId(findings, 'nameserver-loop').meaning).toBe("The saved original, not the file in /etc/resolv.conf now (another program's), lists nameservers (192.0.2.53) that are not K2s DNS listeners.");
  });

  it('deleted: the saved original is checked for loops, not "No original resolver"', async () => {
    const h = await drifted((r) => unlink(join(r, 'etc/resolv.conf')));
    const loop = byId(await runDoctor(h.deps, { kubeconfigPath: null }), 'nameserver-loop');
    expect(loop).toMatchObject({ severity: 'ok', detail: { nameservers: ['192.0.2.53'] } });
    expect(loop.title).not.toBe('No original resolver to check for loops');
  });

  it('no drift: the words stay "The original"', async () => {
    const h = await host(ORIGINAL);
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    expect(byId(await runDoctor(h.deps, { kubeconfigPath: null }), 'nameserver-count').meaning).toBe('The original lists 1 nameserver; glibc uses up to 3.');
  });
});
