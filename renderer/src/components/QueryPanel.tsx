/**
 * Query tester: name, type, target, UDP/TCP; single run or compare across all targets; history
 * rows re-run. Defaults to the system resolver (what host apps use); refuses a form it can tell
 * is wrong with one readable sentence; shows what is in flight; explains short names, and any
 * relative or `.svc` name that got NXDOMAIN, with the host's search list and ndots
 * (resolv.conf(5)): each candidate glibc asks with its rcode, where glibc stops, and the `.svc`
 * hint (shared/search-explain.ts, the words `k2s-dns query` prints too).
 */
import { RichText } from './RichText';
import { useEffect, useMemo } from 'react';
import { QUERY_TYPES, type QueryType } from '../../../shared/types';
import { targetDescription, targetOf, targetTitle } from '../lib/query-target';
import { matchRoute } from '../lib/route';
import { routeBreak, routeListeners, systemRoute } from '../lib/system-route';
import { routeZones, routeZonesNote } from '../lib/route-zones';
import { isShortName, ndotsWords, parseSearchConfig, searchCandidates, svcHint } from '../lib/search-list';
import { explainSteps, explainSummary, internetNameOf, resultNeedsSearchExplain } from '../../../shared/search-explain';
import { useIcannSuffix } from '../lib/internet-suffix';
import { stores, useDiff, useDns, useHealth, useQuery, useZones } from '../stores';
import { QueryResultCard } from './QueryResultCard';
import { resultLabel } from '../lib/gai-words';
import { clusterServfailNote } from '../../../shared/servfail-note';
import type { QueryResult } from '../../../shared/types';

// Stable fallbacks: a selector that returns a new `[]` on every call makes zustand's
// useSyncExternalStore see a changed snapshot each render — "Maximum update depth exceeded"
// whenever zones failed to load (API server down, 504 on zones:list).
const NO_UPSTREAMS: string[] = [];

/** The Query tester panel. */
export function QueryPanel() {
  const { form, targets, result, comparison, candidates, history, running, inFlight, error, setForm, run, compareAll, rerun } = useQuery((s) => s);
  const labelOf = (server: string) => targetTitle(targetOf(targets, server), server);
  const discovery = useZones((s) => s.discovery);
  const zonesError = useZones((s) => s.error);
  const status = useDns((s) => s.status);
  // The cluster's zones while the API answers, else the running proxy's (lib/route-zones.ts), as the Zones tab;
  // for a user who cannot read root's saved plan, those its config routes.
  const zoneSet = useMemo(() => routeZones(discovery, zonesError, status), [discovery, zonesError, status]);
  const report = useHealth((s) => s.report);
  // The saved state's default upstreams, else (root-only state) those the running proxy's config names.
  const upstreams = useDns((s) => (s.status?.upstreams.length ? s.status.upstreams : (s.status?.configFacts?.upstreams ?? NO_UPSTREAMS)));
  const clusterDomain = useDns((s) => s.status?.clusterDomain ?? null);
  const resolvConf = useDiff((s) => s.diff?.currentText ?? null);
  const searchCfg = useMemo(() => (resolvConf === null ? null : parseSearchConfig(resolvConf)), [resolvConf]);
  // The recorded start's listeners in every state but stopped: CoreDNS down makes status `degraded`, yet host apps still ask the proxy.
  const listeners = useDns((s) => routeListeners(s.status));
  // The zone route applies only to the K2s proxy; other targets get a sentence on what they are.
  // The System resolver's route starts at /etc/resolv.conf: through the proxy (then its zone
  // route too) or straight to the host's own nameserver, as Topology draws it.
  const resultTarget = result ? targetOf(targets, result.server) : null;
  const sysRoute = result && resultTarget?.id === 'system' && resolvConf !== null ? systemRoute(resolvConf, listeners) : null;
  const about = result && resultTarget ? targetDescription(resultTarget) : null;
  // A short name (fewer dots than ndots), or any relative or `.svc` name that got NXDOMAIN / no
  // answer (`kubernetes.default`, `my.ns.svc`): the candidates glibc asks (shared/search-list.ts).
  // Compare: one explanation under the table, worded for host apps (the System resolver's
  // result when it is in the table), shown when any target's result calls for it.
  const compared = comparison ? (comparison.find((r) => targetOf(targets, r.server)?.id === 'system') ?? comparison[0] ?? null) : null;
  const basis = result ?? compared;
  const basisTarget = basis ? targetOf(targets, basis.server) : null;
  const isShort = !!(basis && searchCfg && (basis.type === 'A' || basis.type === 'AAAA') && isShortName(basis.name, searchCfg));
  // Only getaddrinfo applies the search list: in a compare with the System resolver, an upstream's
  // NXDOMAIN for a cluster name (it never knows one) explains nothing (third walk).
  const systemCompared = compared && basisTarget?.id === 'system' ? compared : null;
  const needsExplain = result ? resultNeedsSearchExplain(result) : systemCompared ? resultNeedsSearchExplain(systemCompared) : (comparison ?? []).some(resultNeedsSearchExplain);
  const short = basis && searchCfg && (isShort || needsExplain) ? basis.name : null;
  const candidateNames = short && searchCfg ? searchCandidates(short, searchCfg) : null;
  const walked = short && searchCfg && candidates && candidates.every((c) => c.result !== null)
    ? explainSteps(short, searchCfg, candidates.map((c) => ({ name: c.name, rcode: c.result!.rcode, answers: c.result!.answers.map((a) => a.data) })))
    : null;
  const svc = short && searchCfg ? svcHint(short, searchCfg, clusterDomain) : null;
  // The name's ICANN public suffix (undefined while its chunk loads): an Internet name gets no cluster form.
  const internetSuffix = useIcannSuffix(short);
  // Through the proxy, the System resolver's name takes the proxy's zone route, unless glibc's search list applies (its candidates are below).
  const route = result && (resultTarget?.id === 'proxy' || (sysRoute?.viaK2s && short === null)) ? matchRoute(result.name, result.type, zoneSet.zones, upstreams) : null;
  // Where the route breaks, as the verdict names it (CoreDNS does not answer): through the proxy only.
  const broken = result && (resultTarget?.id === 'proxy' || sysRoute?.viaK2s) ? routeBreak(report, route) : null;
  const zonesNote = routeZonesNote(zoneSet);
  // The K2s proxy's SERVFAIL for a cluster name: CoreDNS gave it no answer (the words `k2s-dns query` prints, shared/servfail-note.ts),
  // matched against the route's zones (for a user who reads neither the cluster nor the saved plan, the running proxy's config's).
  const servfailNote = (r: QueryResult) => (targetOf(targets, r.server)?.id === 'proxy' ? clusterServfailNote(r.name, r.type, r.rcode, zoneSet.zones, 'the health verdict at the top of the window says why') : null);

  useEffect(() => {
    if (stores.diff.getState().diff === null) void stores.diff.getState().refresh();
  }, []);
  // A short name just answered: ask each candidate too (the target whose words the card uses),
  // so the panel shows which one resolves.
  useEffect(() => {
    if (candidateNames && candidateNames.length > 0) void stores.query.getState().tryCandidates(candidateNames, basisTarget?.id);
  }, [result, comparison]);

  const shortCard = short && searchCfg && candidateNames && (
    <div className="card" data-testid="query-short-name">
      <p>
        {isShort ? (
          <>
            <strong className="mono">{short}</strong> has fewer dots than <span className="mono" data-testid="query-ndots">{ndotsWords(searchCfg)}</span>, so it is a short name:{' '}
          </>
        ) : short.endsWith('.') ? (
          <>
            <strong className="mono">{short}</strong> ends in a dot, so it is asked only as it is:{' '}
          </>
        ) : (
          <>
            <strong className="mono">{short}</strong> is a relative name; with <span className="mono" data-testid="query-ndots">{ndotsWords(searchCfg)}</span> glibc asks it as it is first, then with each search domain:{' '}
          </>
        )}
        {short.endsWith('.')
          ? ''
          : searchCfg.search.length === 0
            ? 'there is no search list, so glibc asks it only as it is.'
            : basisTarget?.id === 'system'
              ? `host apps (glibc) try the search list ${searchCfg.search.join(', ')} in order and stop at the first name that exists:`
              : `a nameserver asked directly gets it as it is; host apps (glibc) would try the search list ${searchCfg.search.join(', ')} in order:`}
      </p>
      <ol className="candidates mono">
        {(candidates ?? candidateNames.map((name) => ({ name, result: null }))).map((c, i) => (
          <li key={`${i}-${c.name}`} data-testid="query-candidate" data-rcode={c.result?.rcode ?? ''} data-asked={walked ? String(walked.steps[i]?.asked ?? false) : ''}>
            {c.name} —{' '}
            {c.result === null ? (
              <span className="muted">asking…</span>
            ) : (
              <span className={c.result.rcode === 'NOERROR' && c.result.answers.length > 0 ? 'ok-text' : 'error-text'}>
                {c.result.rcode === 'NOERROR' && c.result.answers.length > 0 ? `resolves: ${c.result.answers.map((a) => a.data).join(', ')}` : c.result.rcode === 'NOERROR' ? 'NOERROR, no answer' : c.result.rcode}
              </span>
            )}
            {walked && walked.steps[i] && !walked.steps[i]!.asked && <span className="muted"> (not asked: glibc stopped before it)</span>}
          </li>
        ))}
      </ol>
      {walked && !walked.answered && internetSuffix !== undefined && (
        <p className="muted" data-testid="query-short-none">
          {/* An Internet name (example.com) gets no cluster form: the CLI's rule (shared/search-explain.ts internetNameOf). */}
          {explainSummary(short, null, [], clusterDomain, searchCfg, internetNameOf(short, internetSuffix, walked.steps))}
        </p>
      )}
      {svc && <p className="muted" data-testid="query-svc-hint">{svc}</p>}
    </div>
  );

  return (
    <section className="panel" data-testid="panel-query" aria-busy={running}>
      <h2>Query tester</h2>
      <form
        className="row"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <input className="grow" value={form.name} onChange={(e) => setForm({ name: e.target.value })} aria-label="Name" aria-invalid={error !== null} aria-describedby={error ? 'query-error' : undefined} placeholder="name, or an IP for PTR" title="A DNS name, or an IPv4/IPv6 address for a PTR lookup" data-testid="query-name" />
        <select value={form.type} onChange={(e) => setForm({ type: e.target.value as QueryType })} aria-label="Type" data-testid="query-type">
          {QUERY_TYPES.map((t) => <option key={t}>{t}</option>)}
        </select>
        <select value={form.target} onChange={(e) => setForm({ target: e.target.value })} aria-label="Target" data-testid="query-target">
          {targets.length === 0 && <option value={form.target}>System resolver</option>}
          {targets.map((t) => <option key={t.id} value={t.id}>{t.label}</option>)}
        </select>
        <fieldset className="inline-fieldset">
          <legend className="sr-only">Transport</legend>
          <label className="check"><input type="radio" name="transport" checked={form.transport === 'udp'} onChange={() => setForm({ transport: 'udp' })} disabled={form.target === 'system'} /> UDP</label>
          <label className="check"><input type="radio" name="transport" checked={form.transport === 'tcp'} onChange={() => setForm({ transport: 'tcp' })} disabled={form.target === 'system'} data-testid="query-tcp" /> TCP</label>
        </fieldset>
        <button type="submit" disabled={running} title={running ? 'Wait: a query is still running.' : 'Run the query once'} data-testid="query-run">{running ? 'Querying…' : 'Query'}</button>
        <button type="button" className="secondary" disabled={running || targets.length === 0} title={running ? 'Wait: a query is still running.' : targets.length === 0 ? 'No targets loaded yet.' : 'Ask every target the same question'} onClick={() => void compareAll()} data-testid="query-compare">Compare across all targets</button>
      </form>
      {form.target === 'system' && <p className="muted small">The system resolver goes through getaddrinfo, so UDP/TCP is its own choice, not yours.</p>}
      {inFlight && <p className="inflight" data-testid="query-inflight">{inFlight}</p>}
      {error && <p className="error-text field-error" id="query-error" data-testid="query-error"><RichText text={error} /></p>}
      {result && sysRoute && !route && (
        <p className="route" data-testid="query-route">
          Route of the system resolver: <span className="mono">{sysRoute.words}</span>{sysRoute.viaK2s ? '; the names glibc asks are below' : ''}
          {broken && <>; <span className="error-text" data-testid="query-route-break">{broken}</span></>}.
        </p>
      )}
      {result && route && (
        <p className="route" data-testid="query-route">
          {sysRoute ? <>Route of the system resolver: <span className="mono">{sysRoute.words}</span>; there </> : 'Route through the K2s proxy: '}
          <span className="mono">{route.name}</span>{' '}
          {route.zone ? (
            <>
              matches zone <strong className="mono" data-testid="query-route-zone">{route.zone}</strong>
              {route.clusterDomain ? ' (cluster domain)' : ''} → <span className="mono">{route.upstream}</span>
            </>
          ) : zoneSet.from === 'none' ? (
            <>
              is matched against the cluster zones, which are not known now (the API does not answer and the running proxy's zones were not read)
            </>
          ) : (
            <>
              matches no cluster zone → default upstreams <span className="mono">{route.upstream}</span>
            </>
          )}
          {zonesNote && <span className="muted" data-testid="query-route-zones-from"> {zonesNote}</span>}
          {broken && <>; <span className="error-text" data-testid="query-route-break">{broken}</span></>}
        </p>
      )}
      {about && <p className="route muted" data-testid="query-target-about">{about}</p>}
      {result && shortCard}
      {result && <QueryResultCard result={result} label={labelOf(result.server)} stale={running} note={servfailNote(result)} />}
      {comparison && (
        <div className="compare" data-testid="query-compare-results">
          {comparison.map((r) => <QueryResultCard key={r.server} result={r} label={labelOf(r.server)} stale={running} note={servfailNote(r)} />)}
        </div>
      )}
      {comparison && shortCard}
      {history.length > 0 && (
        <>
          <h3>History</h3>
          <table className="table mono" data-testid="query-history">
            <thead><tr><th>Name</th><th>Type</th><th>Server</th><th>Result</th><th>ms</th><th><span className="sr-only">Action</span></th></tr></thead>
            <tbody>
              {history.map((h, i) => (
                <tr key={i} data-testid="query-history-row">
                  <td>{h.name}</td><td>{h.type}</td><td>{labelOf(h.server)}</td><td>{resultLabel(h)}</td><td>{h.latencyMs}</td>
                  <td>
                    <button type="button" className="link" disabled={running} onClick={() => void rerun(h)} aria-label={`Run again: ${h.name} ${h.type} against ${labelOf(h.server)}`} data-testid="query-history-rerun">
                      Run again
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
