import { lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHostFs } from './host-fs-node';
import { installTargets, relinkUnits, unlinkUnits } from './unit-links';

let root: string;
const r = (p: string) => path.join(root, p);
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'k2s-links-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** For hosts with no [Install] drop-in: systemctl is never run. */
const noSystemctl = async (args: string[]): Promise<never> => {
  throw new Error(`systemctl ${args.join(' ')} was run`);
};

const PROXY = { name: 'k2s-dnsproxy.service', file: '/etc/systemd/system/k2s-dnsproxy.service', text: '[Unit]\nDescription=x\n\n[Service]\nExecStart=/bin/true\n\n[Install]\nWantedBy=multi-user.target\n' };
const LATE = { name: 'k2s-dnsproxy-kubeswitch.service', file: '/etc/systemd/system/k2s-dnsproxy-kubeswitch.service', text: '[Unit]\nPartOf=k2s-dnsproxy.service\n[Install]\n# comment\nWantedBy=k2s-dnsproxy.service\n' };

describe('installTargets', () => {
  it('reads WantedBy= of [Install] only, lists and repeats included; refuses other [Install] keys', () => {
    expect(installTargets(PROXY.text)).toEqual(['multi-user.target']);
    expect(installTargets('[Unit]\nWantedBy=not-this.target\n[Install]\nWantedBy=a.target  b.target\nWantedBy=c.service\n')).toEqual(['a.target', 'b.target', 'c.service']);
    expect(installTargets('[Unit]\nDescription=none\n')).toEqual([]);
    expect(() => installTargets('[Install]\nAlias=x.service\n')).toThrow('unit [Install] key Alias is not supported here (only WantedBy=)');
  });
});

describe('relinkUnits / unlinkUnits', () => {
  it('makes the .wants/ links with the unit file\'s absolute path, as systemctl enable does, and says whether anything changed', async () => {
    const fs = createHostFs(root);
    expect(await relinkUnits(fs, [PROXY, LATE], noSystemctl)).toBe(true);
    expect(readlinkSync(r('etc/systemd/system/multi-user.target.wants/k2s-dnsproxy.service'))).toBe('/etc/systemd/system/k2s-dnsproxy.service');
    expect(readlinkSync(r('etc/systemd/system/k2s-dnsproxy.service.wants/k2s-dnsproxy-kubeswitch.service'))).toBe('/etc/systemd/system/k2s-dnsproxy-kubeswitch.service');
    // Right already: nothing is rewritten (the same inode), nothing changed.
    const ino = lstatSync(r('etc/systemd/system/multi-user.target.wants/k2s-dnsproxy.service')).ino;
    expect(await relinkUnits(fs, [PROXY, LATE], noSystemctl)).toBe(false);
    expect(lstatSync(r('etc/systemd/system/multi-user.target.wants/k2s-dnsproxy.service')).ino).toBe(ino);
  });

  it('removes a link an older version made elsewhere and fixes a link to another file, leaving other units\' links and non-links alone', async () => {
    const fs = createHostFs(root);
    mkdirSync(r('etc/systemd/system/multi-user.target.wants'), { recursive: true });
    mkdirSync(r('etc/systemd/system/k2s-dnsproxy.service.wants'), { recursive: true });
    // An older version linked the companion into multi-user.target.wants/.
    symlinkSync(LATE.file, r('etc/systemd/system/multi-user.target.wants/k2s-dnsproxy-kubeswitch.service'));
    symlinkSync('/usr/lib/systemd/system/k2s-dnsproxy.service', r('etc/systemd/system/multi-user.target.wants/k2s-dnsproxy.service'));
    symlinkSync('/usr/lib/systemd/system/ssh.service', r('etc/systemd/system/multi-user.target.wants/ssh.service'));
    expect(await relinkUnits(fs, [PROXY, LATE], noSystemctl)).toBe(true);
    expect(lstatSync(r('etc/systemd/system/multi-user.target.wants/k2s-dnsproxy-kubeswitch.service'), { throwIfNoEntry: false })).toBeUndefined();
    expect(readlinkSync(r('etc/systemd/system/multi-user.target.wants/k2s-dnsproxy.service'))).toBe(PROXY.file);
    expect(readlinkSync(r('etc/systemd/system/multi-user.target.wants/ssh.service'))).toBe('/usr/lib/systemd/system/ssh.service');
    // unlink: every link of the names, wherever it is; the other unit's link stays.
    expect(await unlinkUnits(fs, [PROXY.name, LATE.name, 'k2s-dnsproxy-capture.service'], noSystemctl)).toBe(true);
    expect(lstatSync(r('etc/systemd/system/multi-user.target.wants/k2s-dnsproxy.service'), { throwIfNoEntry: false })).toBeUndefined();
    expect(lstatSync(r('etc/systemd/system/k2s-dnsproxy.service.wants/k2s-dnsproxy-kubeswitch.service'), { throwIfNoEntry: false })).toBeUndefined();
    // The link directory it emptied goes too, as systemctl disable removes it (a purge leaves nothing); one still holding a link stays.
    expect(lstatSync(r('etc/systemd/system/k2s-dnsproxy.service.wants'), { throwIfNoEntry: false })).toBeUndefined();
    expect(lstatSync(r('etc/systemd/system/multi-user.target.wants')).isDirectory()).toBe(true);
    expect(lstatSync(r('etc/systemd/system')).isDirectory()).toBe(true);
    expect(readlinkSync(r('etc/systemd/system/multi-user.target.wants/ssh.service'))).toBe('/usr/lib/systemd/system/ssh.service');
    expect(await unlinkUnits(fs, [PROXY.name], noSystemctl)).toBe(false);
  });

  it('with no /etc/systemd/system at all: unlink changes nothing, relink makes the directories', async () => {
    const fs = createHostFs(root);
    expect(await unlinkUnits(fs, [PROXY.name], noSystemctl)).toBe(false);
    expect(await relinkUnits(fs, [PROXY], noSystemctl)).toBe(true);
    expect(lstatSync(r('etc/systemd/system/multi-user.target.wants')).mode & 0o777).toBe(0o755);
  });
});
