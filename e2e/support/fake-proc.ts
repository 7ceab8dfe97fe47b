/**
 * A fake /proc for unit tests of code that reads proc(5): per PID, `status` (NSpid line),
 * `task/PID/children`, `stat` (start time, field 22), `cmdline` and the `ns/pid`, `ns/mnt` links.
 */
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One fake process; a pair is shorthand for [NSpid entries, children]. */
export interface FakeProcess {
  nspid: number[];
  kids: number[];
  comm?: string;
  /** argv, written NUL-separated to cmdline. */
  argv?: string[];
  start?: number;
  pidNs?: string;
  mntNs?: string;
}

/** Writes (or rewrites) the given processes under `dir`, which is returned. */
export async function writeFakeProc(dir: string, tree: Record<number, [number[], number[]] | FakeProcess>): Promise<string> {
  for (const [pid, entry] of Object.entries(tree)) {
    const e: FakeProcess = Array.isArray(entry) ? { nspid: entry[0], kids: entry[1] } : entry;
    await rm(join(dir, pid), { recursive: true, force: true });
    await mkdir(join(dir, pid, 'task', pid), { recursive: true });
    await mkdir(join(dir, pid, 'ns'));
    await writeFile(join(dir, pid, 'status'), `Name:\tx\nPid:\t${pid}\nNSpid:\t${e.nspid.join('\t')}\n`);
    await writeFile(join(dir, pid, 'task', pid, 'children'), e.kids.length ? `${e.kids.join(' ')} ` : '');
    // proc(5) stat: pid (comm) state, then fields 4–21, then starttime (22) and more.
    const fields = Array.from({ length: 18 }, () => '0');
    await writeFile(join(dir, pid, 'stat'), `${pid} (${e.comm ?? 'x'}) S ${fields.join(' ')} ${e.start ?? 1000} 0 0\n`);
    await writeFile(join(dir, pid, 'cmdline'), (e.argv ?? ['x']).map((a) => `${a}\0`).join(''));
    await symlink(e.pidNs ?? 'pid:[4026531836]', join(dir, pid, 'ns', 'pid'));
    await symlink(e.mntNs ?? 'mnt:[4026531841]', join(dir, pid, 'ns', 'mnt'));
  }
  return dir;
}
