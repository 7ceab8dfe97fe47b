/**
 * The manager's reload after a command (electron/core/host/systemd-reload.ts settle) on a booted
 * Debian 13 host, where it used to be lost: start and stop run as a service of their own
 * (`systemd-run --wait`, as a unit of the admin's would run them), whose cgroup systemd kills as
 * the command exits (KillMode=control-group, systemd.kill(5)); and `k2s-dns recover --force`,
 * whose teardown unlinks the units too. Either way the manager must end up with the links of the
 * disk: else `systemctl isolate multi-user.target` stops a running K2s DNS, or starts a stopped
 * one again after its resolver was put back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debianHostMissing, HOST_CLI, type DebianHost } from './bed/debian-host';
import { bootPlainHost, hostCli, hostResolver, hostStartArgs, isActive, parseEvents } from './bed/debian-host-cli';
import type { Testbed } from './bed/testbed';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
const why = inSandbox ? await debianHostMissing() : 'the Debian host boots only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)';
if (why) console.warn(`skipped: the reload after a command on a booted Debian 13 host (${why})`);

/** Waits (bounded) until `check` is true; `what` names it in the failure. Polls every 100 ms. */
async function until(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A `systemctl` first on the units' PATH (/usr/local/sbin) that lets a `daemon-reload` launched
 * as a command's detached child (stdout /dev/null, parent not PID 1) reach PID 1 only once that
 * command has exited — what a loaded host does to the race between the command's exit and its
 * child's request, made certain. Every other call goes straight to /usr/bin/systemctl.
 */
const SLOW_LAUNCHED_RELOAD = `#!/bin/sh
if [ "$1" = daemon-reload ] && [ "$PPID" != 1 ] && [ "$(readlink /proc/$$/fd/1)" = /dev/null ]; then
  while [ -d /proc/$PPID ]; do sleep 0.05; done
fi
exec /usr/bin/systemctl "$@"
`;
const WRAPPER = '/usr/local/sbin/systemctl';
/** Where RUN_WRAPPER notes each reload asked of PID 1 as a unit (systemd-reload.ts RELOAD_UNIT, the one `systemd-run --no-block`). */
const RELOAD_UNITS_NOTED = '/var/tmp/reload-units';
/** A `systemd-run` first on PATH that notes a RELOAD_UNIT request, then runs the real one. */
const RUN_WRAPPER = `#!/bin/sh
case " $* " in *" --no-block "*) echo "$*" >> ${RELOAD_UNITS_NOTED};; esac
exec /usr/bin/systemd-run "$@"
`;
const RUN_WRAPPER_PATH = '/usr/local/sbin/systemd-run';
const K2S_UNITS = ['k2s-dnsproxy.service', 'k2s-dnsproxy-follow.service', 'k2s-dnsproxy-capture.service', 'k2s-dnsproxy-kubeswitch.service'];

describe('the reload after a command reaches the manager (Debian 13 host)', () => {
  let tb: Testbed;
  let h: DebianHost;
  let original: string;

  beforeAll(async () => {
    if (why) return;
    ({ tb, h, original } = await bootPlainHost());
  }, 180_000);
  afterAll(async () => {
    await h?.destroy();
    await tb?.stop();
  }, 120_000);

  /** The K2s units multi-user.target wants in the manager's copy of the links (not the disk's). */
  const bootWants = async (): Promise<string[]> =>
    (await h.run(['/usr/bin/systemctl', 'list-dependencies', '--plain', '--no-pager', 'multi-user.target'])).stdout
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('k2s-'))
      .sort();
  const active = async (): Promise<string[]> => Promise.all(K2S_UNITS.map((u) => isActive(h, u)));
  /** Stopped, and the manager holding the links of the disk (a retry after a failed attempt starts from here). */
  const stopped = async (): Promise<void> => {
    await hostCli(h, ['stop', '--json']);
    expect((await h.run(['/usr/bin/systemctl', 'daemon-reload'])).code).toBe(0);
    expect(await bootWants()).toEqual([]);
  };

  /** Both wrappers in place, no reload request noted yet. */
  const wrap = async (): Promise<void> => {
    await h.sh(`cat > ${WRAPPER} <<'EOF'\n${SLOW_LAUNCHED_RELOAD}EOF\nchmod 755 ${WRAPPER}; cat > ${RUN_WRAPPER_PATH} <<'EOF'\n${RUN_WRAPPER}EOF\nchmod 755 ${RUN_WRAPPER_PATH}; rm -f ${RELOAD_UNITS_NOTED}`);
  };
  /** The reload units asked for since wrap(), one line each. */
  const reloadUnits = async (): Promise<string[]> => (await h.run(['sh', '-c', `cat ${RELOAD_UNITS_NOTED} 2>/dev/null || true`])).stdout.split('\n').filter((l) => l !== '');

  it.skipIf(why !== null)('start and stop run as a service: the manager reads their links though their cgroup is killed as they exit', async () => {
    await stopped();
    await wrap();
    try {
      expect((await h.runUnit(['sh', '-c', 'command -v systemctl'])).stdout.trim()).toBe(WRAPPER);
      const start = parseEvents((await h.runUnit([...HOST_CLI, ...hostStartArgs('dnsmasq')], 90_000)).stdout);
      expect(start.result).toMatchObject({ ok: true, exitCode: 0 });
      await until('the manager wants the proxy and the follower at boot', 20_000, async () => (await bootWants()).length === 2);
      expect(await bootWants()).toEqual(['k2s-dnsproxy-follow.service', 'k2s-dnsproxy.service']);
      // What that copy is for: an isolate keeps K2s DNS running.
      expect((await h.run(['/usr/bin/systemctl', 'isolate', 'multi-user.target'])).code).toBe(0);
      expect(await isActive(h)).toBe('active');

      await h.run(['rm', '-f', RELOAD_UNITS_NOTED]);
      const stop = parseEvents((await h.runUnit([...HOST_CLI, 'stop', '--json'], 90_000)).stdout);
      expect(stop.result).toMatchObject({ ok: true, exitCode: 0 });
      await until('the manager wants no K2s unit at boot', 20_000, async () => (await bootWants()).length === 0);
      // …and does not start a stopped one again.
      expect((await h.run(['/usr/bin/systemctl', 'isolate', 'multi-user.target'])).code).toBe(0);
      expect(await active()).toEqual(['inactive', 'inactive', 'inactive', 'inactive']);
      expect(await hostResolver(h)).toBe(original);
      // In a service the stop asked PID 1 for the reload as a unit of its own (a child dies with the cgroup).
      expect((await reloadUnits()).length).toBeGreaterThanOrEqual(1);
    } finally {
      await h.run(['rm', '-f', WRAPPER, RUN_WRAPPER_PATH]);
    }
  }, 240_000);

  it.skipIf(why !== null)('start and stop outside a service (a root shell): the reload is their detached child, no unit asked for and waited for, and it reaches the manager after they exited', async () => {
    await stopped();
    await wrap();
    try {
      const start = await hostCli(h, hostStartArgs('dnsmasq'));
      expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
      await until('the manager wants the proxy and the follower at boot', 20_000, async () => (await bootWants()).length === 2);
      expect(await bootWants()).toEqual(['k2s-dnsproxy-follow.service', 'k2s-dnsproxy.service']);
      const stop = await hostCli(h, ['stop', '--json']);
      expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true, exitCode: 0 });
      // The wrapper held each launched reload until its command had exited: it still reached PID 1.
      await until('the manager wants no K2s unit at boot', 20_000, async () => (await bootWants()).length === 0);
      expect((await h.run(['/usr/bin/systemctl', 'isolate', 'multi-user.target'])).code).toBe(0);
      expect(await active()).toEqual(['inactive', 'inactive', 'inactive', 'inactive']);
      expect(await hostResolver(h)).toBe(original);
      expect(await reloadUnits()).toEqual([]);
    } finally {
      await h.run(['rm', '-f', WRAPPER, RUN_WRAPPER_PATH]);
    }
  }, 240_000);

  it.skipIf(why !== null)('recover --force: the manager reads the links its teardown removed', async () => {
    await stopped();
    const start = await hostCli(h, hostStartArgs('dnsmasq'));
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
    await until('the manager wants the proxy and the follower at boot', 20_000, async () => (await bootWants()).length === 2);
    const recover = await hostCli(h, ['recover', '--force', '--json']);
    expect(recover.code, recover.stdout + recover.stderr).toBe(0);
    expect(await hostResolver(h)).toBe(original);
    await until('the manager wants no K2s unit at boot', 20_000, async () => (await bootWants()).length === 0);
    expect((await h.run(['/usr/bin/systemctl', 'isolate', 'multi-user.target'])).code).toBe(0);
    expect(await active()).toEqual(['inactive', 'inactive', 'inactive', 'inactive']);
  }, 180_000);
});
