/** Proxy log: virtualized list that follows new lines, pause/resume, level and text filters, errors highlighted. */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { LEVELS, filterLines, formatFields } from '../lib/log-filter';
import { useLogs } from '../stores';

const ROW_PX = 24;

/** True when the list is scrolled to (within one row of) its bottom. */
function atBottom(el: HTMLElement): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= ROW_PX;
}

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
  // "Follow" like tail -f: pinned to the bottom while not paused; scrolling up stops it, scrolling
  // back to the bottom resumes it.
  const [following, setFollowing] = useState(true);
  useEffect(() => {
    if (!following || paused || visible.length === 0) return;
    virtualizer.scrollToIndex(visible.length - 1, { align: 'end' });
  }, [visible.length, following, paused, virtualizer]);

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
        {!following && !paused && (
          <button type="button" className="secondary" onClick={() => setFollowing(true)} data-testid="logs-follow">
            Follow newest
          </button>
        )}
      </div>
      <div className="log-head mono">
        <span>Time</span><span>Level</span><span>Message</span><span>Fields</span>
      </div>
      <div ref={parent} className="log-scroll mono" data-testid="logs-list" data-following={String(following && !paused)} onScroll={(e) => setFollowing(atBottom(e.currentTarget))}>
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
