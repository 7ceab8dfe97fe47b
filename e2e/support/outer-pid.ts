/**
 * The sandbox runs its command in a PID namespace of its own (e2e/bed/sandbox.sh), so a PID the
 * inside reports is not a PID out here. This finds the outside PID of such a process, by proc(5):
 * `/proc/PID/task/TID/children` lists a task's children, and the `NSpid:` line of
 * `/proc/PID/status` gives the process's PID in each PID namespace, from the one this /proc
 * belongs to inward. It also tells whether a PID still names the same process before anyone
 * signals it (`processIdentity`, `sameProcess`): a PID can be reused once its process is gone.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';

/** The `NSpid:` entries of /proc/PID/status (outermost first), or [] when unreadable. */
async function nspidOf(pid: number, proc: string): Promise<number[]> {
  const status = await readFile(`${proc}/${pid}/status`, 'utf8').catch(() => '');
  return /^NSpid:\s+(.+)$/m.exec(status)?.[1]?.trim().split(/\s+/).map(Number) ?? [];
}

/**
 * The PID, in this process's PID namespace, of the descendant of `ancestor` whose PID in the
 * PID namespace one level inside `ancestor`'s (the sandbox's: sandbox.sh runs
 * `unshare --pid --fork`) is `innerPid`, or null when no such descendant runs. The level is
 * fixed by `ancestor`'s own NSpid length, so a process in a namespace nested further in (the
 * booted test host's systemd: `NSpid: 11589 82 1`) is found by its sandbox PID (82), and one
 * whose PID is `innerPid` only in that nested namespace is not taken for it. Reads /proc only;
 * never signals anything.
 */
export async function outerPidOf(ancestor: number, innerPid: number, proc = '/proc'): Promise<number | null> {
  const level = (await nspidOf(ancestor, proc)).length;
  if (level === 0) return null;
  const queue = [ancestor];
  const seen = new Set<number>();
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const ns = await nspidOf(pid, proc);
    if (ns.length > level && ns[level] === innerPid) return ns[0]!;
    const tasks = await readdir(`${proc}/${pid}/task`).catch(() => [] as string[]);
    for (const tid of tasks) {
      const kids = await readFile(`${proc}/${pid}/task/${tid}/children`, 'utf8').catch(() => '');
      for (const k of kids.trim().split(/\s+/)) if (k !== '') queue.push(Number(k));
    }
  }
  return null;
}

/** What tells one process from a later one with the same PID. */
export interface ProcessIdentity {
  /** `readlink /proc/PID/ns/pid`, e.g. `pid:[4026532845]`. */
  pidNs: string;
  /** `readlink /proc/PID/ns/mnt`, e.g. `mnt:[4026532843]`. */
  mntNs: string;
  /** Field 22 of /proc/PID/stat: start time in clock ticks after boot (proc(5)). */
  startTicks: string;
  /** The `NSpid:` entries, outermost first. */
  nspid: number[];
}

/**
 * The identity of process `pid` as /proc shows it now, or null when it is gone or unreadable.
 * The start time is read after the last `)` of /proc/PID/stat, since the command name in
 * parentheses may itself hold spaces and parentheses (proc(5)).
 */
export async function processIdentity(pid: number, proc = '/proc'): Promise<ProcessIdentity | null> {
  try {
    const stat = await readFile(`${proc}/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // rest[0] is field 3 (state), so field 22 is rest[19].
    const startTicks = rest[19];
    const nspid = await nspidOf(pid, proc);
    if (!startTicks || nspid.length === 0) return null;
    return { pidNs: await readlink(`${proc}/${pid}/ns/pid`), mntNs: await readlink(`${proc}/${pid}/ns/mnt`), startTicks, nspid };
  } catch {
    return null;
  }
}

/**
 * Whether `pid` is still the process `id` was taken from: same start time, same PID and mount
 * namespaces, same NSpid line. Check it right before signalling a PID found earlier.
 */
export async function sameProcess(pid: number, id: ProcessIdentity, proc = '/proc'): Promise<boolean> {
  const now = await processIdentity(pid, proc);
  return now !== null && now.startTicks === id.startTicks && now.pidNs === id.pidNs && now.mntNs === id.mntNs && now.nspid.join(' ') === id.nspid.join(' ');
}
