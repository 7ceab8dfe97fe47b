/**
 * unit-links.ts on hosts an admin has touched, under a temp root: each case is a state found on
 * the booted Debian 13 host (e2e/debian-host-unit-links.e2e.test.ts compares the same states with
 * what systemctl 257 itself does).
 */
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHostFs } from './host-fs-node';
import { hasInstallSection } from './install-dropins';
import { relinkUnits, unlinkUnits } from './unit-links';

let root: string;
const r = (p: string) => path.join(root, p);
const exists = (p: string) => lstatSync(r(p), { throwIfNoEntry: false }) !== undefined;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'k2s-links-faults-'));
  mkdirSync(r('etc/systemd/system'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const SYS = '/etc/systemd/system';
const PROXY = { name: 'k2s-dnsproxy.service', file: `${SYS}/k2s-dnsproxy.service`, text: '[Unit]\nDescription=x\n\n[Service]\nExecStart=/bin/true\n\n[Install]\nWantedBy=multi-user.target\n' };
const LATE = { name: 'k2s-dnsproxy-kubeswitch.service', file: `${SYS}/k2s-dnsproxy-kubeswitch.service`, text: '[Unit]\nPartOf=k2s-dnsproxy.service\n[Install]\nWantedBy=k2s-dnsproxy.service\n' };
const WANTS = `${SYS}/multi-user.target.wants/k2s-dnsproxy.service`;

/** A fake systemctl that records its arguments (it changes nothing). */
function recorder(): { calls: string[][]; run: (args: string[]) => Promise<void> } {
  const calls: string[][] = [];
  return { calls, run: async (args) => void calls.push(args) };
}
const noSystemctl = async (args: string[]): Promise<never> => {
  throw new Error(`systemctl ${args.join(' ')} was run`);
};

describe('unit links on a host an admin has touched', () => {
  it("a looping, dangling or file `.wants` of another unit: start links and stop unlinks as before (systemctl disable skips them; they threw ELOOP: stop could not finish)", async () => {
    symlinkSync('loop.service.wants', r(`${SYS}/loop.service.wants`));
    symlinkSync('nowhere.target.wants', r(`${SYS}/gone.target.wants`));
    writeFileSync(r(`${SYS}/file.target.wants`), 'x');
    const fs = createHostFs(root);
    expect(await relinkUnits(fs, [PROXY], noSystemctl)).toBe(true);
    expect(readlinkSync(r(WANTS))).toBe(PROXY.file);
    expect(await unlinkUnits(fs, [PROXY.name], noSystemctl)).toBe(true);
    expect(exists(WANTS)).toBe(false);
    expect(readlinkSync(r(`${SYS}/loop.service.wants`))).toBe('loop.service.wants');
  });

  it("an alias of the unit (by hand or an Alias=), an alias of that alias, and links by their names in .wants/.requires/.upholds: unlink removes them all, as disable does (left, boot still started the proxy after stop); other units' links, masks, non-links and temp links stay", async () => {
    const fs = createHostFs(root);
    writeFileSync(r(PROXY.file), PROXY.text);
    const admin = () => {
      mkdirSync(r(`${SYS}/multi-user.target.wants`), { recursive: true });
      mkdirSync(r(`${SYS}/graphical.target.wants`), { recursive: true });
      mkdirSync(r(`${SYS}/sysinit.target.upholds`), { recursive: true });
      mkdirSync(r(`${SYS}/multi-user.target.requires`), { recursive: true });
      symlinkSync(PROXY.file, r(`${SYS}/k2s-alias.service`));
      symlinkSync(`${SYS}/k2s-alias.service`, r(`${SYS}/multi-user.target.wants/k2s-alias.service`));
      symlinkSync('k2s-alias.service', r(`${SYS}/k2s-alias2.service`));
      symlinkSync(`${SYS}/k2s-alias2.service`, r(`${SYS}/graphical.target.wants/k2s-alias2.service`));
      symlinkSync('../k2s-dnsproxy.service', r(`${SYS}/sysinit.target.upholds/k2s-dnsproxy.service`));
    };
    admin();
    symlinkSync('/dev/null', r(`${SYS}/cron.service`));
    // Another name for the unit's file in a link directory: boot wants the unit of that name
    // (systemd adds the dependency by the link's name), not this one; left (disable removes it).
    mkdirSync(r(`${SYS}/graphical.target.wants`), { recursive: true });
    symlinkSync(PROXY.file, r(`${SYS}/graphical.target.wants/dns-proxy.service`));
    symlinkSync('/usr/lib/systemd/system/ssh.service', r(`${SYS}/multi-user.target.wants/ssh.service`));
    writeFileSync(r(`${SYS}/multi-user.target.requires/k2s-dnsproxy.service`), 'not a link');
    // Another write's temp link (HostFs.symlinkAtomic), not a unit name: disable does not look at it either.
    symlinkSync(PROXY.file, r(`${SYS}/multi-user.target.wants/.k2s-dnsproxy.service.k2s-tmp-0123`));
    const gone = [`${SYS}/k2s-alias.service`, `${SYS}/multi-user.target.wants/k2s-alias.service`, `${SYS}/k2s-alias2.service`, `${SYS}/graphical.target.wants/k2s-alias2.service`, `${SYS}/sysinit.target.upholds/k2s-dnsproxy.service`];
    expect(await unlinkUnits(fs, [PROXY.name], noSystemctl)).toBe(true);
    expect(gone.filter(exists)).toEqual([]);
    const stay = () => {
      expect(readlinkSync(r(`${SYS}/cron.service`))).toBe('/dev/null');
      expect(readlinkSync(r(`${SYS}/multi-user.target.wants/ssh.service`))).toBe('/usr/lib/systemd/system/ssh.service');
      expect(readFileSync(r(`${SYS}/multi-user.target.requires/k2s-dnsproxy.service`), 'utf8')).toBe('not a link');
      expect(readFileSync(r(PROXY.file), 'utf8')).toBe(PROXY.text);
      expect(readlinkSync(r(`${SYS}/multi-user.target.wants/.k2s-dnsproxy.service.k2s-tmp-0123`))).toBe(PROXY.file);
      expect(readlinkSync(r(`${SYS}/graphical.target.wants/dns-proxy.service`))).toBe(PROXY.file);
    };
    stay();
    // reenable is disable, then enable: the same links go, the unit's own is made.
    admin();
    expect(await relinkUnits(fs, [PROXY], noSystemctl)).toBe(true);
    expect(gone.filter(exists)).toEqual([]);
    expect(readlinkSync(r(WANTS))).toBe(PROXY.file);
    stay();
  });

  it('a path in the way: a directory or file at the link, a file or broken link as its directory — refused with a message naming it, left as it was (the file was silently replaced, the others failed with a temp file\'s name); a directory linked elsewhere is linked into, as systemctl does', async () => {
    const fs = createHostFs(root);
    const way = (what: string) => `Cannot make the systemd link ${WANTS} (its unit's [Install] section asks for it): ${what}. K2s DNS leaves what it did not make alone; move it away, then start again.`;
    mkdirSync(r(WANTS), { recursive: true });
    await expect(relinkUnits(fs, [PROXY], noSystemctl)).rejects.toThrow(way('it is a directory, not a symlink'));
    expect(lstatSync(r(WANTS)).isDirectory()).toBe(true);
    rmSync(r(WANTS), { recursive: true });
    writeFileSync(r(WANTS), 'admin');
    await expect(relinkUnits(fs, [PROXY], noSystemctl)).rejects.toThrow(way('it is a file, not a symlink'));
    expect(readFileSync(r(WANTS), 'utf8')).toBe('admin');
    rmSync(r(`${SYS}/multi-user.target.wants`), { recursive: true });
    writeFileSync(r(`${SYS}/multi-user.target.wants`), 'x');
    await expect(relinkUnits(fs, [PROXY], noSystemctl)).rejects.toThrow(way(`${SYS}/multi-user.target.wants is not a directory`));
    rmSync(r(`${SYS}/multi-user.target.wants`));
    symlinkSync('../../../srv/gone', r(`${SYS}/multi-user.target.wants`));
    await expect(relinkUnits(fs, [PROXY], noSystemctl)).rejects.toThrow(way(`${SYS}/multi-user.target.wants is a symlink that leads to no directory`));
    mkdirSync(r('srv/gone'), { recursive: true });
    expect(await relinkUnits(fs, [PROXY], noSystemctl)).toBe(true);
    expect(readlinkSync(r('srv/gone/k2s-dnsproxy.service'))).toBe(PROXY.file);
    expect(await unlinkUnits(fs, [PROXY.name], noSystemctl)).toBe(true);
    expect(exists('srv/gone/k2s-dnsproxy.service')).toBe(false);
  });

  it("an [Install] drop-in of the admin's (WantedBy=graphical.target; systemctl reads drop-ins): that unit's links are systemctl's to make and remove, the others in-process; drop-ins without [Install], not *.conf or type-wide are not", async () => {
    const fs = createHostFs(root);
    writeFileSync(r(PROXY.file), PROXY.text);
    writeFileSync(r(LATE.file), LATE.text);
    mkdirSync(r(`${SYS}/k2s-dnsproxy.service.d`));
    writeFileSync(r(`${SYS}/k2s-dnsproxy.service.d/wanted.conf`), '[Install]\nWantedBy=graphical.target\n');
    // What `systemctl enable` made from it before.
    mkdirSync(r(`${SYS}/graphical.target.wants`));
    symlinkSync(PROXY.file, r(`${SYS}/graphical.target.wants/k2s-dnsproxy.service`));
    const sc = recorder();
    expect(await relinkUnits(fs, [PROXY, LATE], sc.run)).toBe(true);
    expect(sc.calls).toEqual([['--root=/', 'reenable', 'k2s-dnsproxy.service']]);
    expect(readlinkSync(r(`${SYS}/graphical.target.wants/k2s-dnsproxy.service`))).toBe(PROXY.file);
    expect(exists(WANTS)).toBe(false); // systemctl's to make (the recorder makes nothing)
    expect(readlinkSync(r(`${SYS}/k2s-dnsproxy.service.wants/${LATE.name}`))).toBe(LATE.file);
    sc.calls.length = 0;
    expect(await unlinkUnits(fs, [PROXY.name, LATE.name, 'k2s-dnsproxy-follow.service'], sc.run)).toBe(true);
    expect(sc.calls).toEqual([['--root=/', 'disable', 'k2s-dnsproxy.service']]);
    expect(exists(`${SYS}/k2s-dnsproxy.service.wants/${LATE.name}`)).toBe(false);
    // In other directories of the unit search path too.
    rmSync(r(`${SYS}/k2s-dnsproxy.service.d`), { recursive: true });
    mkdirSync(r('usr/lib/systemd/system/k2s-dnsproxy-kubeswitch.service.d'), { recursive: true });
    writeFileSync(r('usr/lib/systemd/system/k2s-dnsproxy-kubeswitch.service.d/alias.conf'), '# vendor\n  [Install]  \nAlias=k2s-late.service\n');
    sc.calls.length = 0;
    await relinkUnits(fs, [PROXY, LATE], sc.run);
    expect(sc.calls).toEqual([['--root=/', 'reenable', LATE.name]]);
    rmSync(r('usr/lib/systemd/system/k2s-dnsproxy-kubeswitch.service.d'), { recursive: true });
    // Not read by systemctl's enable (measured): a [Service] drop-in, a file not ending in .conf, the type-wide service.d/.
    mkdirSync(r(`${SYS}/k2s-dnsproxy.service.d`));
    writeFileSync(r(`${SYS}/k2s-dnsproxy.service.d/env.conf`), '[Service]\nEnvironment=A=1\n');
    writeFileSync(r(`${SYS}/k2s-dnsproxy.service.d/wanted`), '[Install]\nWantedBy=graphical.target\n');
    mkdirSync(r(`${SYS}/service.d`));
    writeFileSync(r(`${SYS}/service.d/all.conf`), '[Install]\nWantedBy=graphical.target\n');
    expect(await relinkUnits(fs, [PROXY, LATE], noSystemctl)).toBe(true);
    expect(readlinkSync(r(WANTS))).toBe(PROXY.file);
    expect(exists(`${SYS}/graphical.target.wants/k2s-dnsproxy.service`)).toBe(false); // no drop-in asks for it: reenable drops it
  });

  it("a write that fails (a read-only /etc/systemd/system) is said with the link's path and errno, not the temp file's", async () => {
    const base = createHostFs(root);
    const fs = { ...base, symlinkAtomic: async (p: string) => {
      throw Object.assign(new Error(`EROFS: read-only file system, symlink '${PROXY.file}' -> '${path.posix.dirname(p)}/.k2s-dnsproxy.service.k2s-tmp-0123'`), { code: 'EROFS' });
    } };
    const err = await relinkUnits(fs, [PROXY], noSystemctl).catch((e: unknown) => e as NodeJS.ErrnoException);
    expect(err).toMatchObject({ message: `Could not write the systemd link ${WANTS} (EROFS: read-only file system).`, code: 'EROFS' });
  });

  it('hasInstallSection: a section header line of its own only', () => {
    expect(hasInstallSection('[Unit]\n[Install]\nWantedBy=a.target\n')).toBe(true);
    expect(hasInstallSection('\t[Install] \r\n')).toBe(true);
    expect(hasInstallSection('# [Install]\n')).toBe(false);
    expect(hasInstallSection('[InstallX]\n')).toBe(false);
    expect(hasInstallSection('[Service]\nEnvironment=X=[Install]\n')).toBe(false);
  });
});
