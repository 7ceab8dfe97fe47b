/** HealthProbes over the lifecycle's injected host access (LifecycleDeps). */
import type { LifecycleDeps } from '../lifecycle/deps';
import type { HealthProbes } from './check-health';
import { dnsStatus } from '../lifecycle/status';
import { captureResolver, resolverBytes } from '../host/resolver-state';
import { glibcResolverText } from '../../../shared/drift-route';
import { HEALTH_LOOP_TAIL_LINES, scanLiveLoops } from '../logs/live-loop-scan';
import { K2S_PATHS } from '../../../shared/k2s-paths';

/** Probes from `deps`; the getaddrinfo probe is deps.probeLookup (keeps the probe's spelling on the wire). */
export function healthProbes(deps: LifecycleDeps): HealthProbes {
  return {
    status: () => dnsStatus(deps),
    // As glibc reads it (shared/drift-route.ts glibcResolverText): the resolver hop's nameservers.
    resolvConfText: async () => {
      const bytes = resolverBytes(await captureResolver(deps.fs, deps.exec));
      return bytes === null ? null : glibcResolverText(bytes);
    },
    lookup: (name, timeoutMs) => deps.probeLookup(name, timeoutMs),
    query: (q) => deps.query(q),
    now: () => deps.now(),
    liveLoops: async (zones) => (await scanLiveLoops(deps.fs.real(K2S_PATHS.log), zones, HEALTH_LOOP_TAIL_LINES))?.loops ?? [],
  };
}
