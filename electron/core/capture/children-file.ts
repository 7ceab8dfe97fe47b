/**
 * The companion's record of its own children — tcpdump and the packet parser — written the moment
 * it has spawned them (capture-main.ts), so that whoever outlives a companion killed without its
 * stop (kill -9, the OOM killer) can end them: its keeper before it restarts it
 * (host/capture-keeper.ts), and k2s-dns stop (host/capture-companion.ts). Once the companion is
 * gone the kernel hands its children to PID 1 (or a subreaper), so they can no longer be found by
 * their parent, and nothing looks for them by name.
 *
 * One line per child, `PID STARTTIME ROLE`: STARTTIME is /proc/PID/stat field 22 (proc(5),
 * clock ticks after boot), which with the PID names one process for the whole boot, so a PID
 * taken by another process since is never signalled; ROLE is `tcpdump` or `parser`.
 */
import { K2S_PATHS } from '../../../shared/k2s-paths';
import type { HostFs } from '../host/host-fs';
import { processStartTime } from './hold-wait';

/** Host path of the record (root's run dir, 0644; on tmpfs). */
export const CAPTURE_CHILDREN_FILE = `${K2S_PATHS.runDir}/capture.children`;

/** One recorded child. */
export interface RecordedChild {
  pid: number;
  /** /proc/PID/stat field 22, as text. */
  startTime: string;
  role: 'tcpdump' | 'parser';
}

/** The file's text for `children` (one `PID STARTTIME ROLE` line each). */
export function childrenFileText(children: readonly RecordedChild[]): string {
  return children.map((c) => `${c.pid} ${c.startTime} ${c.role}\n`).join('');
}

/** The children in the file's `text`; a line that is not `PID STARTTIME ROLE` (digits, a known role) is left out. */
export function parseChildrenFile(text: string): RecordedChild[] {
  const out: RecordedChild[] = [];
  for (const line of text.split('\n')) {
    const m = /^([1-9]\d*) (\d+) (tcpdump|parser)$/.exec(line);
    if (m) out.push({ pid: Number(m[1]), startTime: m[2]!, role: m[3] as RecordedChild['role'] });
  }
  return out;
}

/**
 * Writes CAPTURE_CHILDREN_FILE for `spawned` (their start times read from `procDir`; one already
 * gone is left out). Never rejects: the record is best effort, the companion's own stop ends its
 * children anyway.
 */
export async function recordChildren(fs: HostFs, spawned: readonly { pid: number; role: RecordedChild['role'] }[], procDir = '/proc'): Promise<void> {
  try {
    const children: RecordedChild[] = [];
    for (const c of spawned) {
      const startTime = await processStartTime(c.pid, procDir);
      if (startTime !== null) children.push({ ...c, startTime });
    }
    await fs.writeFileAtomic(CAPTURE_CHILDREN_FILE, childrenFileText(children), { mode: 0o644 });
  } catch {
    // No room in /run: the companion runs on; only a kill -9 of it would then leave its children.
  }
}
