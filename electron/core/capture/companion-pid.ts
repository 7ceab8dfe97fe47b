/** Whether a pid is the exact query log's companion now, read from /proc (a reused pid is not taken for it). */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isCaptureArgv } from './capture-args';
import { parseCmdline } from '../host/own-proxy';

/** True when `pid` (> 1) is a process whose /proc/PID/cmdline is a capture companion's (isCaptureArgv). */
export async function isCompanion(pid: number | null, procDir = '/proc'): Promise<boolean> {
  if (pid === null || !Number.isInteger(pid) || pid <= 1) return false;
  return isCaptureArgv(await readFile(path.join(procDir, String(pid), 'cmdline')).then(parseCmdline, () => [] as string[]));
}
