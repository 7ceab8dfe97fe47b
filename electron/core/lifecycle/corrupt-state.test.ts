/**
 * A corrupt state file (truncated JSON, garbage, wrong schema). On
 * main it was unrecoverable (stop failed on it; its hint said to delete the only copy of the
 * original) and `status` said degraded while the health verdict said ok.
 */
import { describe, expect, it } from 'vitest';
import { lstat, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MANAGED_HEADER } from '../../../shared/k2s-paths';
import { startDns } from './start';
import { stopDns } from './stop';
import { recoverNow } from './recover';
import { dnsStatus } from './status';
import { statusWithHealth } from '../health/status-with-health';
import { healthProbes } from '../health/probes';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';
import { readDoctorContext } from '../doctor/context';
import { checkHealthPath } from '../doctor/health';
import { checkLifecycleState } from '../doctor/lifecycle-state';
import { setCliName } from '../../../shared/fix';

const newHost = trackedHosts();
const ORIGINAL = 'nameserver 192.0.2.53\nsearch corp.example\n';
const opts = TEST_START_OPTS;
const sink = () => () => undefined;
const STATE = 'var/lib/k2s/dns-resolver-state.json';

/** A running host whose state file then gets `mangle(text)` written over it; returns the bytes written. */
async function corrupted(mangle: (text: string) => string) {
  const h = await newHost(ORIGINAL);
  expect((await startDns(h.deps, opts, sink())).ok).toBe(true);
  const bytes = mangle(await readFile(join(h.root, STATE), 'utf8'));
  await writeFile(join(h.root, STATE), bytes, { mode: 0o600 });
  return { ...h, bytes };
}
const truncated = (t: string) => t.slice(0, Math.floor(t.length / 2));
const wrongSchema = (t: string) => JSON.stringify({ ...JSON.parse(t), version: 2, listeners: 'all' });
/** The moved-aside copy: its name and bytes. */
async function aside(root: string) {
  const names = (await readdir(join(root, 'var/lib/k2s'))).filter((n) => n.startsWith('dns-resolver-state.json.corrupt-'));
  expect(names).toHaveLength(1);
  return { name: names[0]!, bytes: await readFile(join(root, 'var/lib/k2s', names[0]!), 'utf8') };
}

describe('a corrupt state file', () => {
  it('status and the health verdict agree: degraded, error state-corrupt, naming the file and the fix', async () => {
    const h = await corrupted(truncated);
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(s.state).toBe('degraded');
    expect(s.stateProblem).toMatch(/^The saved resolver state \/var\/lib\/k2s\/dns-resolver-state.json is corrupt \(not valid JSON: .*\); run sudo npx k2s-dns stop \(or recover\)/);
    expect(s.health!.verdict).toMatchObject({ level: 'error', cause: 'state-corrupt', action: 'recover', resolves: true });
    expect(s.health!.verdict.summary).toBe('Cluster names resolve, but the saved resolver state (/var/lib/k2s/dns-resolver-state.json) is corrupt');
    expect(s.messages.join(' ')).not.toContain('the saved original is gone');
    expect((await dnsStatus(h.deps, 'gui')).messages.join(' ')).toContain('press Stop: it restores your original resolver');
  });

  it('doctor: the health finding is an error naming the file with the fix; the state finding carries the full sentence', async () => {
    const h = await corrupted(truncated);
    const ctx = await readDoctorContext(h.deps, { kubeconfigPath: null });
    expect(await checkHealthPath(ctx)).toMatchObject({ severity: 'error', title: 'Cluster names resolve, but the saved resolver state (/var/lib/k2s/dns-resolver-state.json) is corrupt', fix: 'sudo npx k2s-dns recover' });
    const state = await checkLifecycleState(ctx);
    expect(state.severity).not.toBe('ok');
    expect(state.meaning).toContain('The saved resolver state /var/lib/k2s/dns-resolver-state.json is corrupt (not valid JSON');
  });

  it('wrong schema with a valid saved original: stop restores it byte for byte, stops the proxy, moves the file aside', async () => {
    const h = await corrupted(wrongSchema);
    const r = await stopDns(h.deps, {}, sink());
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    expect(h.services.running).toBe(false);
    const moved = await aside(h.root);
    expect(moved.bytes).toBe(h.bytes);
    expect(r.message).toContain(`/var/lib/k2s/dns-resolver-state.json was corrupt (version 2 is not 1); restored the original it still held; moved it aside to /var/lib/k2s/${moved.name} (not deleted).`);
    await expect(lstat(join(h.root, STATE))).rejects.toThrow(/ENOENT/);
    expect((await dnsStatus(h.deps)).state).toBe('stopped');
  });

  it('truncated JSON (no readable original): stop keeps the proxy for the K2s file, moves the bytes aside, STATE_CORRUPT with the fix', async () => {
    const h = await corrupted(truncated);
    const r = await stopDns(h.deps, {}, sink());
    expect(r).toMatchObject({ ok: false, exitCode: 1, code: 'STATE_CORRUPT' });
    expect(r.message).toContain('holds no readable original resolver; moved it aside to /var/lib/k2s/dns-resolver-state.json.corrupt-');
    expect(r.message).toContain('Write your own resolv.conf back by hand (a file with your nameserver, or the symlink your distribution uses, e.g. `ln -sf ../run/systemd/resolve/stub-resolv.conf /etc/resolv.conf` as root), then run sudo npx k2s-dns stop again.');
    expect((await aside(h.root)).bytes).toBe(h.bytes);
    expect((await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).split('\n')[0]).toBe(MANAGED_HEADER);
    expect(h.services.running).toBe(true);
  });

  // New-user walk 23: truncated in the sandbox, then stop, doctor, the file written back by hand, stop.
  it('truncated, then stop, doctor, the own file written back, stop: one way through, in the CLI invocation, and the last result says it stopped the proxy', async () => {
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true, '192.0.2.53');
    try {
      const h = await corrupted(truncated);
      const first = await stopDns(h.deps, {}, sink());
      expect(first).toMatchObject({ ok: false, exitCode: 1, code: 'STATE_CORRUPT' });
      expect(first.message).toMatch(/, then run \/tmp\/k2sdns-app-Ab12\/k2s-dns stop again\.$/);
      expect(first.message).toContain("Write your own resolv.conf back by hand (in the sandbox, `/tmp/k2sdns-app-Ab12/k2s-dns sh -c 'rm -f /etc/resolv.conf && echo nameserver 192.0.2.53 > /etc/resolv.conf'` writes one naming its network's nameserver, 192.0.2.53), then run");
      // Doctor: the saved original is gone (moved aside), so its fix is its meaning's, never recover or "stop to restore the saved resolver".
      const doctor = await checkLifecycleState(await readDoctorContext(h.deps, { kubeconfigPath: null }));
      expect(doctor).toMatchObject({ severity: 'warn', title: 'K2s DNS state: degraded', remedy: { action: null, cli: '/tmp/k2sdns-app-Ab12/k2s-dns stop' } });
      expect(doctor.meaning).toContain('k2s-dnsproxy runs but the saved original is gone: write your own resolv.conf back by hand');
      expect(doctor.fix).toBe("Write your own resolv.conf back by hand (in the sandbox, `/tmp/k2sdns-app-Ab12/k2s-dns sh -c 'rm -f /etc/resolv.conf && echo nameserver 192.0.2.53 > /etc/resolv.conf'` writes one naming its network's nameserver, 192.0.2.53), then run `/tmp/k2sdns-app-Ab12/k2s-dns stop`; then `/tmp/k2sdns-app-Ab12/k2s-dns start` if you want K2s DNS again.");
      await writeFile(join(h.root, 'etc/resolv.conf'), ORIGINAL);
      const pid = (await h.deps.services.status()).pid;
      const second = await stopDns(h.deps, {}, sink());
      expect(second).toMatchObject({ ok: true, exitCode: 0, message: `K2s DNS is stopped: k2s-dnsproxy (PID ${pid}) ran without a saved original and is stopped; /etc/resolv.conf was not K2s-owned and is left as it is.` });
      expect(h.services.running).toBe(false);
      expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
      // Nothing ran: the plain words.
      expect((await stopDns(h.deps, {}, sink())).message).toBe('K2s DNS is stopped; it was not running.');
    } finally {
      setCliName('npx k2s-dns');
    }
  });

  it('garbage while the resolver is already the user\'s own: stop stops the proxy and moves the garbage aside', async () => {
    const h = await corrupted(() => '\u0000\u00ffgarbage');
    await writeFile(join(h.root, 'etc/resolv.conf'), ORIGINAL);
    const r = await stopDns(h.deps, {}, sink());
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(r.message).toContain('was not K2s-owned, so it was left as it is');
    expect((await aside(h.root)).bytes).toBe(h.bytes);
    expect(h.services.running).toBe(false);
  });

  it('k2s-dns recover restores from a wrong-schema file; the implicit recovery before status leaves it alone', async () => {
    const h = await corrupted(wrongSchema);
    expect(await recoverNow(h.deps, sink())).toBeNull();
    expect(h.services.running).toBe(true);
    const done = await recoverNow(h.deps, sink(), { corruptState: true });
    expect(done).toMatch(/^Recovered from a corrupt state file: \/var\/lib\/k2s\/dns-resolver-state.json was corrupt \(version 2 is not 1\); restored the original/);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    expect(h.services.running).toBe(false);
  });

  it('start over a corrupt state file is refused (exit 3, STATE_CORRUPT): it never overwrites the saved original', async () => {
    const h = await corrupted(truncated);
    const r = await startDns(h.deps, opts, sink());
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'STATE_CORRUPT' });
    expect(await readFile(join(h.root, STATE), 'utf8')).toBe(h.bytes);
  });
});
