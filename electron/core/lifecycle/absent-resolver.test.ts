/**
 * /etc/resolv.conf absent while K2s DNS is stopped (walk 10 M5, issue #20): every view said "has
 * no nameserver line" / "nameservers none", start's refusal did not name the missing file, a
 * `start --upstream` saved "(absent)" with a warning about a nameserver line, and the later stop
 * said "Restored … byte for byte" and exited 0 although no name resolved after it. Also: a
 * deleted file while running is "deleted" in status's path line, not "foreign" (walk 10 L4).
 */
import { describe, expect, it } from 'vitest';
import { lstat, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns } from './stop';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';
import { healthProbes } from '../health/probes';
import { statusWithHealth } from '../health/status-with-health';
import { formatStatus } from '../../cli/print';
import { hopLine } from '../doctor/hop-line';
import { runDoctor } from '../doctor/run-doctor';
import { verdictLine } from '../../../shared/health';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';

const newHost = trackedHosts();
const preflightOf = (steps: string[]) => (e: LifecycleEvent) => {
  if (e.type === 'step' && e.step === 'preflight' && e.status === 'done') steps.push(e.message ?? '');
};

async function absentHost() {
  const h = await newHost();
  await rm(join(h.root, 'etc/resolv.conf'));
  return h;
}

describe('stopped with no /etc/resolv.conf', () => {
  it('status, its health line, its path line and the verdict say the file does not exist, never "no nameserver line"', async () => {
    const h = await absentHost();
    // With no file glibc asks 127.0.0.1, where nothing listens: no name resolves.
    h.world.systemAnswer = null;
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(s.resolverMissing).toEqual({ kind: 'absent' });
    const v = s.health!.verdict;
    expect(v).toMatchObject({ level: 'error', cause: 'no-nameserver' });
    expect(v.summary).toBe('No names resolve on this host: nothing answers on 127.0.0.1:53 (/etc/resolv.conf does not exist, so glibc asks 127.0.0.1:53 (resolv.conf(5)); K2s DNS is stopped)');
    const resolver = s.health!.hops.find((x) => x.kind === 'resolver')!;
    expect(resolver.reason).toBe('/etc/resolv.conf does not exist, so glibc asks 127.0.0.1:53 (resolv.conf(5)): host apps do not ask k2s-dnsproxy');
    expect(hopLine(resolver)).toBe('/etc/resolv.conf: missing');
    const text = formatStatus(s);
    expect(text).toMatch(/^resolver: {3}\/etc\/resolv\.conf does not exist$/m);
    expect(text).toContain('✗ /etc/resolv.conf: missing');
    expect(verdictLine(v, 'cli')).toContain('/etc/resolv.conf does not exist');
    expect(text).not.toContain('no nameserver line');
    expect(text).not.toContain('nameservers none');
    expect(text).not.toContain("host's own");
  });

  it('doctor says the file does not exist: an error with the fix, never "no nameserver line" or "host\'s own"', async () => {
    const h = await absentHost();
    h.world.systemAnswer = null;
    const findings = await runDoctor(h.deps, { kubeconfigPath: null });
    const loop = findings.find((f) => f.id === 'nameserver-loop')!;
    expect(loop).toMatchObject({ severity: 'error', title: '/etc/resolv.conf does not exist' });
    expect(loop.meaning).toContain('so start refuses with NO_UPSTREAM');
    // The health finding's error (first) carries the fix; this one points at it (walk 11 L5: the same fix in two wordings).
    const health = findings.find((f) => f.id === 'health')!;
    expect(health).toMatchObject({ severity: 'error', title: 'No names resolve on this host: nothing answers on 127.0.0.1:53 (/etc/resolv.conf does not exist, so glibc asks 127.0.0.1:53 (resolv.conf(5)); K2s DNS is stopped)' });
    expect(health.fix).toBe("put a nameserver that answers into /etc/resolv.conf (reconnect the network so NetworkManager or your DHCP client writes it again, or write it yourself as root (sudo) with a line such as `nameserver 192.0.2.1`, your router's or company DNS's IP address in place of 192.0.2.1); then sudo npx k2s-dns start");
    expect(loop.fix).toBe(`See the error "${health.title}" above: its fix is this one's.`);
    expect(loop.detail).toEqual({ pointsAt: 'health' });
    expect(findings.find((f) => f.id === 'upstream-answers')?.meaning).toContain('see “/etc/resolv.conf does not exist”');
    expect(findings.find((f) => f.title === 'K2s DNS state: stopped')?.meaning).toBe('K2s DNS is stopped and /etc/resolv.conf does not exist (not K2s-owned).');
    const text = findings.map((f) => `${f.title}: ${f.meaning}`).join('\n');
    expect(text).not.toContain('no nameserver line');
    expect(text).not.toContain("host's own");
  });

  it('start refuses NO_UPSTREAM naming the missing file and what to do', async () => {
    const h = await absentHost();
    const r = await startDns(h.deps, TEST_START_OPTS, () => undefined);
    expect(r).toMatchObject({ ok: false, code: 'NO_UPSTREAM', exitCode: 3 });
    expect(r.message).toContain('/etc/resolv.conf does not exist, so there is no original resolver to take upstream nameservers from');
    expect(r.message).toContain('Put a resolver file there first');
    expect(r.message).toContain('stop then puts back no file, and no name resolves after it');
    expect(r.message).not.toContain('lists no usable upstream nameserver');
    expect(await lstat(join(h.root, 'etc/resolv.conf')).catch(() => null)).toBeNull();
  });

  it('start --upstream warns that stop puts back no file; that stop ends with RESOLVER_DOWN and exit 5', async () => {
    const h = await absentHost();
    const steps: string[] = [];
    expect(await startDns(h.deps, { ...TEST_START_OPTS, upstreams: ['192.0.2.53'] }, preflightOf(steps))).toMatchObject({ ok: true });
    expect(steps[0]).toContain('; warning: /etc/resolv.conf does not exist, and K2s saves that as your original: stop puts back no file, glibc then asks 127.0.0.1 (resolv.conf(5)), where nothing answers once k2s-dnsproxy is stopped, and no name resolves on this host until a resolver file is there');
    expect(steps[0]).not.toContain('no nameserver line');
    const r = await stopDns(h.deps, {}, () => undefined);
    expect(r).toMatchObject({ ok: true, exitCode: 5 });
    expect(r.warnings?.map((w) => w.code)).toEqual(['RESOLVER_DOWN']);
    expect(r.warnings?.[0]?.message).toBe('No name resolves on this host now: /etc/resolv.conf does not exist, and with no file glibc asks 127.0.0.1:53 (resolv.conf(5)), where nothing answers once k2s-dnsproxy is stopped; put a nameserver that answers into /etc/resolv.conf (reconnect the network so NetworkManager or your DHCP client writes it again, or write it yourself as root (sudo) with a line such as `nameserver 192.0.2.1`, your router\'s or company DNS\'s IP address in place of 192.0.2.1; exit status 5, as npx k2s-dns status gives now).');
    expect(r.message).toContain("Removed K2s DNS's /etc/resolv.conf: the original saved at ");
    expect(r.message).toContain('was no file (/etc/resolv.conf did not exist then), so none was put back. No name resolves on this host now:');
    expect(r.message).not.toContain('back as it was');
    expect(r.message).not.toContain('byte for byte');
    expect(await lstat(join(h.root, 'etc/resolv.conf')).catch(() => null)).toBeNull();
  });
});

describe('stop putting back an original that resolves nothing', () => {
  it('an original with no nameserver line (saved with --upstream): RESOLVER_DOWN and exit 5', async () => {
    const h = await newHost('search corp.example\n');
    expect(await startDns(h.deps, { ...TEST_START_OPTS, upstreams: ['192.0.2.53'] }, () => undefined)).toMatchObject({ ok: true });
    const r = await stopDns(h.deps, {}, () => undefined);
    expect(r).toMatchObject({ ok: true, exitCode: 5 });
    expect(r.warnings?.map((w) => w.code)).toEqual(['RESOLVER_DOWN']);
    expect(r.message).toContain('byte for byte. No name resolves on this host now: the restored /etc/resolv.conf has no nameserver line, so glibc asks 127.0.0.1:53 (resolv.conf(5)), where nothing answers once k2s-dnsproxy is stopped');
  });

  it('an original with a real nameserver stays exit 0 with no warning', async () => {
    const h = await newHost();
    expect(await startDns(h.deps, TEST_START_OPTS, () => undefined)).toMatchObject({ ok: true });
    const r = await stopDns(h.deps, {}, () => undefined);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(r.warnings).toBeUndefined();
    expect(r.message).toBe('K2s DNS is stopped; the host resolver is back as it was.');
  });
});

describe('deleted while K2s DNS runs (walk 10 L4)', () => {
  it('status says "deleted", never "foreign", in its path line and resolver line', async () => {
    const h = await newHost();
    expect(await startDns(h.deps, TEST_START_OPTS, () => undefined)).toMatchObject({ ok: true });
    await rm(join(h.root, 'etc/resolv.conf'));
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    const text = formatStatus(s);
    expect(text).toContain('! /etc/resolv.conf: deleted');
    expect(text).toContain('resolver:   /etc/resolv.conf does not exist (deleted while K2s DNS ran)');
    expect(text).not.toContain('/etc/resolv.conf: foreign');
  });

  it('a file written back is "foreign" again (only a missing file is "deleted")', async () => {
    const h = await newHost();
    expect(await startDns(h.deps, TEST_START_OPTS, () => undefined)).toMatchObject({ ok: true });
    await writeFile(join(h.root, 'etc/resolv.conf'), '# Generated by NetworkManager\nnameserver 192.0.2.99\n');
    const text = formatStatus(await statusWithHealth(healthProbes(h.deps), 'cli'));
    expect(text).toContain('/etc/resolv.conf: foreign');
    expect(text).not.toContain(': deleted');
  });
});
