/**
 * The search list host apps use now: the `search`/`domain` line of /etc/resolv.conf (the file
 * glibc reads; while K2s DNS runs, the K2s-managed one, which keeps the original's search domains
 * and follows the network's), re-read every HOST_SEARCH_POLL_MS. The capture companion writes it
 * into each row of the exact query log, so the Queries view can tell a search-list expansion from
 * a full name by what was in effect when the query was asked (renderer lib/search-expansion.ts),
 * not by what the list is when someone looks.
 */
import { promises as fsp } from 'node:fs';
import { parseSearchConfig } from '../../../shared/search-list';

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
    search = await fsp.readFile(file, 'utf8').then((t) => parseSearchConfig(t).search, () => null);
  };
  await read();
  const timer = setInterval(() => void read(), everyMs);
  timer.unref();
  return { current: () => search, stop: () => clearInterval(timer) };
}
