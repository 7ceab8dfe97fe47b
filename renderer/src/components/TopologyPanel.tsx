/** Topology: host apps → /etc/resolv.conf → k2s-dnsproxy listeners → CoreDNS / upstreams. */
import { NOT_IN_USE, type Hop } from '../lib/topology';
import { useTopology } from '../stores';

const COLUMNS: { id: Hop['column']; title: string }[] = [
  { id: 'apps', title: 'Host apps' },
  { id: 'resolver', title: 'Resolver' },
  { id: 'proxy', title: 'Listeners' },
  { id: 'backend', title: 'CoreDNS / upstreams' },
];

/** The Topology panel; click a hop to see its error. */
export function TopologyPanel() {
  const { hops, selected, probing, probedAt, error, select, probe } = useTopology((s) => s);
  const chosen = hops.find((h) => h.id === selected) ?? null;
  return (
    <section className="panel" data-testid="panel-topology">
      <h2>Topology</h2>
      <div className="row">
        <button type="button" onClick={() => void probe()} disabled={probing} data-testid="topology-probe">{probing ? 'Probing…' : 'Probe again'}</button>
        <span className="muted">{probedAt ? `Last probe ${new Date(probedAt).toLocaleTimeString()}` : 'Not probed yet'}</span>
      </div>
      {error && <p className="error-text" role="alert">{error}</p>}
      <div className="topology">
        {COLUMNS.map((c, i) => (
          <div key={c.id} className="topo-col">
            <h3>{c.title}</h3>
            {hops.filter((h) => h.column === c.id).map((h) => (
              <button
                key={h.id}
                type="button"
                className={`hop ${h.idle ? 'idle' : h.ok === null ? 'unknown' : h.ok ? 'ok' : 'bad'} ${selected === h.id ? 'selected' : ''}`}
                onClick={() => select(selected === h.id ? null : h.id)}
                data-testid={`hop-${h.id}`}
                data-ok={String(h.ok)}
                data-idle={String(!!h.idle)}
                title={h.idle ? NOT_IN_USE : undefined}
              >
                <strong>{h.label}</strong>
                <span className="mono">{h.detail}</span>
                {h.idle && <span className="muted">{NOT_IN_USE}</span>}
              </button>
            ))}
            {i < COLUMNS.length - 1 && <span className="arrow" aria-hidden>→</span>}
          </div>
        ))}
      </div>
      {chosen && (
        <p className={chosen.idle ? 'muted' : chosen.error ? 'error-text' : 'ok-text'} data-testid="hop-detail">
          {chosen.label} {chosen.detail}: {chosen.idle ? `${NOT_IN_USE}.` : (chosen.error ?? (chosen.ok ? 'answers as expected.' : 'not probed yet.'))}
        </p>
      )}
    </section>
  );
}
