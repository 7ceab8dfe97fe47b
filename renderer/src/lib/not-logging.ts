/**
 * The Logs panel's Queries view while the running K2s DNS logs no query (walk 24: an earlier run's
 * rows showed with nothing saying so). The CLI's `queries` says the same in its words
 * (electron/cli/print-queries.ts notLoggingText). Pure: no DOM.
 */
import type { HostDnsStatus } from '../../../shared/types';

/**
 * The line above the query rows while status says the running start logs no query
 * (`logQueries`: HostDnsStatus.logQueries, false from its `--no-log-queries`); `rows` true when
 * the view holds rows (they are then from an earlier run). The window's Start never asks for that
 * (it sends no logQueries), so Stop then Start logs queries again. Null while it logs them, or
 * nothing is known.
 */
export function notLoggingLine(logQueries: HostDnsStatus['logQueries'], rows: boolean): string | null {
  if (logQueries !== false) return null;
  return `The running K2s DNS was started with query logging off: it logs no query${rows ? '; the rows shown are from an earlier run' : ''}. To log queries, press Stop, then Start.`;
}
