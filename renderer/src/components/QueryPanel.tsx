/** Query tester: name, type, target, UDP/TCP; single run or compare across all targets; history. */
import { QUERY_TYPES, type QueryType } from '../../../shared/types';
import { targetDescription, targetOf, targetTitle } from '../lib/query-target';
import { matchRoute } from '../lib/route';
import { useDns, useQuery, useZones } from '../stores';
import { QueryResultCard } from './QueryResultCard';

/** The Query tester panel. */
export function QueryPanel() {
  const { form, targets, result, comparison, history, running, error, setForm, run, compareAll } = useQuery((s) => s);
  const labelOf = (server: string) => targetTitle(targetOf(targets, server), server);
  const zones = useZones((s) => s.discovery?.zones ?? []);
  const upstreams = useDns((s) => s.status?.upstreams ?? []);
  // The zone route applies only to the K2s proxy; other targets get a sentence on what they are.
  const resultTarget = result ? targetOf(targets, result.server) : null;
  const route = result && resultTarget?.id === 'proxy' ? matchRoute(result.name, result.type, zones, upstreams) : null;
  const about = result && resultTarget ? targetDescription(resultTarget) : null;
  return (
    <section className="panel" data-testid="panel-query">
      <h2>Query tester</h2>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <input className="grow" value={form.name} maxLength={253} onChange={(e) => setForm({ name: e.target.value })} aria-label="Name" placeholder="name, or an IP for PTR" title="A DNS name, or an IPv4/IPv6 address for a PTR lookup" data-testid="query-name" />
        <select value={form.type} onChange={(e) => setForm({ type: e.target.value as QueryType })} aria-label="Type" data-testid="query-type">
          {QUERY_TYPES.map((t) => <option key={t}>{t}</option>)}
        </select>
        <select value={form.target} onChange={(e) => setForm({ target: e.target.value })} aria-label="Target" data-testid="query-target">
          {targets.map((t) => <option key={t.id} value={t.id}>{t.label}</option>)}
        </select>
        <label className="check"><input type="radio" checked={form.transport === 'udp'} onChange={() => setForm({ transport: 'udp' })} /> UDP</label>
        <label className="check"><input type="radio" checked={form.transport === 'tcp'} onChange={() => setForm({ transport: 'tcp' })} data-testid="query-tcp" /> TCP</label>
        <button type="submit" disabled={running} title={running ? 'Wait: a query is still running.' : 'Run the query once'} data-testid="query-run">Query</button>
        <button type="button" className="secondary" disabled={running || targets.length === 0} title={running ? 'Wait: a query is still running.' : targets.length === 0 ? 'No targets loaded yet.' : 'Ask every target the same question'} onClick={() => void compareAll()} data-testid="query-compare">Compare across all targets</button>
      </form>
      {error && <p className="error-text" role="alert" data-testid="query-error">{error}</p>}
      {result && route && (
        <p className="route" data-testid="query-route">
          Route through the K2s proxy: <span className="mono">{route.name}</span>{' '}
          {route.zone ? (
            <>
              matches zone <strong className="mono" data-testid="query-route-zone">{route.zone}</strong>
              {route.clusterDomain ? ' (cluster domain)' : ''} → <span className="mono">{route.upstream}</span>
            </>
          ) : (
            <>
              matches no cluster zone → default upstreams <span className="mono">{route.upstream}</span>
            </>
          )}
        </p>
      )}
      {about && <p className="route muted" data-testid="query-target-about">{about}</p>}
      {result && <QueryResultCard result={result} label={labelOf(result.server)} />}
      {comparison && (
        <div className="compare" data-testid="query-compare-results">
          {comparison.map((r) => <QueryResultCard key={r.server} result={r} label={labelOf(r.server)} />)}
        </div>
      )}
      {history.length > 0 && (
        <>
          <h3>History</h3>
          <table className="table mono" data-testid="query-history">
            <thead><tr><th>Name</th><th>Type</th><th>Server</th><th>rcode</th><th>ms</th></tr></thead>
            <tbody>
              {history.map((h, i) => (
                <tr key={i} onClick={() => setForm({ name: h.name, type: h.type })} className="clickable">
                  <td>{h.name}</td><td>{h.type}</td><td>{h.server}</td><td>{h.rcode}</td><td>{h.latencyMs}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
