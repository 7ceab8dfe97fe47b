/**
 * The search list host apps use now: the `search`/`domain` line of /etc/resolv.conf (the file
 * glibc reads; while K2s DNS runs, the K2s-managed one, which keeps the original's search domains
 * and follows the network's), re-read every HOST_SEARCH_POLL_MS. The capture parser (rows-main.ts,
 * as the unprivileged capture user: the file is world-readable) writes it into each row of the
 * exact query log (row-line.ts), so the Queries view can tell a search-list expansion from
 * a full name by what was in effect when the query was asked (renderer lib/search-expansion.ts),
 * not by what the list is when someone looks.
 */
import { promises as fsp, constants } from 'node:fs';
import { parseSearchConfig } from '../../../shared/search-list';
import { RESOLVER_READ_BYTES } from '../../../shared/network-writer';

/**
 * The file's text, read as every reader of /etc/resolv.conf here reads it: at most
 * RESOLVER_READ_BYTES, non-blocking (a FIFO never stalls the companion); null when it is
 * larger (no resolver file is), not a regular file, or unreadable.
 */
async function readBounded(file: string): Promise<string | null> {
  const fh = await fsp.open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => null);
  if (!fh) return null;
  try {
    if (!(await fh.stat()).isFile()) return null;
    const buf = Buffer.alloc(RESOLVER_READ_BYTES);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return bytesRead >= RESOLVER_READ_BYTES ? null : buf.subarray(0, bytesRead).toString('utf8');
  } catch {
    return null;
  } finally {
    await fh.close();
  }
}

/** How often the file is read again, ms (a changed list counts from the next read on). */
export const HOST_SEARCH_POLL_MS = 1000;

/** A watched search list. */
export interface HostSearch {
  /** The search domains as of the last read; null when the file could not be read (not recorded then). */
  current(): string[] | null;
  stop(): void;
}

/** Reads `file` (a real path) now and then every `everyMs`. */
export async function watchHostSearch(file: string, everyMs = HOST_SEARCH_POLL_MS): Promise<HostSearch> {
  let search: string[] | null = null;
  const read = async () => {
    const text = await readBounded(file);
    search = text === null ? null : parseSearchConfig(text).search;
  };
  await read();
  const timer = setInterval(() => void read(), everyMs);
  timer.unref();
  return { current: () => search, stop: () => clearInterval(timer) };
}
