/** `k2s-dns queries` text: one exact query log row per line, and the engine its rows name. */
import type { EngineName } from '../../shared/engines/table';
import type { QueryRow } from '../../shared/query-log/row';

/** The engine `queries` names: the saved state's, or null with the label that says why not. */
export interface QueriesEngine {
  engine: EngineName | null;
  /** The engine's name, or `engine unknown (state unreadable: WHY)`. */
  label: string;
}

/**
 * The engine that answered the exact log's rows, from the saved resolver state (`read`: resolves
 * the state or null when none is saved, throws when it cannot be read: not root, corrupt).
 * Never a guess: without a state naming one, the label says the engine is unknown and why.
 */
export async function queriesEngine(read: () => Promise<{ engine: EngineName | null } | null>): Promise<QueriesEngine> {
  let why: string;
  try {
    const state = await read();
    if (state?.engine) return { engine: state.engine, label: state.engine };
    why = state ? 'the saved state names no engine' : 'no saved state: K2s DNS is not running';
  } catch (err) {
    why = (err as NodeJS.ErrnoException).code === 'EACCES' ? 'permission denied: root reads it' : (err as Error).message;
  }
  return { engine: null, label: `engine unknown (state unreadable: ${why})` };
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
