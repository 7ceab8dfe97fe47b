/** One query result: rcode, answers with TTLs, latency, and the equivalent shell command (dig, or getent for the system resolver). */
import type { QueryResult } from '../../../shared/types';
import { digCommand } from '../lib/dig-command';

/** Shows `result`; `label` names the target. */
export function QueryResultCard({ result, label }: { result: QueryResult; label?: string }) {
  const dig = digCommand(result);
  return (
    <div className="card" data-testid="query-result">
      <div className="row">
        <strong>{label ?? result.server}</strong>
        <span className={`badge ${result.rcode === 'NOERROR' ? 'ok' : 'bad'}`} data-testid="query-rcode">{result.rcode}</span>
        <span className="muted" data-testid="query-latency">{result.latencyMs} ms · {result.transport}</span>
      </div>
      {result.error && <p className="error-text">{result.error}</p>}
      {result.answers.length > 0 ? (
        <table className="table mono" data-testid="query-answers">
          <tbody>
            {result.answers.map((a, i) => (
              <tr key={i}>
                <td className="answer-name">{a.name}</td>
                <td>{a.ttl}</td>
                <td>{a.type}</td>
                <td>{a.data}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No answers.</p>
      )}
      <div className="row">
        <code className="dig" data-testid="query-dig">{dig}</code>
        <button type="button" className="secondary" onClick={() => void navigator.clipboard?.writeText(dig)}>
          {result.server === 'system' ? 'Copy as getent command' : 'Copy as dig command'}
        </button>
      </div>
    </div>
  );
}
