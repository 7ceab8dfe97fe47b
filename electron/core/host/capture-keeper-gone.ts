/**
 * The exact query log's companion running without its keeper (hosts without systemd,
 * capture-keeper.ts): the keeper was killed (kill -9, the OOM killer) while the companion ran on.
 * The log still fills, but nothing restarts the companion should it end, as the keeper (and the
 * unit's Restart=on-failure) would: status says so, as it says a dead network follower.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { HostFs } from './host-fs';
import { CAPTURE_READY_FILE } from '../capture/capture-args';
import { isCompanion } from '../capture/companion-pid';
import { isKeeperArgv } from './keeper-name';
import { parseCmdline } from './own-proxy';
import { CAPTURE_PID_FILE } from './capture-companion';

/** A companion that runs without its keeper: `keeper` the pid its pidfile names (null when none). */
export interface KeeperGone {
  keeper: number | null;
  companion: number;
}

/** A pid from a one-number file's text, or null. */
const pidOf = (text: string) => (/^[1-9]\d*$/.test(text.trim()) ? Number(text.trim()) : null);

/**
 * Whether the companion named by its ready file runs (its /proc cmdline a companion's) while the
 * keeper its pidfile names does not (no such process, a zombie, or another program: the pid
 * reused): null when the companion is not running (its stop is said elsewhere, capture-stopped.ts)
 * or its keeper is. Read through `fs` (root-relative) and `procDir`. Never rejects.
 */
export async function captureKeeperGone(fs: HostFs, procDir = '/proc'): Promise<KeeperGone | null> {
  const read = (f: string) => fs.readFile(f, { maxBytes: 64 }).then((b) => b.toString('utf8'), () => '');
  const [companion, keeper] = (await Promise.all([read(CAPTURE_READY_FILE), read(CAPTURE_PID_FILE)])).map(pidOf);
  if (companion == null || !(await isCompanion(companion, procDir))) return null;
  const argv = keeper == null ? [] : await readFile(path.join(procDir, String(keeper), 'cmdline')).then(parseCmdline, () => [] as string[]);
  return isKeeperArgv(argv) ? null : { keeper: keeper ?? null, companion };
}

/**
 * Status's note for a KeeperGone, `fix` ending it (how to run the companion under a keeper again).
 * "The exact query log is no longer supervised: its keeper (PID 812) is not running, so a crash of
 * its companion (PID 840, still capturing) will not be restarted; to …"
 */
export function keeperGoneWords(g: KeeperGone, fix: string): string {
  return `The exact query log is no longer supervised: its keeper ${g.keeper === null ? '(no PID recorded)' : `(PID ${g.keeper})`} is not running, so a crash of its companion (PID ${g.companion}, still capturing) will not be restarted; ${fix}`;
}
