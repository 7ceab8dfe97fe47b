/**
 * The Logs panel's one line when it could read no log at all (a user outside the group adm: the
 * proxy's log and the exact query log are root:adm 0640). Pure.
 */
import { SHOWN_ENGINE_LOG } from '../../../shared/query-log/exact';

/**
 * What the panel says when the proxy log failed with `proxyError` (electron/core/logs/tail.ts
 * logReadError: `Cannot read the proxy log <path>: permission denied (it is readable by …). <fix>`)
 * and nothing was shown: with the exact query log unreadable too (`exactUnreadable`: its file),
 * both files in one sentence with the proxy log's fix (the same group and root); with the exact
 * log unavailable for another reason (`exactReason`), that reason without its "Shown: the engine's
 * own query log." (nothing is shown), then the proxy log's error.
 */
export function unreadableLogsLine(proxyError: string, exactUnreadable?: string, exactReason?: string | null): string {
  const denied = /^Cannot read the proxy log (.+?): permission denied \(it is readable by root and the group adm only\)\. /.exec(proxyError);
  if (exactUnreadable !== undefined && denied) {
    return `Cannot read the exact query log ${exactUnreadable} nor the proxy log ${denied[1]}: permission denied (both are readable by root and the group adm only). ${proxyError.slice(denied[0].length)}`;
  }
  if (!exactReason) return proxyError;
  const reason = exactReason.endsWith(SHOWN_ENGINE_LOG) ? exactReason.slice(0, -SHOWN_ENGINE_LOG.length) : exactReason;
  return `${reason} ${proxyError}`;
}
