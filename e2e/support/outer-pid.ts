/**
 * The sandbox runs its command in a PID namespace of its own (e2e/bed/sandbox.sh), so a PID the
 * inside reports is not a PID out here. This finds the outside PID of such a process, by proc(5):
 * `/proc/PID/task/TID/children` lists a task's children, and the `NSpid:` line of
 * `/proc/PID/status` gives the process's PID in each PID namespace, from the one this /proc
 * belongs to inward.
 */
import { readdir, readFile } from 'node:fs/promises';

/**
 * The PID, in this process's PID namespace, of the descendant of `ancestor` whose PID in its
 * innermost PID namespace is `innerPid` (and which is in a nested namespace), or null when no
 * such descendant runs. Reads /proc only; never signals anything.
 */
export async function outerPidOf(ancestor: number, innerPid: number, proc = '/proc'): Promise<number | null> {
  const queue = [ancestor];
  const seen = new Set<number>();
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const status = await readFile(`${proc}/${pid}/status`, 'utf8').catch(() => '');
    const ns = /^NSpid:\s+(.+)$/m.exec(status)?.[1]?.trim().split(/\s+/).map(Number) ?? [];
    if (ns.length >= 2 && ns.at(-1) === innerPid) return ns[0]!;
    const tasks = await readdir(`${proc}/${pid}/task`).catch(() => [] as string[]);
    for (const tid of tasks) {
      const kids = await readFile(`${proc}/${pid}/task/${tid}/children`, 'utf8').catch(() => '');
      for (const k of kids.trim().split(/\s+/)) if (k !== '') queue.push(Number(k));
    }
  }
  return null;
}
