/** `k2s-dns queries` text: one exact query log row per line, and the engine its rows name. */
import type { EngineName } from '../../shared/engines/table';
import type { QueryRow } from '../../shared/query-log/row';
import { cliCommand } from '../../shared/fix';
import { EXACT_LOG_NOT_YET, SHOWN_ENGINE_LOG } from '../core/capture/exact-log';

/** The engine `queries` names: the saved state's, or null with the label that says why not. */
export interface QueriesEngine {
  engine: EngineName | null;
  /** The engine's name; else `engine unknown: K2s DNS is not running (stopped), …` when no state is saved, `engine unknown (state unreadable: WHY)` when it cannot be read. */
  label: string;
}

/**
 * The engine that answered the exact log's rows, from the saved resolver state (`read`: resolves
 * the state or null when none is saved, throws when it cannot be read: not root, corrupt).
 * Never a guess: without a state naming one, the label says the engine is unknown and why —
 * stopped (no saved state) is said as such; "state unreadable" only for a failed read.
 */
export async function queriesEngine(read: () => Promise<{ engine: EngineName | null } | null>): Promise<QueriesEngine> {
  let why: string;
  try {
    const state = await read();
    if (state?.engine) return { engine: state.engine, label: state.engine };
    // No saved state is the normal stopped state, not a failure to read one.
    return { engine: null, label: state ? 'engine unknown (the saved state names no engine)' : 'engine unknown: K2s DNS is not running (stopped), no saved state names it' };
  } catch (err) {
    why = (err as NodeJS.ErrnoException).code === 'EACCES' ? 'permission denied: root reads it' : (err as Error).message;
  }
  return { engine: null, label: `engine unknown (state unreadable: ${why})` };
}

/**
 * The stderr line of `queries` when the exact log is not available (`reason`: exact-log.ts's).
 * The CLI prints no rows then, so its reason never says the engine's own log is shown (that is
 * the Logs panel's); before the first start, it says plainly that nothing is logged yet and
 * which command starts the log.
 */
export function queriesUnavailableText(reason: string | null): string {
  if (reason === EXACT_LOG_NOT_YET) return `Nothing is logged yet: the exact query log starts with \`${cliCommand('start', true)}\` (tcpdump is installed).`;
  if (reason === null) return 'No exact query log.';
  return reason.endsWith(SHOWN_ENGINE_LOG) ? reason.slice(0, -SHOWN_ENGINE_LOG.length) : reason;
}

/** `rows` as `queries --json` prints them: each names `who`'s engine, or its unknown label. */
export function labelRows(rows: readonly QueryRow[], who: QueriesEngine): (Omit<QueryRow, 'engine'> & { engine: string })[] {
  return rows.map((r) => ({ ...r, engine: who.label }));
}

/** `TIME CLIENT PROTO TYPE NAME RCODE via UPSTREAM (LATENCY ms) ANSWERS`; `cache` when no upstream exchange was seen. */
export function formatExactRow(r: QueryRow): string {
  const via = r.upstream ? `via ${r.upstream}` : r.rcode === null ? 'no answer' : 'cache';
  const lat = r.latencyMs === null ? '' : ` ${r.latencyMs.toFixed(2)} ms`;
  return `${r.time ?? '-'} ${r.client ?? '-'} ${r.protocol ?? '-'} ${r.type} ${r.name} ${r.rcode ?? '-'} ${via}${lat}${r.answers.length ? ` ${r.answers.join(',')}` : ''}`;
}
