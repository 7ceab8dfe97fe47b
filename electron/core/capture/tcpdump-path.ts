/** Where the capture's packet reader, tcpdump(8), is installed (its own file: status and start read it without loading the capture). */
import { constants as fsc, promises as fsp } from 'node:fs';

/** Where tcpdump is looked for (fixed paths: root never searches a caller's PATH; Debian's is /usr/bin/tcpdump). */
export const TCPDUMP_PATHS = ['/usr/bin/tcpdump', '/usr/sbin/tcpdump', '/bin/tcpdump', '/sbin/tcpdump'] as const;

/** The first executable tcpdump of `paths`, or null. */
export async function findTcpdump(paths: readonly string[] = TCPDUMP_PATHS): Promise<string | null> {
  for (const p of paths) if (await fsp.access(p, fsc.X_OK).then(() => true, () => false)) return p;
  return null;
}
