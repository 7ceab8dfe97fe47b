/**
 * Where a unit's cgroup files are (unit-cgroup-path.ts): systemd's ControlGroup under the cgroup2
 * mount of /proc/self/mountinfo, through HostFs on a temp root; the fixed system.slice path when
 * either cannot be read. `k2s-dns queries` waits on the capture unit's cgroup.events found so.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Exec } from './exec';
import { createHostFs } from './host-fs-node';
import { cgroupDir, defaultUnitCgroupFile, unitCgroupFile } from './unit-cgroup-path';
import { captureCgroupEvents, captureDrained } from '../../cli/queries-wait';

/** /proc/self/mountinfo of a unified host (cgroup2 at /sys/fs/cgroup). */
const UNIFIED = '24 30 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n30 24 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate\n';
/** A hybrid host: cgroup v1 trees, and cgroup2 (systemd's tracking) at /sys/fs/cgroup/unified. */
const HYBRID = '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n';

/** An Exec that answers `systemctl show -p ControlGroup` with `answer` and records its calls. */
function systemctl(answer: { code: number; stdout: string } | Error) {
  const calls: string[] = [];
  const exec: Exec = {
    run: async (file, args) => {
      calls.push(`${file} ${args.join(' ')}`);
      if (answer instanceof Error) throw answer;
      return { ...answer, stderr: '' };
    },
  };
  return { exec, calls };
}

describe('cgroupDir', () => {
  it('joins the ControlGroup to the cgroup2 mount point, also on a hybrid host, also below a mount of a subtree', () => {
    expect(cgroupDir('/system.slice/k2s-dnsproxy-capture.service', UNIFIED)).toBe('/sys/fs/cgroup/system.slice/k2s-dnsproxy-capture.service');
    expect(cgroupDir('/system.slice/k2s-dnsproxy-capture.service', HYBRID)).toBe('/sys/fs/cgroup/unified/system.slice/k2s-dnsproxy-capture.service');
    // A mount of the subtree /system.slice (a container's view) at /cg.
    expect(cgroupDir('/system.slice/x.service', '50 1 0:26 /system.slice /cg rw - cgroup2 cgroup2 rw\n')).toBe('/cg/x.service');
    expect(cgroupDir('/user.slice/x.service', '50 1 0:26 /system.slice /cg rw - cgroup2 cgroup2 rw\n')).toBeNull();
    // A mount point with a space (mountinfo's \040).
    expect(cgroupDir('/a.slice/b.service', '50 1 0:26 / /mnt/my\\040cg rw - cgroup2 cgroup2 rw\n')).toBe('/mnt/my cg/a.slice/b.service');
  });

  it('null without a cgroup2 row (cgroup v1 only, no text)', () => {
    expect(cgroupDir('/system.slice/x.service', '40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n')).toBeNull();
    expect(cgroupDir('/system.slice/x.service', '')).toBeNull();
  });
});

describe('unitCgroupFile', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'unit-cgroup-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });
  /** A booted systemd (/run/systemd/system) and this process's mountinfo under the temp root. */
  const booted = async (mountinfo: string) => {
    await mkdir(join(root, 'run/systemd/system'), { recursive: true });
    await mkdir(join(root, 'proc/self'), { recursive: true });
    await writeFile(join(root, 'proc/self/mountinfo'), mountinfo);
  };

  it('the unit\'s ControlGroup (another slice) under the cgroup2 mount (a hybrid host), asked in one systemctl show', async () => {
    await booted(HYBRID);
    const s = systemctl({ code: 0, stdout: 'ControlGroup=/k2s.slice/k2s-dnsproxy-capture.service\n' });
    expect(await unitCgroupFile(createHostFs(root), s.exec, 'k2s-dnsproxy-capture.service', 'cgroup.events')).toBe('/sys/fs/cgroup/unified/k2s.slice/k2s-dnsproxy-capture.service/cgroup.events');
    expect(s.calls).toEqual(['systemctl show -p ControlGroup k2s-dnsproxy-capture.service']);
  });

  it('the system.slice path when systemd is not init (nothing asked), systemctl fails or cannot start, the unit has no cgroup, or mountinfo has no cgroup2', async () => {
    const want = '/sys/fs/cgroup/system.slice/x.service/cgroup.events';
    expect(defaultUnitCgroupFile('x.service', 'cgroup.events')).toBe(want);
    const none = systemctl({ code: 0, stdout: 'ControlGroup=/other.slice/x.service\n' });
    expect(await unitCgroupFile(createHostFs(root), none.exec, 'x.service', 'cgroup.events')).toBe(want);
    expect(none.calls).toEqual([]);
    await booted(UNIFIED);
    for (const answer of [{ code: 1, stdout: '' }, new Error('spawn systemctl ENOENT'), { code: 0, stdout: 'ControlGroup=\n' }, { code: 0, stdout: 'ControlGroup=/a/../../etc\n' }]) {
      expect(await unitCgroupFile(createHostFs(root), systemctl(answer).exec, 'x.service', 'cgroup.events')).toBe(want);
    }
    await writeFile(join(root, 'proc/self/mountinfo'), '40 31 0:37 / /sys/fs/cgroup/systemd rw - cgroup cgroup rw,name=systemd\n');
    expect(await unitCgroupFile(createHostFs(root), systemctl({ code: 0, stdout: 'ControlGroup=/other.slice/x.service\n' }).exec, 'x.service', 'cgroup.events')).toBe(want);
  });

  it('queries waits on the capture unit\'s cgroup.events where systemd put it, until it says populated 0', async () => {
    await booted(HYBRID);
    const fs = createHostFs(root);
    const events = await captureCgroupEvents(fs, systemctl({ code: 0, stdout: 'ControlGroup=/system.slice/k2s-dnsproxy-capture.service\n' }).exec);
    expect(events).toBe('/sys/fs/cgroup/unified/system.slice/k2s-dnsproxy-capture.service/cgroup.events');
    await mkdir(join(root, '/sys/fs/cgroup/unified/system.slice/k2s-dnsproxy-capture.service'), { recursive: true });
    await writeFile(fs.real(events), 'populated 1\nfrozen 0\n');
    let done = false;
    const waiting = captureDrained(fs.real(events), 60_000).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(done).toBe(false);
    await writeFile(fs.real(events), 'populated 0\nfrozen 0\n');
    await waiting;
    expect(done).toBe(true);
  });
});
