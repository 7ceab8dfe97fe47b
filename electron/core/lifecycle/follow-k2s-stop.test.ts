/**
 * K2s's own `k2s stop` (and `k2s uninstall`) while K2s DNS runs: it puts the saved original back
 * from the state file's K2s members (host/k2s-cli-state.ts), then stops k2s-dnsproxy. The
 * follower must not follow that file (pointing the host at a stopped proxy, or starting it again):
 * found stopped, K2s DNS stops too; found running, the file is followed without an engine restart
 * and the follower watches the proxy for ORIGINAL_BACK_WAIT_MS (follow-watch.ts): a stop in that
 * time is K2s's. A network that writes the original's very bytes again is followed as before.
 * The booted-host version with a Go program doing what K2s's CLI does: e2e/debian-host-k2s-cli.e2e.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { lstat, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns } from './stop';
import { followNetwork, ORIGINAL_BACK_WAIT_MS } from './follow';
import { PROXY_POLL_MS, proxyEnds } from './proxy-watch';
import { runFollower } from './follow-main';
import { proxyStopWords, watchNetwork } from './follow-watch';
import { trackedHosts, TEST_START_OPTS, FakeServices } from '../../../e2e/support/test-deps';
import type { ServiceManager } from '../host/service-manager';

const host = trackedHosts();
const quiet = () => undefined;
const ORIGINAL = 'nameserver 192.0.2.53\nsearch corp.example\n';
const STATE = 'var/lib/k2s/dns-resolver-state.json';

/** The fake proxy as systemd runs it: `restart` set when it crashed (systemd restarts it), stop's options recorded. */
class SystemdFake implements ServiceManager {
  readonly kind = 'systemd' as const;
  stopOpts: Array<{ leaveFollower?: boolean } | undefined> = [];
  crashed = false;
  /** The job systemd holds for the proxy (`stop` while it still runs: waiting for a companion's drain; `restart`); how often it was asked. */
  job: string | null = null;
  jobAsked = 0;
  async pendingJob() {
    this.jobAsked++;
    return this.job;
  }
  constructor(private readonly inner: FakeServices) {}
  start(spec: Parameters<FakeServices['start']>[0]) {
    return this.inner.start(spec);
  }
  async stop(opts?: { leaveFollower?: boolean }) {
    this.stopOpts.push(opts);
    await this.inner.stop();
  }
  async status() {
    const s = await this.inner.status();
    return this.crashed && !s.running ? { ...s, restart: { attempt: 1, lastExit: 'killed by signal KILL', reason: null, gaveUp: false } } : s;
  }
}

/** K2s DNS started on a temp root; then the proxy as systemd runs it, and a virtual clock the follower's waits advance. */
async function started() {
  const h = await host(ORIGINAL);
  expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
  const systemd = new SystemdFake(h.services);
  let clock = 1_000_000;
  const sleeps: number[] = [];
  h.deps.services = systemd;
  h.deps.now = () => clock;
  h.deps.sleep = async (ms) => {
    sleeps.push(ms);
    clock += ms;
  };
  return { ...h, systemd, sleeps };
}

/** What K2s's restoreResolverState does for a saved regular file: remove, then write its bytes (mode as its umask leaves it). */
async function k2sRestores(root: string, mode = 0o644) {
  const state = JSON.parse(await readFile(join(root, STATE), 'utf8'));
  await rm(join(root, 'etc/resolv.conf'));
  await writeFile(join(root, 'etc/resolv.conf'), Buffer.from(state.content, 'base64'), { mode });
}

describe("K2s's own `k2s stop` while K2s DNS runs (systemd host)", () => {
  it('original back and the proxy stopped: no follow; stop by the follower keeps the bytes, leaves its own unit out of the stop job, forgets the state', async () => {
    const h = await started();
    await k2sRestores(h.root);
    await h.systemd.stop(); // K2s's `systemctl stop k2s-dnsproxy`
    const r = await followNetwork(h.deps);
    expect(r.kind).toBe('stopped-outside');
    expect((r as { state: { resolvConf: unknown } }).state.resolvConf).toMatchObject({ kind: 'file', contentBase64: Buffer.from(ORIGINAL).toString('base64') });
    expect((r as { why: string }).why).toMatch(/^the original saved at \S+ is back at \/etc\/resolv\.conf \(\/etc\/resolv\.conf replaced by a new file\) and k2s-dnsproxy was stopped, both by another program \(K2s's own `k2s stop` and `k2s uninstall` do both\)$/);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    expect(h.sleeps).toEqual([]);

    const stop = await stopDns(h.deps, { byFollower: true }, quiet);
    expect(stop).toMatchObject({ ok: true, exitCode: 0 });
    expect(h.systemd.stopOpts.at(-1)).toEqual({ leaveFollower: true, captureAfter: true });
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    expect((await lstat(join(h.root, 'etc/resolv.conf'))).mode & 0o7777).toBe(0o644);
    expect(await lstat(join(h.root, STATE)).catch(() => null)).toBeNull();
  });

  it("a follower restarted after its kill, K2s's stop done meanwhile: its first look stops K2s DNS, says it found that at its start, and ends without the \"watches\" line", async () => {
    const h = await started();
    await k2sRestores(h.root);
    await h.systemd.stop();
    const out: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (out.push(String(chunk)), true));
    let code: number;
    try {
      code = await runFollower(h.deps);
    } finally {
      write.mockRestore();
    }
    expect(code).toBe(0);
    // Each line after its ISO time: the look's finding, the stop's step lines, its result last.
    const lines = out.join('').trimEnd().split('\n').map((l) => l.replace(/^\S+ /, ''));
    expect(lines[0]).toMatch(/ both by another program \(K2s's own `k2s stop` and `k2s uninstall` do both\): K2s DNS stops too \(\d+ ms, found at the follower's start\)\.$/);
    expect(lines.at(-1)).toMatch(/^OK: K2s DNS is stopped/);
    expect(lines.filter((l) => l.includes('watches the network'))).toEqual([]);
    expect(await lstat(join(h.root, STATE)).catch(() => null)).toBeNull();
  });

  it("K2s's restore seen before its systemctl stop: followed at once without an engine restart (that would start the proxy K2s stops), marked originalBack", async () => {
    const h = await started();
    const starts = h.services.started.length;
    await k2sRestores(h.root);
    const r = await followNetwork(h.deps);
    expect(r).toMatchObject({ kind: 'followed', originalBack: { resolvConf: { kind: 'file', contentBase64: Buffer.from(ORIGINAL).toString('base64') } }, change: { from: ['192.0.2.53'], to: ['192.0.2.53'] } });
    expect(h.services.started.length).toBe(starts);
    expect(h.sleeps).toEqual([]);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toMatch(/^# Managed by K2s native Linux installation; restored by k2s stop or uninstall\n[^\n]*\nnameserver 127\.0\.0\.1\n/);
    // Then K2s stops the proxy: the follower's watch after the follow sees it (follow-watch.ts), and the stop it runs restores the original.
    await h.systemd.stop();
    expect(await proxyEnds(h.deps, () => h.deps.now() + ORIGINAL_BACK_WAIT_MS, new AbortController().signal)).toBe('stopped');
    expect(await stopDns(h.deps, { byFollower: true }, quiet)).toMatchObject({ ok: true, exitCode: 0 });
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    expect(await lstat(join(h.root, STATE)).catch(() => null)).toBeNull();
  });

  it("`k2s uninstall`: the state file removed after K2s's restore was followed: the follower's stop puts back the original it held, exit 0", async () => {
    const h = await started();
    await k2sRestores(h.root);
    const r = await followNetwork(h.deps);
    expect(r.kind).toBe('followed');
    await h.systemd.stop();
    await rm(join(h.root, STATE));
    const held = (r as { originalBack?: import('../../../shared/state-file').ResolverStateFile }).originalBack!;
    expect(held.resolvConf).toMatchObject({ kind: 'file', contentBase64: Buffer.from(ORIGINAL).toString('base64'), mode: 0o644 });
    const stop = await stopDns(h.deps, { byFollower: true, heldState: held }, quiet);
    expect(stop).toMatchObject({ ok: true, exitCode: 0 });
    expect(stop.message).toContain(`The saved state was removed by another program (K2s's own \`k2s uninstall\` does this); the network follower held it (saved at ${held.savedAt}) and this stop used it.`);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    // Without it (a user's stop): refused as before, nothing invented.
    await writeFile(join(h.root, 'etc/resolv.conf'), '# Managed by K2s native Linux installation; restored by k2s stop or uninstall\nnameserver 127.0.0.1\n');
    expect(await stopDns(h.deps, {}, quiet)).toMatchObject({ ok: false, code: 'NO_SAVED_ORIGINAL' });
  });

  /** The host started, the proxy's PID watched through a fake /proc that says it runs while the fake service does. */
  async function watched() {
    const h = await started();
    let pid = 4242;
    h.deps.processRunning = async (p) => h.services.running && p === pid;
    h.systemd.status = async () => ({ running: h.services.running, pid: h.services.running ? pid : null, ...(h.systemd.crashed && !h.services.running ? { restart: { attempt: 1, lastExit: 'killed by signal KILL', reason: null, gaveUp: false } } : {}) });
    return { ...h, setPid: (p: number) => void (pid = p) };
  }
  /** Runs `at(ms since the call)` after each of the watch's sleeps. */
  const after = (h: Awaited<ReturnType<typeof watched>>, at: (elapsed: number) => Promise<void> | void) => {
    const sleep = h.deps.sleep;
    const t0 = h.deps.now();
    h.deps.sleep = async (ms) => {
      await sleep(ms);
      await at(h.deps.now() - t0);
    };
  };
  const never = () => 0;
  const live = () => new AbortController().signal;

  it("proxyEnds: a stop by someone is `stopped`, whenever it comes (45 s here: a stalled K2s), the PID read once a second, no job asked without a fast watch", async () => {
    const h = await watched();
    after(h, async (t) => {
      if (t >= 45_000 && h.services.running) await h.systemd.stop();
    });
    expect(await proxyEnds(h.deps, never, live())).toBe('stopped');
    expect(h.sleeps.every((ms) => ms === PROXY_POLL_MS)).toBe(true);
    expect(h.sleeps.length).toBe(45);
    expect(h.systemd.jobAsked).toBe(1); // once the process was gone: no start or restart job
  });

  it("proxyEnds: after an original-back follow it looks every 50 ms for the fast watch, then asks once for a stop job: one queued (a stop waiting for a companion's drain) is `stopping`, the proxy still running", async () => {
    const h = await watched();
    h.systemd.job = 'stop';
    const until = h.deps.now() + ORIGINAL_BACK_WAIT_MS;
    expect(await proxyEnds(h.deps, () => until, live())).toBe('stopping');
    expect(h.systemd.jobAsked).toBe(1);
    expect(h.sleeps.filter((ms) => ms === 50).length).toBe(ORIGINAL_BACK_WAIT_MS / 50);
    expect(h.services.running).toBe(true);
  });

  it('proxyEnds: a restart (a follow\'s, a user\'s `systemctl restart`: a restart job while its process is down, or another PID) is `replaced`; a crash systemd restarts is `crashed`; the follower stopped is `aborted`', async () => {
    const h = await watched();
    // Its process gone, the unit down with a restart job: a restart, not a stop.
    after(h, async (t) => {
      if (t >= 3000 && h.services.running) {
        await h.services.stop();
        h.systemd.job = 'restart';
      }
    });
    expect(await proxyEnds(h.deps, never, live())).toBe('replaced');
    // The unit runs another process.
    await h.services.start(h.services.started[0]!);
    h.systemd.job = null;
    after(h, (t) => {
      if (t >= 2000) h.setPid(4343);
    });
    expect(await proxyEnds(h.deps, never, live())).toBe('replaced');
    // A crash: systemd restarts it.
    await h.services.stop();
    h.systemd.crashed = true;
    expect(await proxyEnds(h.deps, never, live())).toBe('crashed');
    h.systemd.crashed = false;
    // The follower being stopped: at once.
    await h.services.start(h.services.started[0]!);
    const ac = new AbortController();
    after(h, () => ac.abort());
    expect(await proxyEnds(h.deps, never, ac.signal)).toBe('aborted');
  });

  it('proxyStopWords: the stop said as K2s\'s restore\'s only within the fast watch after the original-back follow, or as a stop job queued at its end; else the plain wording', () => {
    const back = { savedAt: '2026-12-07T06:00:00.000Z', how: '/etc/resolv.conf replaced by a new file', at: 1_000_000 };
    const fastUntil = back.at + ORIGINAL_BACK_WAIT_MS;
    const k2s = "the original saved at 2026-12-07T06:00:00.000Z is back at /etc/resolv.conf (/etc/resolv.conf replaced by a new file) and k2s-dnsproxy was stopped, both by another program (K2s's own `k2s stop` and `k2s uninstall` do both)";
    const plain = 'k2s-dnsproxy was stopped by another program (a `systemctl stop k2s-dnsproxy`) while this host pointed at it, which leaves no name resolving';
    expect(proxyStopWords('stopped', back, fastUntil, back.at + 180)).toEqual({ why: k2s, line: `${k2s}: K2s DNS stops too (180 ms after the follow).` });
    expect(proxyStopWords('stopping', back, fastUntil, fastUntil + 40)).toEqual({ why: k2s, line: `${k2s}: K2s DNS stops too (${ORIGINAL_BACK_WAIT_MS + 40} ms after the follow).` });
    for (const seenAt of [fastUntil, fastUntil + 3_600_000]) expect(proxyStopWords('stopped', back, fastUntil, seenAt)).toEqual({ why: plain, line: `${plain}: K2s DNS stops too, and the original resolver goes back.` });
    expect(proxyStopWords('stopped', null, 0, back.at)).toEqual({ why: plain, line: `${plain}: K2s DNS stops too, and the original resolver goes back.` });
  });

  it("watchNetwork: the proxy stopped 10 s after an original-back follow is said as K2s's restore's; stopped 45 s after it (a user's `systemctl stop k2s-dnsproxy`), in the plain wording; both stop K2s DNS from the state the follow saved", async () => {
    for (const [stopAt, said] of [
      [10_000, /^the original saved at \S+ is back at \/etc\/resolv\.conf \(\/etc\/resolv\.conf replaced by a new file\) and k2s-dnsproxy was stopped, both by another program \(K2s's own `k2s stop` and `k2s uninstall` do both\): K2s DNS stops too \(\d+ ms after the follow\)\.$/],
      [45_000, /^k2s-dnsproxy was stopped by another program \(a `systemctl stop k2s-dnsproxy`\) while this host pointed at it, which leaves no name resolving: K2s DNS stops too, and the original resolver goes back\.$/],
    ] as const) {
      const h = await watched();
      // The network (or K2s's restore) writes the original's bytes; the first look follows them with the proxy running.
      await k2sRestores(h.root);
      // Each of the watch's sleeps lets the event loop run (its virtual seconds pass without a busy loop).
      const sleep = h.deps.sleep;
      h.deps.sleep = async (ms, signal) => {
        await sleep(ms, signal);
        await new Promise((r) => setImmediate(r));
      };
      after(h, async (t) => {
        if (t >= stopAt && h.services.running) await h.systemd.stop();
      });
      const lines: string[] = [];
      const stops: Array<{ why: string; resolvConf: unknown }> = [];
      const ac = new AbortController();
      const looks: string[] = [];
      await watchNetwork(h.deps, {
        signal: ac.signal,
        log: (l) => lines.push(l),
        onLook: (r) => looks.push(r.kind),
        onStoppedOutside: async (why, state) => {
          stops.push({ why, resolvConf: state.resolvConf });
          ac.abort();
        },
      });
      expect(looks[0]).toBe('followed');
      expect(lines.at(-1), String(stopAt)).toMatch(said);
      expect(stops).toEqual([{ why: lines.at(-1)!.replace(/: K2s DNS stops too.*$/, ''), resolvConf: expect.objectContaining({ kind: 'file', contentBase64: Buffer.from(ORIGINAL).toString('base64') }) }]);
    }
  });

  it('proxyEnds: the follower stopped during a poll ends that poll at once (its sleep is given the watch\'s signal), not a second later', async () => {
    const h = await watched();
    const ac = new AbortController();
    const ended: string[] = [];
    // A sleep as the follower's (abortable-sleep.ts): over at the signal's abort, else after 2 s of real time.
    h.deps.sleep = (_ms, signal) =>
      new Promise<void>((resolve) => {
        const t = setTimeout(() => (ended.push('timer'), resolve()), 2000);
        signal?.addEventListener('abort', () => (clearTimeout(t), ended.push('abort'), resolve()), { once: true });
        // Asked to stop while the watch sleeps.
        queueMicrotask(() => ac.abort());
      });
    expect(await proxyEnds(h.deps, never, ac.signal)).toBe('aborted');
    expect(ended).toEqual(['abort']);
  });

  it("the original's bytes written again while the proxy keeps running (a Wi-Fi reconnect): followed at once, host pointed at the proxy, which keeps running", async () => {
    const h = await started();
    await k2sRestores(h.root);
    const r = await followNetwork(h.deps);
    expect(r).toMatchObject({ kind: 'followed', change: { from: ['192.0.2.53'], to: ['192.0.2.53'] } });
    expect(h.sleeps).toEqual([]);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toMatch(/^# Managed by K2s native Linux installation; restored by k2s stop or uninstall\n[^\n]*\nnameserver 127\.0\.0\.1\n/);
    expect(h.services.running).toBe(true);
  });

  it('a proxy that crashed (systemd restarts it) is no stop: the file is followed, the proxy started again', async () => {
    const h = await started();
    await k2sRestores(h.root);
    await h.services.stop();
    h.systemd.crashed = true;
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'followed' });
    expect(h.sleeps).toEqual([]);
  });

  it("stop over an original K2s put back with its umask's mode: the saved mode goes back on, said as such, exit 0", async () => {
    const h = await started();
    await k2sRestores(h.root, 0o600);
    await h.systemd.stop();
    const stop = await stopDns(h.deps, {}, quiet);
    expect(stop).toMatchObject({ ok: true, exitCode: 0 });
    expect(stop.message).toMatch(/The original saved at \S+ was back at \/etc\/resolv\.conf already, put there by another program \(K2s's own `k2s stop` and `k2s uninstall` do this\), with mode 0644 → 0600; set as saved\./);
    expect((await lstat(join(h.root, 'etc/resolv.conf'))).mode & 0o7777).toBe(0o644);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
  });
});

describe('hosts without systemd (K2s does not run there)', () => {
  it('the original back is followed at once: no wait', async () => {
    const h = await host(ORIGINAL);
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    const sleeps: number[] = [];
    h.deps.sleep = async (ms) => void sleeps.push(ms);
    await k2sRestores(h.root);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'followed' });
    expect(sleeps).toEqual([]);
  });
});
