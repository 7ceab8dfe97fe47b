/** The systemd-resolved drop-in K2s writes at K2S_PATHS.resolvedDropIn (pure renderer). */

/**
 * `[Resolve] DNS=127.0.0.1 Domains=~.` (resolved.conf(5)): send every name to the proxy, so glibc
 * programs using nss-resolve also get cluster DNS while K2s runs.
 */
export function renderResolvedDropIn(): string {
  return [
    '# Managed by K2s: sends all lookups from systemd-resolved to the K2s DNS proxy on 127.0.0.1.',
    '# Removed by k2s stop or uninstall.',
    '[Resolve]',
    'DNS=127.0.0.1',
    'Domains=~.',
    '',
  ].join('\n');
}
