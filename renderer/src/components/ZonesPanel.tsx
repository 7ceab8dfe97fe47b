/**
 * Zones table: each stub domain, its upstream and why it is there; the cluster domain marked.
 * Below it the zones the zone policy keeps on the host's own upstreams, each with
 * why, and a toggle to allow the allowable ones (applied by the next Start).
 * Every string here comes from the cluster: shown through shared/visible-text.ts (bidi and
 * invisible characters escaped, a non-ASCII name with its punycode beside it), as the CLI does.
 */
import { RichText } from './RichText';
import { CADENCE_MS } from '../../../shared/cadence';
import { lastKnownText } from '../lib/last-known';
import { usePoll } from '../lib/use-poll';
import { useEffect } from 'react';
import { stores, useDns, useZones } from '../stores';
import { ZonesInUse } from './ZonesInUse';
import { escapeInvisible as t, visibleName as n } from '../../../shared/visible-text';

/** The Zones panel. */
export function ZonesPanel() {
  const discovery = useZones((s) => s.discovery);
  const error = useZones((s) => s.error);
  const allowZones = useZones((s) => s.allowZones);
  const setAllowed = useZones((s) => s.setAllowed);
  const fetchedAt = useZones((s) => s.fetchedAt);
  const refresh = useZones((s) => s.refresh);
  usePoll(refresh, CADENCE_MS.zones);
  // Opening the tab: what it holds may be minutes old (the poll runs only while it is open), so
  // it asks at once unless it read the zones just now.
  useEffect(() => {
    const z = stores.zones.getState();
    if (z.fetchedAt === null || z.error !== null || Date.now() - z.fetchedAt > CADENCE_MS.zonesOnOpen) void z.refresh();
  }, []);
  const refused = discovery?.refusedZones ?? [];
  // Never read from the API (the window opened while it does not answer): what the running proxy routes.
  const inUse = useDns((s) => (s.status && s.status.state !== 'stopped' ? s.status.zonesInUse ?? null : null));
  return (
    <section className="panel" data-testid="panel-zones">
      <h2>Zones</h2>
      {error && <p className="error-text" role="alert"><RichText text={error} /></p>}
      {error && discovery && fetchedAt !== null && (
        <p className="warn-text" data-testid="zones-last-known">
          The zones below are {lastKnownText(fetchedAt)}; this tab asks again every {CADENCE_MS.zones / 1000} s.
        </p>
      )}
      {error && !discovery && <ZonesInUse zones={inUse} />}
      {discovery && (
        <>
          <p className="muted">
            Cluster domain <strong>{n(discovery.clusterDomain)}</strong>, kube-dns {t(discovery.kubeDnsIp)}, service CIDRs {t(discovery.serviceCidrs.join(', '))}, pod CIDRs{' '}
            {t(discovery.podCidrs.join(', '))} (from {t(discovery.cidrSource)}).
          </p>
          <p className="muted" data-testid="zones-source">
            API server <span className="mono">{t(discovery.apiServer)}</span> through <span className="mono">{t(discovery.kubeconfigPath)}</span> (context {t(discovery.context)})
            {discovery.corefileSource && <>; Corefile from ConfigMap <span className="mono">{t(discovery.corefileSource)}</span></>}.
          </p>
          <table className="table" data-testid="zones-table">
            <thead>
              <tr><th>Zone</th><th>Upstream</th><th>Reason</th><th>Source</th></tr>
            </thead>
            <tbody>
              {discovery.zones.map((z) => (
                <tr key={z.zone} data-testid={`zone-${z.zone}`} className={z.clusterDomain ? 'highlight' : ''}>
                  <td className="mono">
                    <span data-testid="zone-name">{n(z.zone)}</span> {z.clusterDomain && <span className="badge ok" data-testid="cluster-domain-mark">cluster domain</span>}
                    {z.reverse && <span className="badge neutral">reverse</span>}
                    {discovery.allowedZones?.includes(z.zone) && (
                      <label className="badge warn">
                        <input type="checkbox" checked onChange={() => void setAllowed(z.zone, false)} data-testid={`allow-${z.zone}`} /> allowed by you
                      </label>
                    )}
                  </td>
                  <td className="mono">{t(z.upstream)}</td>
                  <td>{t(z.reason)}</td>
                  <td>{t(z.source)}</td>
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
                      <td className="mono">{n(r.zone)}</td>
                      <td>{t(r.why)}</td>
                      <td>{t(r.reason)}</td>
                      <td>
                        {r.allowable ? (
                          <input type="checkbox" aria-label={`Allow ${n(r.zone)}`} checked={false} onChange={() => void setAllowed(r.zone, true)} data-testid={`allow-${r.zone}`} />
                        ) : (
                          <span className="muted">never</span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {refused.length > 500 && <p className="muted">… {refused.length - 500} more (the CLI's zones --json lists all)</p>}
            </>
          )}
          {discovery.warnings.map((w) => (
            <p key={w} className="warn-text">{t(w)}</p>
          ))}
        </>
      )}
    </section>
  );
}
