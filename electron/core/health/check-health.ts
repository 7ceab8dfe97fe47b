/**
 * The end-to-end health check: probes every hop of the path a cluster name
 * takes on this host, in parallel, and folds them into a HealthReport with shared/health.ts.
 * Read-only; never throws for DNS or host problems (they are hop outcomes).
 */
import { K2S_DEFAULTS } from '../../../shared/k2s-paths';
import { RESOLVED_STUB_ADDRESSES } from '../../../shared/resolved-link';
import { healthVerdict, queryHop, reconcileHops, START_READS_KUBE_DNS, type HealthHop, type HealthReport } from '../../../shared/health';
import { healthProbeName } from '../../../shared/health-probe';
import type { HostDnsStatus, QueryResult, QueryType } from '../../../shared/types';
import { recentLoops, type LiveLoop } from '../../../shared/live-loop';
import { driftRoute, GLIBC_DEFAULT_NAMESERVER, viaK2sWords } from '../../../shared/drift-route';
import { GLIBC_MAXNS, parseResolvConf } from '../../../shared/resolv-conf';
import { verdictKeepRisk } from '../../../shared/drift-default';
import { askTheirNameservers } from '../lifecycle/their-nameservers';
import { formatServer } from '../host/parse-server';
import { missingResolverWords } from '../../../shared/resolver-missing';
import { startRefusalCode } from '../../../shared/network-writer';
import { followsNetwork } from './follows-network';

/** What the check asks the host; injected (electron/core/health/probes.ts builds it from LifecycleDeps). */
export interface HealthProbes {
  /** Host DNS status without health (electron/core/lifecycle/status.ts). */
  status(): Promise<HostDnsStatus>;
  /** Text /etc/resolv.conf resolves to now (file or link target), null when unreadable. */
  resolvConfText(): Promise<string | null>;
  /** getaddrinfo of `name`, as host programs see it; `timeoutMs` caps the wait. */
  lookup(name: string, timeoutMs: number): Promise<QueryResult>;
  /** One DNS query over UDP; never throws. */
  query(opts: { name: string; type: QueryType; server: string; timeoutMs: number }): Promise<QueryResult>;
  /** ms since the epoch. */
  now(): number;
  /**
   * CoreDNS ↔ proxy loops in the proxy's query log (electron/core/logs/live-loop-scan.ts, the
   * scan doctor's `coredns-loop` runs), for the cluster zones given; absent = not checked.
   */
  liveLoops?(clusterZones: string[]): Promise<LiveLoop[]>;
}

/** Deadlines in ms: a DNS hop, and getaddrinfo (glibc retries; a busy host answers in well under 1 s). */
export interface HealthOptions {
  queryTimeoutMs?: number;
  lookupTimeoutMs?: number;
  /**
   * Whether a start would find a kubeconfig (electron/core/cluster/kubeconfig-default.ts: this
   * process's lookup, and for the CLI also `sudo k2s-dns start`'s): false makes a kube-dns address
   * that is K2s's default say `no kubeconfig` (kubeDnsFrom). Absent: not looked up.
   */
  kubeconfigFound?: boolean;
  /**
   * The kube-dns ClusterIP the window's cluster discovery read (backend-real.ts `zones:list`, the
   * Cluster card's); while K2s DNS is stopped and no start saved one, the kube-dns hop is that
   * address, said as read from the cluster (kubeDnsFrom `cluster`). Absent: none read (the CLI).
   */
  clusterKubeDnsIp?: string;
}

/** Why a user's status shows K2s's default while K2s DNS runs and its proxy config named none (kubeDnsFrom `unread`). */
export const UNREAD_KUBE_DNS_WHY = 'the address start discovered is in the saved state, which only root reads';

/**
 * Where the kube-dns hop's address comes from (HealthHop.addressFrom): the ClusterIP start
 * discovered (the saved state's, or for a user the running proxy's config's: status.ts), else
 * K2s's default (K2S_DEFAULTS.kubeDnsIp) and why none is known — while K2s DNS runs and this user
 * cannot read the state, that it is there (`unread`: it was discovered, and no kubeconfig is
 * needed to know it), never "no kubeconfig"; while stopped, the ClusterIP `clusterKubeDnsIp` the
 * window's cluster discovery read (`cluster`), never "not discovered".
 */
export function kubeDnsFrom(status: Pick<HostDnsStatus, 'kubeDnsIp' | 'state' | 'stateUnreadable'>, kubeconfigFound: boolean | undefined, clusterKubeDnsIp?: string): NonNullable<HealthHop['addressFrom']> {
  if (status.kubeDnsIp) return { source: 'discovered', why: null };
  if (status.stateUnreadable && status.state !== 'stopped') return { source: 'unread', why: UNREAD_KUBE_DNS_WHY };
  if (clusterKubeDnsIp && status.state === 'stopped') return { source: 'cluster', why: null };
  if (kubeconfigFound === false) return { source: 'default', why: 'no kubeconfig' };
  // Start reads the Service from the cluster; status does not ask the cluster.
  return { source: 'default', why: status.state === 'stopped' ? START_READS_KUBE_DNS : 'not in the saved state' };
}

/** `IP:53` for a bare IPv4, `[v6]:53` for a bare IPv6; an endpoint with a port stays. */
function withPort(server: string): string {
  if (/^\[.*\]:\d+$/.test(server) || /^[0-9.]+:\d+$/.test(server)) return server;
  return server.includes(':') ? `[${server}]:53` : `${server}:53`;
}

/**
 * The listeners and default upstreams the running path's hops probe: the saved state's
 * (HostDnsStatus.listeners/upstreams), or, for a user who cannot read root's 0700 state while the
 * proxy runs, those the running proxy's 0644 config names (HostDnsStatus.configFacts, status.ts),
 * with that config's path in `fromConfig` so each hop says where its target came from (null: the
 * state's). dnsmasq's listeners are in no file (shared/proxy-config-facts.ts): none then.
 */
export function pathTargets(status: Pick<HostDnsStatus, 'listeners' | 'upstreams' | 'configFacts' | 'stateUnreadable' | 'state'>): { listeners: HostDnsStatus['listeners']; upstreams: string[]; fromConfig: string | null } {
  const facts = status.stateUnreadable && status.state !== 'stopped' && status.listeners.length === 0 && status.upstreams.length === 0 ? (status.configFacts ?? null) : null;
  if (!facts) return { listeners: status.listeners, upstreams: status.upstreams, fromConfig: null };
  return { listeners: facts.listeners, upstreams: facts.upstreams, fromConfig: facts.file };
}

/**
 * The listener a user's health line names when the state file (the listener list) is root's: the
 * running proxy's config's first (AdGuard dnsproxy's 0644 config, HostDnsStatus.configFacts), else
 * the first nameserver of K2s's own /etc/resolv.conf, which start writes with the listeners (not
 * on a systemd-resolved host, where it names resolved's stub). Null when the state gives them or
 * neither is known.
 */
export function shownListener(status: HostDnsStatus, resolver: HealthHop): string | null {
  if (status.listeners.length > 0) return null;
  const fromConfig = status.configFacts?.listeners[0];
  if (fromConfig) return formatServer(fromConfig);
  const first = resolver.outcome === 'k2s' && !status.resolvedRoute ? resolver.answers[0] : undefined;
  return first ? withPort(first) : null;
}

/** The resolver hop: who owns /etc/resolv.conf and whether its nameservers reach a listener. */
export function resolverHop(status: HostDnsStatus, text: string | null): HealthHop {
  const nameservers = text === null ? [] : parseResolvConf(text).nameservers;
  // On a systemd-resolved host the K2s-owned file names resolved's stub, which routes the
  // cluster zones to the proxy (shared/resolved-link.ts): that reaches k2s-dnsproxy too.
  const listenerAddrs = [...status.listeners.map((l) => l.address), ...(status.resolvedRoute ? RESOLVED_STUB_ADDRESSES : [])];
  // Status's typed flag (electron/core/lifecycle/status.ts sets it when the bytes are not K2s's),
  // never its note's words: a reworded note must not change the hop.
  const edited = status.resolverEdited === true;
  let outcome: HealthHop['outcome'] = status.resolverOwner;
  let reason: string | null = null;
  // K2s's file edited in place whose first nameserver glibc asks is still a listener: host apps
  // still go through K2s DNS (the drift banner's rule, shared/drift-route.ts), never "bypassed".
  const editedRoute = status.resolverOwner === 'k2s' && edited ? (text === null ? (status.driftRoute ?? null) : driftRoute(text, listenerAddrs)) : null;
  if (editedRoute?.viaK2s) {
    return { id: 'resolver', kind: 'resolver', target: '/etc/resolv.conf', name: null, type: null, outcome: 'k2s-edited', ok: true, answers: nameservers, rcode: null, reason: `K2s's /etc/resolv.conf was edited by another program, but host apps still ask k2s-dnsproxy: ${viaK2sWords(editedRoute)}`, latencyMs: null };
  }
  if (status.resolverOwner === 'k2s' && (edited || (listenerAddrs.length > 0 && !nameservers.some((n) => listenerAddrs.includes(n))))) {
    outcome = 'k2s-edited';
    reason = `/etc/resolv.conf has the K2s header but its nameservers (${nameservers.join(', ') || 'none'}) are not k2s-dnsproxy's`;
  } else if (status.resolverOwner === 'foreign' && status.driftRoute?.viaK2s) {
    // Their file still reaches the proxy (shared/drift-route.ts): the hop does what the path needs.
    // Deleted (or a dangling link): said as such, never as a file another program wrote (walk5 M5).
    const why = status.driftGone ? `/etc/resolv.conf was ${status.driftGone} while K2s DNS ran, but host apps still ask k2s-dnsproxy: with no file glibc asks ${GLIBC_DEFAULT_NAMESERVER}:53 (resolv.conf(5))` : `/etc/resolv.conf was ${status.driftVerb ?? 'replaced'} by ${status.driftWriter ?? 'another program'}, but host apps still ask k2s-dnsproxy: ${viaK2sWords(status.driftRoute)}`;
    return { id: 'resolver', kind: 'resolver', target: '/etc/resolv.conf', name: null, type: null, outcome: 'foreign', ok: true, answers: nameservers, rcode: null, reason: why, latencyMs: null, ...(status.resolverMissing ? { missing: status.resolverMissing } : {}) };
  } else if (status.resolverOwner === 'foreign' && status.driftGone) {
    reason = `/etc/resolv.conf was ${status.driftGone} while K2s DNS ran`;
  } else if (status.resolverOwner === 'foreign') {
    // The verb status's note and doctor say (HostDnsStatus.driftVerb: walk 11 L10).
    reason = `/etc/resolv.conf was ${status.driftVerb ?? 'replaced'} by ${status.driftWriter ?? 'another program'}: nameservers ${nameservers.join(', ') || 'none'}`;
  } else if (status.resolverOwner === 'original') {
    // "original" names a saved original; with nothing saved it is the host's own file (walk 9 L4).
    // A user who cannot read the state sees none: while stopped, the file in place is this host's
    // own whatever root's directory holds (status's note says how to be sure), never "original".
    const own = status.savedAt === null && (!status.stateUnreadable || status.state === 'stopped');
    // No file at all: said as missing, never "nameservers none" (walk 10 M5).
    const missing = status.resolverMissing;
    reason = missing
      ? `/etc/resolv.conf ${missingResolverWords(missing)}, so glibc asks ${GLIBC_DEFAULT_NAMESERVER}:53 (resolv.conf(5)): host apps do not ask k2s-dnsproxy`
      : `/etc/resolv.conf is ${own ? "this host's own file" : 'your original'} (nameservers ${nameservers.join(', ') || 'none'}): host apps do not ask k2s-dnsproxy`;
    // A file start refuses (NOT_RESOLVER_FILE, RESOLV_CONF_TOO_LARGE) is never the healthy stopped state (walk 9 L2).
    if (status.startRefusal) reason = `${reason}; start would refuse it (${startRefusalCode(status.startRefusal)}): it ${status.startRefusal.replace(/^the new file /, '')}`;
    return { id: 'resolver', kind: 'resolver', target: '/etc/resolv.conf', name: null, type: null, outcome, ok: false, answers: nameservers, rcode: null, reason, latencyMs: null, ...(own ? { hostOwn: true } : {}), ...(status.startRefusal ? { startRefusal: status.startRefusal } : {}), ...(missing ? { missing } : {}), ...(status.resolverWritable ? { writable: status.resolverWritable } : {}) };
  }
  return { id: 'resolver', kind: 'resolver', target: '/etc/resolv.conf', name: null, type: null, outcome, ok: outcome === 'k2s', answers: nameservers, rcode: null, reason, latencyMs: null, ...(outcome === 'foreign' && status.resolverMissing ? { missing: status.resolverMissing } : {}) };
}

/**
 * The nameservers probed while K2s DNS is stopped: your own file's. Loopback ones are left out
 * (a K2s-owned file left behind names the idle listener; resolved's stub is not a nameserver of
 * its own) — except when your file names nothing else, or no nameserver at all (glibc then asks
 * 127.0.0.1, resolv.conf(5)): then that address IS the host's nameserver and is probed, so a
 * kept file pointing at a proxy that is gone shows as "nothing answers on 127.0.0.1:53".
 */
export function offNameservers(resolver: Pick<HealthHop, 'outcome' | 'answers'>): string[] {
  const outside = resolver.answers.filter((n) => !n.startsWith('127.'));
  if (outside.length > 0 || resolver.outcome !== 'original') return outside;
  const own = resolver.answers.filter((n) => !(RESOLVED_STUB_ADDRESSES as readonly string[]).includes(n));
  if (resolver.answers.length === 0) return [GLIBC_DEFAULT_NAMESERVER];
  return own.length === resolver.answers.length ? own.slice(0, GLIBC_MAXNS) : [];
}

/** A hop that is not on the path now (K2s DNS stopped): drawn grey, never a failure. */
function idleHop(id: string, kind: HealthHop['kind'], target: string, reason: string): HealthHop {
  return { id, kind, target, name: null, type: null, outcome: 'idle', ok: false, answers: [], rcode: null, reason, latencyMs: null };
}

/**
 * Walks the path: getaddrinfo → resolv.conf → each listener → kube-dns → each upstream (running),
 * or getaddrinfo → resolv.conf → your own nameservers (stopped: the proxy and kube-dns are idle).
 * All probes run in parallel, so the check takes about the slowest deadline.
 */
export async function checkHealth(p: HealthProbes, opts: HealthOptions = {}): Promise<HealthReport> {
  const started = p.now();
  const qt = opts.queryTimeoutMs ?? 1500;
  const told = await p.status();
  // A user's hops probe what the running proxy's config names, as root's probe the state's (pathTargets).
  const targets = pathTargets(told);
  const status: HostDnsStatus = targets.fromConfig ? { ...told, listeners: targets.listeners, upstreams: targets.upstreams } : told;
  const fromConfig = targets.fromConfig ? { fromConfig: targets.fromConfig } : {};
  const domain = status.clusterDomain ?? 'cluster.local';
  const name = `kubernetes.default.svc.${domain}`;
  // Asked in the probes' own spelling, so the Logs panel can tell them from real traffic (shared/health-probe.ts).
  const asked = healthProbeName(name);
  const text = await p.resolvConfText().catch(() => null);
  const resolver = resolverHop(status, text);
  const off = status.state === 'stopped' && status.listeners.length === 0;
  const kubeDns = withPort(status.kubeDnsIp ?? (status.state === 'stopped' ? opts.clusterKubeDnsIp : undefined) ?? K2S_DEFAULTS.kubeDnsIp);
  // Stopped: the path ends at your own nameservers; running: at the saved original upstreams.
  // Hops report the name in its usual spelling.
  const named = (r: QueryResult): QueryResult => (r.name === asked ? { ...r, name } : r);
  const upstreams = off ? offNameservers(resolver) : status.upstreams;
  const running = !off && status.state !== 'starting' && status.state !== 'stopping';
  // Drift: would their file's nameservers answer once K2s DNS stopped? (the drift default's one rule, shared/drift-default.ts silentAfterStop)
  const theirRoute = !off && status.resolverOwner === 'foreign' && !status.driftGone ? (status.driftRoute ?? null) : null;
  const [system, listeners, core, ups, loops, theirs] = await Promise.all([
    p.lookup(asked, opts.lookupTimeoutMs ?? 4000).then(named),
    Promise.all(status.listeners.map((l) => p.query({ name: asked, type: 'A', server: formatServer(l), timeoutMs: qt }).then(named))),
    off ? Promise.resolve(null) : p.query({ name: asked, type: 'A', server: kubeDns, timeoutMs: qt }).then(named),
    Promise.all(upstreams.map((u) => p.query({ name: '.', type: 'NS', server: withPort(u), timeoutMs: qt }))),
    running && p.liveLoops ? p.liveLoops([domain]).catch(() => []) : Promise.resolve([]),
    theirRoute ? askTheirNameservers(theirRoute.nameservers, status.listeners.map((l) => l.address), (q) => p.query(q), qt) : Promise.resolve(null),
  ]);
  // Only a loop whose last copy is recent is live: the log keeps an ended one until it rotates.
  const liveLoop = recentLoops(loops, p.now())[0] ?? null;
  const probed: HealthHop[] = [queryHop('system', 'system', system), resolver];
  if (off) probed.push(idleHop('listener:127.0.0.1:53', 'listener', '127.0.0.1:53', 'not in use: K2s DNS is stopped'));
  listeners.forEach((r, i) => probed.push({ ...queryHop(`listener:${status.listeners[i]!.address}:${status.listeners[i]!.port}`, 'listener', r), ...fromConfig }));
  for (const s of status.skippedListeners) probed.push({ ...idleHop(`listener:${s.address}`, 'listener', s.address, s.reason), outcome: 'skipped' });
  probed.push({ ...(core ? queryHop('kube-dns', 'kube-dns', core) : idleHop('kube-dns', 'kube-dns', kubeDns, 'not in use: K2s DNS is stopped')), addressFrom: kubeDnsFrom(status, opts.kubeconfigFound, opts.clusterKubeDnsIp) });
  ups.forEach((r, i) => probed.push({ ...queryHop(`upstream:${upstreams[i]}`, 'upstream', r, false), ...(off ? {} : fromConfig) }));
  const busy = status.state === 'starting' || status.state === 'stopping';
  // One outcome per fact: getaddrinfo's search-list NXDOMAIN is not the name's (reconcileHops).
  const hops = reconcileHops(probed);
  const verdict = healthVerdict({ hops, state: status.state, interrupted: !busy && !!status.operation, stateCorrupt: !busy && !!status.stateProblem, watchdogRestart: status.watchdogRestart ?? null, serviceRestart: status.serviceRestart ?? null, proxyPid: status.pid, liveLoop, following: followsNetwork(status), keepRisk: verdictKeepRisk(status, hops, theirs ?? undefined), startRefusal: status.startRefusal ?? null, originalBack: status.originalBack === true, listenerShown: shownListener(status, resolver) });
  const checkedAt = p.now();
  return { name, domainSource: status.clusterDomain ? 'state' : 'default', hops, verdict, checkedAt, durationMs: checkedAt - started, forResolver: status.resolverStamp ?? null, ...(theirs ? { theirNameservers: theirs } : {}) };
}
