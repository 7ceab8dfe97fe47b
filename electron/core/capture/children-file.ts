/**
 * The companion's record of its own children — tcpdump and the packet parser — written the moment
 * it has spawned them (capture-main.ts), so that whoever outlives a companion killed without its
 * stop (kill -9, the OOM killer) can end them: its keeper before it restarts it
 * (host/capture-keeper.ts), and k2s-dns stop (host/capture-companion.ts). Once the companion is
 * gone the kernel hands its children to PID 1 (or a subreaper), so they can no longer be found by
 * their parent, and nothing looks for them by name.
 *
 * One line per child, `PID STARTTIME ROLE COMPANION CRC LENGTH`: STARTTIME is /proc/PID/stat
 * field 22 (proc(5), clock ticks after boot), which with the PID names one process for the whole
 * boot, so a PID taken by another process since is never signalled; ROLE is `tcpdump` or `parser`;
 * COMPANION the PID of the companion that spawned it (the record's writer, whom the keeper's log
 * names); CRC LENGTH what POSIX `cksum` prints for the child's /proc/PID/cmdline bytes, read once
 * it runs and only when that argv is its role's as the companion spawns it (host/capture-children.ts
 * captureChildRole). The keeper, a POSIX sh, compares `cksum </proc/PID/cmdline` with it byte for
 * byte before a SIGKILL, so it never signals a process whose argv is not the one recorded (a record
 * naming any other process is refused): one POSIX tool, no NUL-separated argv parsed in sh.
 * At most CHILDREN_FILE_MAX_BYTES are read (two lines need < 100).
 */
import { K2S_PATHS } from '../../../shared/k2s-paths';
import type { HostFs } from '../host/host-fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { processStartTime } from './hold-wait';
import { captureChildRole } from '../host/capture-children';
import { cksumOf, type RecordedChild } from './recorded-child';

/** Host path of the record (root's run dir, 0644; on tmpfs). */
export const CAPTURE_CHILDREN_FILE = `${K2S_PATHS.runDir}/capture.children`;

/** Bytes of the record its readers read at most (stop and the keeper): two lines need < 100. */
export const CHILDREN_FILE_MAX_BYTES = 4096;

export type { RecordedChild } from './recorded-child';
export { cksumOf } from './recorded-child';

/** The file's text for `children` (one `PID STARTTIME ROLE COMPANION CRC LENGTH` line each). */
export function childrenFileText(children: readonly RecordedChild[]): string {
  return children.map((c) => `${c.pid} ${c.startTime} ${c.role} ${c.companion} ${c.cmdlineSum}\n`).join('');
}

/**
 * The children in the file's `text`; a line that is not `PID STARTTIME ROLE COMPANION CRC LENGTH`
 * (digits, a known role, a length > 0) is left out, and so is a last line without its newline (cut).
 */
export function parseChildrenFile(text: string): RecordedChild[] {
  const out: RecordedChild[] = [];
  for (const line of text.split('\n').slice(0, -1)) {
    const m = /^([1-9]\d*) (\d+) (tcpdump|parser) ([1-9]\d*) (\d+ [1-9]\d*)$/.exec(line);
    if (m) out.push({ pid: Number(m[1]), startTime: m[2]!, role: m[3] as RecordedChild['role'], companion: Number(m[4]), cmdlineSum: m[5]! });
  }
  return out;
}


/**
 * Writes CAPTURE_CHILDREN_FILE for `spawned` (children of this process, `companion`), with their
 * start times and cmdline sums read from `procDir` (spawn returns once the child has exec'd); one
 * already gone, or whose argv is not its role's (captureChildRole; `parserRunPath` the real path of
 * PARSER_RUN_PATH), is left out. Never rejects: the record is best effort, the companion's own stop
 * ends its children anyway.
 */
export async function recordChildren(fs: HostFs, spawned: readonly { pid: number; role: RecordedChild['role'] }[], procDir: string, parserRunPath: string, companion = process.pid): Promise<void> {
  try {
    const children: RecordedChild[] = [];
    for (const c of spawned) {
      const startTime = await processStartTime(c.pid, procDir);
      const cmdline = await readFile(path.join(procDir, String(c.pid), 'cmdline')).catch(() => null);
      if (startTime === null || cmdline === null || cmdline.length === 0) continue;
      const argv = cmdline.toString('utf8').split('\0').slice(0, -1);
      if (captureChildRole(argv, parserRunPath) !== c.role) continue;
      children.push({ ...c, startTime, companion, cmdlineSum: cksumOf(cmdline) });
    }
    await fs.writeFileAtomic(CAPTURE_CHILDREN_FILE, childrenFileText(children), { mode: 0o644 });
  } catch {
    // No room in /run: the companion runs on; only a kill -9 of it would then leave its children.
  }
}

/**
 * Removes the record once the children it names have ended and been reaped by the companion
 * `companion` (its stop waits for both, pipeline.ts): it names no live process any more. Its
 * keeper then finds none to read at the companion's exit (host/capture-keeper.ts end_children: a
 * pipe, a `cat` per line and an `rm` less on stop's path, ~10 ms on the 2-core test machine). A
 * record naming another companion's children, or that cannot be read as a regular file, is left
 * to its readers. Never rejects.
 */
export async function forgetChildren(fs: HostFs, companion = process.pid): Promise<void> {
  try {
    const text = (await fs.readFileNoFollow(CAPTURE_CHILDREN_FILE, { maxBytes: CHILDREN_FILE_MAX_BYTES })).toString('utf8');
    if (parseChildrenFile(text).every((c) => c.companion === companion)) await fs.remove(CAPTURE_CHILDREN_FILE);
  } catch {
    // None written (no room in /run), or not a regular file: nothing of ours to remove.
  }
}
