/**
 * Whether each configured listener is really bound, from the kernel's socket table
 * (/proc/<pid>/net/udp and udp6, proc(5)) as the proxy's own network namespace sees it: a
 * process's /proc/<pid>/net is the table of its namespace, so the proxy's pid gives its view
 * even when it runs in another namespace; without a pid, /proc/net (this process's namespace).
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { boundAddressCovers, parseProcNet } from '../../../shared/proc-net';
import type { Listener } from '../../../shared/types';

/** One listener with what the kernel says; `bound` null when the table could not be read. */
export interface ListenerSocket extends Listener {
  bound: boolean | null;
}

/**
 * For each of `listeners`: true when a UDP socket is bound to its port on its address (or on
 * 0.0.0.0 / :: covering it), false when none is, null when neither udp nor udp6 was readable.
 */
export async function listenerSockets(listeners: readonly Listener[], pid: number | null, procDir = '/proc'): Promise<ListenerSocket[]> {
  const base = pid !== null ? path.join(procDir, String(pid), 'net') : path.join(procDir, 'net');
  const littleEndian = os.endianness() === 'LE';
  const bound: { address: string; port: number }[] = [];
  let read = false;
  for (const file of ['udp', 'udp6']) {
    try {
      const text = await fsp.readFile(path.join(base, file), 'utf8');
      read = true;
      for (const s of parseProcNet(text, littleEndian)) bound.push({ address: s.localAddress, port: s.localPort });
    } catch {
      // No IPv6 in this kernel, or the pid is gone: the other file, or /proc/net below.
    }
  }
  if (!read && pid !== null) return listenerSockets(listeners, null, procDir);
  return listeners.map((l) => ({ ...l, bound: read ? bound.some((s) => s.port === l.port && boundAddressCovers(s.address, l.address)) : null }));
}
