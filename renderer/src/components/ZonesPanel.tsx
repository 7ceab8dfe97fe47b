/** Zones table: each stub domain, its upstream and why it is there; the cluster domain marked. */
import { useZones } from '../stores';

/** The Zones panel. */
export function ZonesPanel() {
  const discovery = useZones((s) => s.discovery);
  const error = useZones((s) => s.error);
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
                  </td>
                  <td className="mono">{z.upstream}</td>
                  <td>{z.reason}</td>
                  <td>{z.source}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {discovery.warnings.map((w) => (
            <p key={w} className="warn-text">{w}</p>
          ))}
        </>
      )}
    </section>
  );
}
