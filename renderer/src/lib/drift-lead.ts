/** The drift banner's first sentence (components/DriftBanner.tsx). Pure. */

/**
 * The banner's first sentence, agreeing with the verdict (new-user pass: "may no longer resolve"
 * under a verdict saying "do not resolve"): `resolves` from the health report, null before one.
 */
export function driftLead(resolves: boolean | null): string {
  if (resolves === true) return 'Cluster names still resolve on this host, but not through K2s DNS.';
  if (resolves === false) return 'Cluster names do not resolve on this host.';
  return 'Host apps no longer ask K2s DNS.';
}
