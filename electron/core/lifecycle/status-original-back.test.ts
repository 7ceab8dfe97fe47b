/**
 * `status` after K2s's own `k2s stop` while K2s DNS runs, when the network follower does not
 * finish the stop (dead, killed, an older install, or in the moment before it does): the saved
 * original is back at /etc/resolv.conf and k2s-dnsproxy is stopped. Said once, as what it is, with
 * a plain stop as the fix: no drift ("changed by someone else", the diff hint, the drift choice),
 * no start. K2s's restore is simulated as in follow-k2s-stop.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns } from './stop';
import { dnsStatus } from './status';
import { trackedHosts, TEST_START_OPTS, FakeServices } from '../../../e2e/support/test-deps';
import type { ServiceManager } from '../host/service-manager';
import { statusWithHealth } from '../health/status-with-health';
import { healthProbes } from '../health/probes';
import { healthVerdict, ORIGINAL_BACK_SUMMARY, verdictFix, windowSummary } from '../../../shared/health';
import { statusExitCode } from '../../../shared/status-exit';
import { formatStatus } from '../../cli/print';

const host = trackedHosts();
const quiet = () => undefined;
const ORIGINAL = 'nameserver 192.0.2.53\nsearch corp.example\n';
const STATE = 'var/lib/k2s/dns-resolver-state.json';
const STOP_LINE = "as root: `sudo npx k2s-dns stop`, or `su -c 'npx k2s-dns stop'` where sudo is not installed (it keeps your file's bytes, ends K2s DNS's companions and forgets the saved state)";

/** The proxy as systemd runs it; `crashed` makes a down proxy one systemd restarts. */
class SystemdFake implements ServiceManager {
  readonly kind = 'systemd' as const;
  crashed = false;
  constructor(private readonly inner: FakeServices) {}
  start(spec: Parameters<FakeServices['start']>[0]) {
    return this.inner.start(spec);
  }
  async stop() {
    await this.inner.stop();
  }
  async status() {
    const s = await this.inner.status();
    return this.crashed && !s.running ? { ...s, restart: { attempt: 1, lastExit: 'killed by signal KILL', reason: null, gaveUp: false } } : s;
  }
}

/** K2s DNS started on a temp root (`link`: /etc/resolv.conf a symlink to /run/netx/resolv.conf), the proxy under the systemd fake. */
async function started(link = false) {
  const h = await host(ORIGINAL);
  if (link) {
    await mkdir(join(h.root, 'run/netx'), { recursive: true });
    await writeFile(join(h.root, 'run/netx/resolv.conf'), ORIGINAL, { mode: 0o644 });
    await rm(join(h.root, 'etc/resolv.conf'));
    await symlink('/run/netx/resolv.conf', join(h.root, 'etc/resolv.conf'));
  }
  expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
  const systemd = new SystemdFake(h.services);
  h.deps.services = systemd;
  // As on the booted host after `k2s stop`: the cluster name is not in the original's nameservers.
  h.world.systemAnswer = null;
  return { ...h, systemd };
}

/** What K2s's restoreResolverState does: remove, then write the saved bytes (mode as its umask leaves it), or the saved link. */
async function k2sRestores(root: string, mode = 0o644) {
  const state = JSON.parse(await readFile(join(root, STATE), 'utf8'));
  await rm(join(root, 'etc/resolv.conf'));
  if (state.linkTarget) await symlink(state.linkTarget, join(root, 'etc/resolv.conf'));
  else await writeFile(join(root, 'etc/resolv.conf'), Buffer.from(state.content, 'base64'), { mode });
}

/** `k2s-dns status` as the CLI prints it, with its exit status. */
async function cliStatus(h: Awaited<ReturnType<typeof started>>) {
  const s = await statusWithHealth(healthProbes(h.deps), 'cli');
  return { s, text: formatStatus(s), exit: statusExitCode(s) };
}

describe("status after K2s's own `k2s stop` the follower did not finish", () => {
  it('original back with its saved mode, proxy stopped: one health line with stop as the fix, no start, no drift; exit 1', async () => {
    const h = await started();
    await k2sRestores(h.root);
    await h.systemd.stop();
    const { s, text, exit } = await cliStatus(h);
    expect(s).toMatchObject({ state: 'degraded', resolverOwner: 'original', originalBack: true });
    expect(s.health!.verdict).toMatchObject({ level: 'off', cause: 'original-back', action: 'stop', summary: ORIGINAL_BACK_SUMMARY });
    expect(s.messages).toEqual([]);
    const lines = text.split('\n');
    expect(lines[0]).toBe('K2s DNS: degraded');
    expect(lines[1]).toBe(`health:     Your original resolver is back at /etc/resolv.conf and k2s-dnsproxy is stopped, as K2s's own \`k2s stop\` leaves them; K2s DNS's own stop has not run yet — ${STOP_LINE}`);
    expect(lines).toContain('  ✓ /etc/resolv.conf: original (nameservers 192.0.2.53)');
    expect(lines).toContain("resolver:   this host's own (not K2s-owned)");
    expect(lines.filter((l) => l.startsWith('note:'))).toEqual([]);
    expect(text).not.toMatch(/someone else|k2s-dns diff|k2s-dns start|foreign|drift/);
    expect(exit).toBe(1);
  });

  it("original back with K2s's umask mode (0600): the same, not drift", async () => {
    const h = await started();
    await k2sRestores(h.root, 0o600);
    await h.systemd.stop();
    const { s, text, exit } = await cliStatus(h);
    expect(s).toMatchObject({ state: 'degraded', resolverOwner: 'original', originalBack: true, messages: [] });
    expect(s.health!.verdict.cause).toBe('original-back');
    expect(s.driftWriter).toBeUndefined();
    expect(text).not.toMatch(/someone else|k2s-dns diff|k2s-dns start|foreign|drift/);
    expect(JSON.stringify(s)).not.toMatch(/changed by someone else|k2s-dns diff|Restore my original/);
    expect(exit).toBe(1);
  });

  it('the saved link put back (same target): the same', async () => {
    const h = await started(true);
    await k2sRestores(h.root);
    await h.systemd.stop();
    const { s, exit } = await cliStatus(h);
    expect(s).toMatchObject({ state: 'degraded', resolverOwner: 'original', originalBack: true, messages: [] });
    expect(s.health!.verdict.cause).toBe('original-back');
    expect(exit).toBe(1);
  });

  it('in the window: the verdict points at the Stop button, says nothing of drift, and no note repeats it', async () => {
    const h = await started();
    await k2sRestores(h.root, 0o600);
    await h.systemd.stop();
    const s = await statusWithHealth(healthProbes(h.deps), 'gui');
    expect(s.messages).toEqual([]);
    expect(windowSummary(s.health!.verdict)).toBe(ORIGINAL_BACK_SUMMARY);
    expect(verdictFix(s.health!.verdict, 'gui')).toBe("press Stop in Host DNS below (it keeps your file's bytes, ends K2s DNS's companions and forgets the saved state)");
  });

  it('the printed stop finishes it: status stopped, exit 0, the original kept byte for byte', async () => {
    const h = await started();
    await k2sRestores(h.root, 0o600);
    await h.systemd.stop();
    expect(await stopDns(h.deps, {}, quiet)).toMatchObject({ ok: true, exitCode: 0 });
    const { s, exit } = await cliStatus(h);
    expect(s.state).toBe('stopped');
    expect(s.originalBack).toBeUndefined();
    expect(exit).toBe(0);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
  });
});

describe('not this case', () => {
  it('original back but the proxy still runs (the follower is to follow it): no originalBack', async () => {
    const h = await started();
    await k2sRestores(h.root);
    const s = await dnsStatus(h.deps);
    expect(s.originalBack).toBeUndefined();
  });

  it('original back and the proxy crashed (systemd restarts it): the restart is said, no originalBack', async () => {
    const h = await started();
    await k2sRestores(h.root);
    await h.services.stop();
    h.systemd.crashed = true;
    const s = await dnsStatus(h.deps);
    expect(s.originalBack).toBeUndefined();
    expect(s.messages.some((m) => m.startsWith('k2s-dnsproxy is restarting (attempt 1)'))).toBe(true);
  });

  it('other bytes than the saved original, proxy stopped: drift and the start note as before', async () => {
    const h = await started();
    await rename(join(h.root, 'etc/resolv.conf'), join(h.root, 'etc/k2s-file'));
    await writeFile(join(h.root, 'etc/resolv.conf'), 'nameserver 192.0.2.99\n', { mode: 0o644 });
    await h.systemd.stop();
    const { s, text } = await cliStatus(h);
    expect(s.originalBack).toBeUndefined();
    expect(s.resolverOwner).toBe('foreign');
    expect(text).toContain('resolver:   changed by someone else since start');
    expect(s.messages.some((m) => m.startsWith('k2s-dnsproxy is not running although K2s DNS was started'))).toBe(true);
  });

  it('a watchdog restarting the proxy (supervised host): its crash verdict, not original-back', () => {
    const input = { hops: [], state: 'degraded' as const, interrupted: false, originalBack: true };
    expect(healthVerdict(input).cause).toBe('original-back');
    expect(healthVerdict({ ...input, watchdogRestart: { restarts: 1, max: 5 } }).cause).toBe('proxy-down');
  });
});
