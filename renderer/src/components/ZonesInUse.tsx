/**
 * The zones the running proxy routes, from its saved plan (HostDnsStatus.zonesInUse): what the
 * Zones tab shows while the API does not answer and it has no zones of its own to show. Every
 * string came from the cluster once: shown through shared/visible-text.ts, as the Zones table.
 */
import type { ZoneRoute } from '../../../shared/types';
import { escapeInvisible as t, visibleName as n } from '../../../shared/visible-text';

/** The table, labelled as the running proxy's; nothing when `zones` is null or empty (stopped, or not known). */
export function ZonesInUse({ zones }: { zones: ZoneRoute[] | null }) {
  if (!zones || zones.length === 0) return null;
  return (
    <>
      <h3 data-testid="zones-in-use-heading">Zones in use by the running proxy (the API does not answer)</h3>
      <p className="muted">What K2s DNS forwards now, as Start set it up; the Corefile's reasons and the refused zones follow when the API answers again.</p>
      <table className="table" data-testid="zones-in-use">
        <thead>
          <tr><th>Zone</th><th>Upstream</th><th>Reason</th></tr>
        </thead>
        <tbody>
          {zones.map((z) => (
            <tr key={z.zone} data-testid={`zone-in-use-${z.zone}`} className={z.clusterDomain ? 'highlight' : ''}>
              <td className="mono">
                {n(z.zone)} {z.clusterDomain && <span className="badge ok">cluster domain</span>}
                {z.reverse && <span className="badge neutral">reverse</span>}
              </td>
              <td className="mono">{t(z.upstream)}</td>
              <td>{t(z.reason)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
