/**
 * The [Install] links K2s DNS makes and removes itself (electron/core/host/unit-links.ts) against
 * what systemctl 257 makes and removes, on a booted Debian 13 host an admin has touched: start
 * must leave the links `systemctl --root=/ reenable` of its units leaves, stop those `disable`
 * leaves, from the same host state; a path in the way fails start with its reason and a
 * rollback, not a crash; and a stopped K2s DNS stays stopped across a reboot.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { debianHostMissing, type DebianHost } from './bed/debian-host';
import { bootPlainHost, hostCli, hostResolver, hostStartArgs, isActive } from './bed/debian-host-cli';
import type { Testbed } from './bed/testbed';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
const why = inSandbox ? await debianHostMissing() : 'the Debian host boots only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)';
if (why) console.warn(`skipped: K2s DNS's unit links against systemctl's on a booted Debian 13 host (${why})`);

const SYS = '/etc/systemd/system';

/**
 * Host states an admin may leave, each a shell script that makes it and one that undoes it (run
 * from /etc/systemd/system). Every one was found to differ from systemctl (or to fail) before
 * unit-links.ts handled it, but `plain`.
 */
const STATES: { name: string; make: string; undo: string }[] = [
  { name: 'plain', make: 'true', undo: 'true' },
  {
    name: 'links of the admin in other link directories',
    make: 'mkdir -p graphical.target.wants multi-user.target.requires sysinit.target.upholds && for d in graphical.target.wants multi-user.target.requires sysinit.target.upholds; do ln -sfn /etc/systemd/system/k2s-dnsproxy.service $d/k2s-dnsproxy.service; done',
    undo: 'rm -f graphical.target.wants/k2s-dnsproxy.service multi-user.target.requires/k2s-dnsproxy.service sysinit.target.upholds/k2s-dnsproxy.service',
  },
  {
    name: 'an alias made by hand, enabled by its name',
    make: 'ln -sfn /etc/systemd/system/k2s-dnsproxy.service k2s-alias.service && ln -sfn /etc/systemd/system/k2s-alias.service multi-user.target.wants/k2s-alias.service',
    undo: 'rm -f k2s-alias.service multi-user.target.wants/k2s-alias.service',
  },
  {
    name: 'an [Install] drop-in (WantedBy=graphical.target, Alias=)',
    make: 'mkdir -p k2s-dnsproxy.service.d && printf "[Install]\\nWantedBy=graphical.target\\nAlias=k2s-dns-alias.service\\n" > k2s-dnsproxy.service.d/install.conf',
    undo: 'rm -rf k2s-dnsproxy.service.d graphical.target.wants/k2s-dnsproxy.service k2s-dns-alias.service',
  },
  {
    name: 'stray .wants links of another unit (looping, dangling)',
    make: 'ln -sfn loop.service.wants loop.service.wants && ln -sfn /nonexistent gone.target.wants',
    undo: 'rm -f loop.service.wants gone.target.wants',
  },
];

describe("K2s DNS's unit links against systemctl's (Debian 13 host)", () => {
  let tb: Testbed;
  let h: DebianHost;
  let original: string;
  /** The symlinks under /etc/systemd/system at boot (masks, the distribution's own links). */
  let baseline: Set<string>;
  /** K2s DNS's units with a file on the host (the capture's only where tcpdump is installed). */
  let units: string[];

  /** Every symlink under /etc/systemd/system not there at boot, as `path -> target`, sorted. */
  const links = async (): Promise<string[]> =>
    (await h.sh(`find ${SYS} -type l -printf '%p -> %l\\n' | sort`)).stdout.split('\n').filter((l) => l && !baseline.has(l));
  const enabled = async (): Promise<string> => (await h.run(['systemctl', 'is-enabled', ...units])).stdout.trim().replace(/\n/g, ' ');
  const inSys = async (script: string): Promise<void> => {
    const r = await h.sh(`cd ${SYS} && ${script}`);
    expect(r.code, `${script}: ${r.stderr}`).toBe(0);
  };

  beforeAll(async () => {
    if (why) return;
    ({ tb, h, original } = await bootPlainHost());
    baseline = new Set((await h.sh(`find ${SYS} -type l -printf '%p -> %l\\n'`)).stdout.split('\n').filter(Boolean));
    // A first run writes the unit files systemctl is then asked about.
    expect((await hostCli(h, hostStartArgs('dnsmasq'))).result).toMatchObject({ ok: true });
    expect((await hostCli(h, ['stop', '--json'])).result).toMatchObject({ ok: true });
    units = ['k2s-dnsproxy.service', 'k2s-dnsproxy-kubeswitch.service', 'k2s-dnsproxy-follow.service', 'k2s-dnsproxy-capture.service'];
    const present = await Promise.all(units.map(async (u) => (await h.run(['test', '-f', `${SYS}/${u}`])).code === 0));
    units = units.filter((_, i) => present[i]);
    expect(units.slice(0, 3)).toEqual(['k2s-dnsproxy.service', 'k2s-dnsproxy-kubeswitch.service', 'k2s-dnsproxy-follow.service']);
  }, 180_000);
  afterEach(async () => {
    // A failed case leaves nothing for the next one (or its retry): K2s DNS stopped, every
    // state undone, no K2s link left.
    if (why || h.pid1() === null) return;
    await h.sh(`umount ${SYS} 2>/dev/null; true`);
    if ((await h.run(['test', '-e', '/var/lib/k2s/dns-resolver-state.json'])).code === 0) await hostCli(h, ['stop', '--on-drift', 'restore', '--json']);
    await h.sh(`cd ${SYS} && { ${STATES.map((s) => s.undo).join('; ')}; rmdir multi-user.target.wants/k2s-dnsproxy.service; find ${SYS} -type l \\( -name '*k2s*' -o -lname '*k2s*' \\) -delete; } 2>/dev/null; true`);
  }, 120_000);
  afterAll(async () => {
    await h?.destroy();
    await tb?.stop();
  }, 120_000);

  for (const state of STATES) {
    it.skipIf(why !== null)(`${state.name}: start leaves the links systemctl --root=/ reenable makes, stop those disable leaves`, async () => {
      await inSys(state.make);
      const sc = await h.run(['systemctl', '--root=/', 'reenable', ...units]);
      expect(sc.code, sc.stderr).toBe(0);
      const reenabled = { links: await links(), enabled: await enabled() };
      expect((await h.run(['systemctl', '--root=/', 'disable', ...units])).code).toBe(0);
      const disabled = { links: await links(), enabled: await enabled() };
      await inSys(state.undo);
      await inSys(state.make);

      const start = await hostCli(h, hostStartArgs('dnsmasq'));
      expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
      expect({ links: await links(), enabled: await enabled() }).toEqual(reenabled);
      expect(reenabled.enabled.split(' ')[0]).toBe('enabled');
      const stop = await hostCli(h, ['stop', '--json']);
      expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true, exitCode: 0 });
      expect({ links: await links(), enabled: await enabled() }).toEqual(disabled);
      expect(await hostResolver(h)).toBe(original);
      await inSys(state.undo);
    }, 120_000);
  }

  it.skipIf(why !== null)('a directory where the link goes: start fails with a message that names it (not EISDIR on a temp file) and rolls back', async () => {
    await inSys('mkdir -p multi-user.target.wants/k2s-dnsproxy.service');
    try {
      const start = await hostCli(h, hostStartArgs('dnsmasq'));
      expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: false });
      expect(start.result!.message).toContain(`Cannot make the systemd link ${SYS}/multi-user.target.wants/k2s-dnsproxy.service (its unit's [Install] section asks for it): it is a directory, not a symlink.`);
      expect(start.result!.message).toContain('Every change was rolled back');
      expect(await hostResolver(h)).toBe(original);
      expect(await isActive(h)).not.toBe('active');
    } finally {
      await inSys('rmdir multi-user.target.wants/k2s-dnsproxy.service');
    }
    expect(await links()).toEqual([]);
  }, 120_000);

  it.skipIf(why !== null)('a read-only /etc/systemd/system: start fails with the link it could not write and rolls back (the CLI ended with a stack trace: the held capture\'s link rejected unhandled)', async () => {
    await inSys(`mount --bind ${SYS} ${SYS} && mount -o remount,bind,ro ${SYS}`);
    try {
      const start = await hostCli(h, hostStartArgs('dnsmasq'));
      expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: false });
      expect(start.stderr).not.toContain('Node.js v');
      expect(start.result!.message).toMatch(/Could not write the systemd link \/etc\/systemd\/system\/\S+ \(EROFS: read-only file system\)\..* Every change was rolled back/);
      expect(await hostResolver(h)).toBe(original);
      expect(await isActive(h)).not.toBe('active');
    } finally {
      await h.sh(`umount ${SYS}`);
    }
    expect(await links()).toEqual([]);
  }, 120_000);

  it.skipIf(why !== null)('after stop, a reboot leaves K2s DNS stopped — also with an alias of its unit an admin enabled (its links were left: boot started the proxy)', async () => {
    await inSys(STATES[2]!.make);
    try {
      expect((await hostCli(h, hostStartArgs('dnsmasq'))).result).toMatchObject({ ok: true, exitCode: 0 });
      await inSys(STATES[2]!.make); // the admin links it again while K2s DNS runs
      expect((await hostCli(h, ['stop', '--json'])).result).toMatchObject({ ok: true, exitCode: 0 });
      await h.reboot();
      for (const u of units) expect(`${u} ${await isActive(h, u)}`).toBe(`${u} inactive`);
      expect(await hostResolver(h)).toBe(original);
    } finally {
      await inSys(STATES[2]!.undo);
    }
  }, 180_000);
});
