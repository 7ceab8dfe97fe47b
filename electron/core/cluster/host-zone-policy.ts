/**
 * The host side of the zone policy for `zones`, doctor and the app: the search
 * domains of the host's original resolver (the saved one while K2s DNS runs, else the current
 * /etc/resolv.conf) and the zones allowed at the last start (state file `allowedZones`).
 */
import type { ZonePolicyInput } from '../../../shared/corefile-policy';
import { K2S_DEFAULTS, K2S_PATHS } from '../../../shared/k2s-paths';
import { parseResolvConf } from '../../../shared/resolv-conf';
import type { HostFs } from '../host/host-fs';
import { readState } from '../host/resolver-state';
import { readResolverText, resolverText } from '../host/resolver-state';

/** Search domains, nameservers, the proxy's default listeners and remembered allowed zones, plus `extraAllow` (e.g. `--allow-zone`). Never throws. */
export async function hostZonePolicy(fs: HostFs, extraAllow: string[] = []): Promise<Required<ZonePolicyInput>> {
  const state = await readState(fs).catch(() => null);
  let text: string | null = state ? resolverText(state.resolvConf) : null;
  if (text === null) text = await readResolverText(fs);
  const parsed = text === null ? null : parseResolvConf(text);
  const allowZones = [...new Set([...(state?.allowedZones ?? []), ...extraAllow].map((z) => z.toLowerCase().replace(/\.$/, '')))];
  // The proxy's default listeners (a CoreDNS forwarding to one of them loops: shared/coredns-loop.ts).
  return { searchDomains: parsed?.search ?? [], allowZones, nameservers: parsed?.nameservers ?? [], proxyListeners: ['127.0.0.1', K2S_DEFAULTS.kubeSwitchAddress] };
}
