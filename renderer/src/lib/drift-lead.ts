/** The drift banner's first sentence (components/DriftBanner.tsx). Pure. */
import { viaK2sWords, type DriftRoute } from '../../../shared/drift-route';

/**
 * The banner's first sentence, agreeing with the verdict (new-user pass: "may no longer resolve"
 * under a verdict saying "do not resolve"): `resolves` from the health report, null before one.
 */
export function driftLead(resolves: boolean | null): string {
  if (resolves === true) return 'Cluster names still resolve on this host, but not through K2s DNS.';
  if (resolves === false) return 'Cluster names do not resolve on this host.';
  return 'Host apps no longer ask K2s DNS.';
}

/**
 * The first sentence when their file still reaches k2s-dnsproxy (DriftRoute.viaK2s): host apps
 * still go through K2s DNS, as glibc uses the file; `resolves` as in driftLead.
 */
export function driftViaLead(resolves: boolean | null, route: Pick<DriftRoute, 'implicit' | 'nameservers'>): string {
  const names = resolves === false ? 'Cluster names do not resolve on this host (see the verdict below), but not because of this file:' : 'Host apps still go through K2s DNS:';
  return `${names} ${viaK2sWords(route)}.`;
}
