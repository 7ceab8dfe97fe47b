/**
 * One query result: rcode, answers with TTLs, latency, why an answer spells the name asked with
 * other capitals, and the equivalent shell command (dig, or getent for the system resolver).
 */
import { useEffect, useState } from 'react';
import type { QueryResult } from '../../../shared/types';
import { reconcileSystemResult } from '../../../shared/health';
import { useHealth } from '../stores';
import { digCommand } from '../lib/dig-command';
import { ttlText } from '../lib/log-counts';
import { announcer } from './LiveRegion';
import { resultLabel, resultTone } from '../lib/gai-words';
import { doesNotAnswerWords, portUnreachableError } from '../../../shared/probe-failure';
import { answerCaseNote } from '../../../shared/answer-case';

/** How long the copy button says "Copied" (ms). */
export const COPIED_MS = 2000;

/**
 * Shows `result`; `label` names the target; `stale` while a newer query runs (the result is the
 * previous one); `note`: what the rcode means on this route (the K2s proxy's SERVFAIL for a
 * cluster name: shared/servfail-note.ts), shown under the error line.
 */
export function QueryResultCard({ result: asked, label, stale = false, note = null }: { result: QueryResult; label?: string; stale?: boolean; note?: string | null }) {
  // One model: getaddrinfo's search-list NXDOMAIN is read as the Topology reads it (shared/health.ts).
  const report = useHealth((s) => s.report);
  const result = reconcileSystemResult(asked, report);
  const dig = digCommand(result);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(null), COPIED_MS);
    return () => clearTimeout(t);
  }, [copied]);
  const copy = async () => {
    // navigator.clipboard exists only in secure contexts (Electron, https, 127.0.0.1 counts as secure).
    const ok = await navigator.clipboard?.writeText(dig).then(() => true, () => false);
    setCopied(ok ? 'yes' : 'failed');
    announcer.say(ok ? `Copied: ${dig}` : 'Could not copy: the clipboard is not available; select the command and copy it by hand.');
  };
  const what = result.server === 'system' ? 'getent command' : 'dig command';
  // A DNS server refused (port unreachable) or silent is one fact, as on the verdict and the
  // Topology (shared/probe-failure.ts DOES_NOT_ANSWER); the rcode badge keeps which one.
  // Only the probe's own words (electron/core/probes/dns-query.ts): a sentence the backend wrote
  // instead (K2s DNS is not running…) says more and stays.
  const probeWords = result.error === portUnreachableError(result.server) || /^no answer from \S+ over (UDP|TCP)$/.test(result.error ?? '');
  const silent = result.transport === 'getaddrinfo' || !probeWords ? null : doesNotAnswerWords(result.server, result);
  // An answer naming the question with other capitals keeps its spelling (as dig shows it); why, in
  // the words `k2s-dns query` prints under its answers (shared/answer-case.ts).
  const caseNote = answerCaseNote(result.name, result.answers);
  return (
    <div className={`card${stale ? ' stale' : ''}`} data-testid="query-result" data-stale={String(stale)} aria-hidden={stale || undefined}>
      {stale && <p className="muted" data-testid="query-stale">Previous result ({result.name} {result.type}) — a new query is running.</p>}
      <div className="row">
        <strong>{label ?? result.server}</strong>
        <span className={`badge ${resultTone(result)}`} data-testid="query-rcode" title={result.transport === 'getaddrinfo' ? 'getaddrinfo has no rcode: addresses, or its EAI_* error code' : 'DNS response code'}>{resultLabel(result)}</span>
        <span className="muted" data-testid="query-latency">{result.latencyMs} ms · {result.transport}</span>
      </div>
      {result.error && <p className="error-text" data-testid="query-error" title={silent ? result.error : undefined}>{silent ?? result.error}</p>}
      {note && <p className="error-text" data-testid="query-rcode-note">{note}</p>}
      {result.answers.length > 0 ? (
        <table className="table mono" data-testid="query-answers">
          <tbody>
            {result.answers.map((a, i) => (
              <tr key={i}>
                <td className="answer-name">{a.name}</td>
                <td title={result.transport === 'getaddrinfo' ? 'getaddrinfo returns no TTL' : 'TTL in seconds'} data-testid="answer-ttl">{ttlText(result.transport, a.ttl)}</td>
                <td>{a.type}</td>
                <td>{a.data}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">{resultTone(result) === 'warn' ? `No answers: NOERROR without a record (NODATA) — no ${result.type} record for this name from ${label ?? result.server}.` : 'No answers.'}</p>
      )}
      {caseNote && <p className="muted" data-testid="query-case-note">Note: {caseNote}</p>}
      <div className="row">
        <code className="dig" data-testid="query-dig">{dig}</code>
        <button type="button" className="secondary" onClick={() => void copy()} data-testid="query-copy">
          {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Copy failed: select it by hand' : `Copy as ${what}`}
        </button>
      </div>
    </div>
  );
}
