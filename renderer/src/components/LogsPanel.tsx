/** Proxy log: virtualized list, pause/resume, level and text filters, errors highlighted. */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import { LEVELS, filterLines, formatFields } from '../lib/log-filter';
import { useLogs } from '../stores';

const ROW_PX = 24;

/** The Logs panel. */
export function LogsPanel() {
  const lines = useLogs((s) => s.lines);
  const pending = useLogs((s) => s.pending.length);
  const paused = useLogs((s) => s.paused);
  const levels = useLogs((s) => s.levels);
  const text = useLogs((s) => s.text);
  const { setPaused, toggleLevel, setText } = useLogs((s) => s);
  const visible = useMemo(() => filterLines(lines, levels, text), [lines, levels, text]);
  const parent = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: visible.length, getScrollElement: () => parent.current, estimateSize: () => ROW_PX, overscan: 20 });

  return (
    <section className="panel" data-testid="panel-logs">
      <h2>Logs</h2>
      <div className="row">
        <button type="button" onClick={() => setPaused(!paused)} data-testid="logs-pause">
          {paused ? `Resume (${pending} new)` : 'Pause'}
        </button>
        {LEVELS.map((l) => (
          <label key={l} className="check">
            <input type="checkbox" checked={levels[l]} onChange={() => toggleLevel(l)} data-testid={`logs-level-${l}`} /> {l}
          </label>
        ))}
        <input type="search" placeholder="Filter text" value={text} onChange={(e) => setText(e.target.value)} data-testid="logs-filter" />
        <span className="muted" data-testid="logs-count">{visible.length} of {lines.length} lines</span>
      </div>
      <div className="log-head mono">
        <span>Time</span><span>Level</span><span>Message</span><span>Fields</span>
      </div>
      <div ref={parent} className="log-scroll mono" data-testid="logs-list">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const l = visible[item.index]!;
            return (
              <div key={item.key} className={`log-row level-${l.level}`} style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_PX, transform: `translateY(${item.start}px)` }} title={l.raw} data-testid="log-row">
                <span>{l.time ? new Date(l.time).toLocaleTimeString() : ''}</span>
                <span>{l.level}</span>
                <span>{l.message}</span>
                <span>{formatFields(l.fields)}</span>
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
