/** Debian's dnsmasq (dnsmasq-base): conf-file without listeners, listeners as flags. */
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { DNSMASQ_LISTEN_FLAG, dnsmasqDropFrom, renderDnsmasqArgs, renderDnsmasqConfig } from '../../../shared/dnsmasq-config';
import { dnsmasqZoneServer } from '../../../shared/zone-server';
import type { EngineRuntime } from './runtime';

/** Default Debian dnsmasq-base binary. */
export const DEFAULT_DNSMASQ = '/usr/sbin/dnsmasq';

/**
 * dnsmasq drops root by its own `--user`/`--group` (renderDnsmasqArgs), to Debian's `dnsmasq`
 * system user when the host has it, else to `nobody` with a warning (dnsmasqDropFrom). `--listen-address`
 * flags add to the config's (dnsmasq(8)), so the config has none and each process gets only
 * its own addresses' flags, in argv's place before `--user`/`--group`.
 */
export const DNSMASQ: EngineRuntime = {
  configPath: K2S_PATHS.dnsmasqConfig,
  renderConfig: async (plan) => renderDnsmasqConfig(plan),
  binaryOf: (opts) => opts.dnsmasqPath ?? DEFAULT_DNSMASQ,
  missingText: (binary) => `dnsmasq was not found at ${binary}; install it (apt-get install dnsmasq-base) or use --engine adguard.`,
  installText: 'dnsmasq (`apt-get install dnsmasq-base`)',
  args: (config, _verbose, listenAddresses, drop) => renderDnsmasqArgs(config, listenAddresses, drop?.user),
  selfDrop: dnsmasqDropFrom,
  onlyListeners: (argv, addresses) => {
    const at = argv.findIndex((w) => w.startsWith(DNSMASQ_LISTEN_FLAG));
    if (at < 0) throw new Error('The dnsmasq argv has no --listen-address= flag to split.');
    const rest = argv.filter((w) => !w.startsWith(DNSMASQ_LISTEN_FLAG));
    return [...rest.slice(0, at), ...addresses.map((a) => `${DNSMASQ_LISTEN_FLAG}${a}`), ...rest.slice(at)];
  },
  runAs: null,
  zoneServer: dnsmasqZoneServer,
  configFacts: async (text) => (await import('../../../shared/proxy-config-facts')).dnsmasqConfigFacts(text),
};
