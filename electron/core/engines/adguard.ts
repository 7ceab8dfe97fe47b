/** AdGuard dnsproxy (pinned and shipped by K2s): YAML config, listeners in the config. */
import { K2S_DEFAULTS, K2S_PATHS } from '../../../shared/k2s-paths';
import { renderDnsproxyArgs } from '../../../shared/dnsproxy-args';
import { DNSPROXY_RUN_AS } from '../../../shared/systemd-unit';
import { dnsproxyZoneServer } from '../../../shared/zone-server';
import type { EngineRuntime } from './runtime';

/**
 * dnsproxy cannot drop root itself (docs/engines.md "dnsproxy privileges"): the service manager
 * runs it as DNSPROXY_RUN_AS. The command line's `-l` replaces the YAML's `listen-addrs`
 * (dnsproxy v0.83.1 internal/cmd/config.go parseConfig: flags are parsed again after the YAML),
 * so one config serves each unit's share of the listeners.
 */
export const ADGUARD: EngineRuntime = {
  configPath: K2S_PATHS.proxyConfig,
  // Loaded when a start renders the config: its yaml + tldts packages cost every other command ~50 ms.
  renderConfig: async (plan) => (await import('../../../shared/dnsproxy-config')).renderDnsproxyConfig(plan),
  binaryOf: (opts) => opts.dnsproxyPath ?? `${opts.installDir ?? K2S_DEFAULTS.installDir}/bin/dnsproxy`,
  missingText: (binary) => `AdGuard dnsproxy was not found at ${binary}; install K2s or pass --dnsproxy PATH, or use --engine dnsmasq.`,
  installText: 'K2s (it ships bin/dnsproxy)',
  args: (config, verbose) => renderDnsproxyArgs(config, verbose),
  onlyListeners: (argv, addresses) => [...argv, ...addresses.flatMap((a) => ['-l', a])],
  runAs: DNSPROXY_RUN_AS,
  selfDrop: null,
  zoneServer: dnsproxyZoneServer,
  configFacts: async (text) => (await import('../../../shared/proxy-config-facts')).dnsproxyConfigFacts(text),
};
