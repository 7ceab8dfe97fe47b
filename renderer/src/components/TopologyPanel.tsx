/** Topology: host apps → /etc/resolv.conf → k2s-dnsproxy listeners → CoreDNS / upstreams. */
import { RichText } from './RichText';
import { reportFitsStatus } from '../../../shared/health';
import { clockTime } from '../lib/last-known';
import { NOT_IN_USE, type Hop } from '../lib/topology';
import { useDns, useTopology } from '../stores';

const COLUMNS: { id: Hop['column']; title: string }[] = [
  { id: 'apps', title: 'Host apps' },
  { id: 'resolver', title: 'Resolver' },
  { id: 'proxy', title: 'Listeners' },
  { id: 'backend', title: 'CoreDNS / upstreams' },
];

/** The Topology panel; each hop shows its reason inline, the verdict's hop is marked. */
export function TopologyPanel() {
  const { hops, report, selected, probing, probedAt, error, select, probe } = useTopology((s) => s);
  const chosen = hops.find((h) => h.id === selected) ?? null;
  // The host moved on since this picture was taken (a Stop, a CLI start, a killed proxy).
  const status = useDns((s) => s.status);
  const outdated = report !== null && status !== null && !reportFitsStatus(report, status);
  return (
    <section className="panel" data-testid="panel-topology">
      <h2>Topology</h2>
      <div className="row">
        <button type="button" onClick={() => void probe()} disabled={probing} data-testid="topology-probe">{probing ? 'Checking…' : 'Check again'}</button>
        <span className="muted" data-testid="topology-probed-at">{probedAt ? `Last probe ${clockTime(probedAt)}` : 'Not probed yet'}</span>
      </div>
      {error && <p className="error-text" role="alert"><RichText text={error} /></p>}
      {outdated && <p className="muted" data-testid="topology-outdated">K2s DNS changed since this probe (now {status!.state}); probing again…</p>}
      {report && <p className={report.verdict.level === 'ok' ? 'ok-text' : report.verdict.level === 'off' ? 'muted' : 'error-text'} data-testid="topology-verdict"><RichText text={report.verdict.summary} /></p>}
      <div className="topology">
        {COLUMNS.map((c, i) => (
          <div key={c.id} className="topo-col">
            <h3>{c.title}</h3>
            {hops.filter((h) => h.column === c.id).map((h) => (
              <button
                key={h.id}
                type="button"
                className={`hop ${h.idle ? 'idle' : h.mark === 'warn' ? 'warn' : h.ok === null ? 'unknown' : h.ok ? 'ok' : 'bad'} ${selected === h.id ? 'selected' : ''} ${h.cause ? 'cause' : ''}`}
                onClick={() => select(selected === h.id ? null : h.id)}
                data-testid={`hop-${h.id}`}
                data-ok={String(h.ok)}
                data-mark={h.mark ?? 'unknown'}
                data-idle={String(!!h.idle)}
                title={h.idle ? NOT_IN_USE : undefined}
              >
                <strong>{h.label}</strong>
                <span className="mono">{h.detail}</span>
                {h.idle && <span className="muted">{NOT_IN_USE}</span>}
                {!h.idle && h.error && <span className="hop-reason" data-testid={`hop-reason-${h.id}`}><RichText text={h.error} /></span>}
              </button>
            ))}
            {i < COLUMNS.length - 1 && <span className="arrow" aria-hidden>→</span>}
          </div>
        ))}
      </div>
      {chosen && (
        <p className={chosen.idle || chosen.mark === 'idle' ? 'muted' : chosen.mark === 'warn' ? 'warn-text' : chosen.error && !chosen.ok ? 'error-text' : 'ok-text'} data-testid="hop-detail">
          {chosen.label} {chosen.detail}: {chosen.idle ? `${NOT_IN_USE}.` : (chosen.error ?? (chosen.ok ? 'answers as expected.' : 'not probed yet.'))}
        </p>
      )}
    </section>
  );
}
