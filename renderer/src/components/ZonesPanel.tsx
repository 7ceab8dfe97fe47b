/**
 * Zones table: each stub domain, its upstream and why it is there; the cluster domain marked.
 * Below it the zones the zone policy keeps on the host's own upstreams, each with
 * why, and a toggle to allow the allowable ones (applied by the next Start).
 */
import { useZones } from '../stores';

/** The Zones panel. */
export function ZonesPanel() {
  const discovery = useZones((s) => s.discovery);
  const error = useZones((s) => s.error);
  const allowZones = useZones((s) => s.allowZones);
  const setAllowed = useZones((s) => s.setAllowed);
  const refused = discovery?.refusedZones ?? [];
  return (
    <section className="panel" data-testid="panel-zones">
      <h2>Zones</h2>
      {error && <p className="error-text" role="alert">{error}</p>}
      {discovery && (
        <>
          <p className="muted">
            Cluster domain <strong>{discovery.clusterDomain}</strong>, kube-dns {discovery.kubeDnsIp}, service CIDRs {discovery.serviceCidrs.join(', ')}, pod CIDRs{' '}
            {discovery.podCidrs.join(', ')} (from {discovery.cidrSource}).
          </p>
          <p className="muted" data-testid="zones-source">
            API server <span className="mono">{discovery.apiServer}</span> through <span className="mono">{discovery.kubeconfigPath}</span> (context {discovery.context})
            {discovery.corefileSource && <>; Corefile from ConfigMap <span className="mono">{discovery.corefileSource}</span></>}.
          </p>
          <table className="table" data-testid="zones-table">
            <thead>
              <tr><th>Zone</th><th>Upstream</th><th>Reason</th><th>Source</th></tr>
            </thead>
            <tbody>
              {discovery.zones.map((z) => (
                <tr key={z.zone} data-testid={`zone-${z.zone}`} className={z.clusterDomain ? 'highlight' : ''}>
                  <td className="mono">
                    {z.zone} {z.clusterDomain && <span className="badge ok" data-testid="cluster-domain-mark">cluster domain</span>}
                    {z.reverse && <span className="badge neutral">reverse</span>}
                    {discovery.allowedZones?.includes(z.zone) && (
                      <label className="badge warn">
                        <input type="checkbox" checked onChange={() => void setAllowed(z.zone, false)} data-testid={`allow-${z.zone}`} /> allowed by you
                      </label>
                    )}
                  </td>
                  <td className="mono">{z.upstream}</td>
                  <td>{z.reason}</td>
                  <td>{z.source}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {refused.length > 0 && (
            <>
              <h3>Not forwarded (zone policy)</h3>
              <p className="muted">These zones stay on the host's own upstreams so cluster data cannot take over host names. Allowing one applies at the next Start.</p>
              <table className="table" data-testid="refused-zones-table">
                <thead>
                  <tr><th>Zone</th><th>Why not</th><th>Where</th><th>Allow</th></tr>
                </thead>
                <tbody>
                  {refused.slice(0, 500).map((r) => (
                    <tr key={r.zone} data-testid={`refused-${r.zone}`}>
                      <td className="mono">{r.zone}</td>
                      <td>{r.why}</td>
                      <td>{r.reason}</td>
                      <td>
                        {r.allowable ? (
                          <input type="checkbox" aria-label={`Allow ${r.zone}`} checked={false} onChange={() => void setAllowed(r.zone, true)} data-testid={`allow-${r.zone}`} />
                        ) : (
                          <span className="muted">never</span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {refused.length > 500 && <p className="muted">… {refused.length - 500} more (k2s-dns zones --json lists all)</p>}
            </>
          )}
          {discovery.warnings.map((w) => (
            <p key={w} className="warn-text">{w}</p>
          ))}
        </>
      )}
    </section>
  );
}
