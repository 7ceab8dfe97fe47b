import type { LifecycleDeps } from './deps';
import { readState } from '../host/resolver-state';
import { K2S_DEFAULTS } from '../../../shared/k2s-paths';
import { cliCommand, shellWord } from '../../../shared/fix';
import type { ResolverStateFile } from '../../../shared/state-file';
import { formatServer, parseServer } from '../host/parse-server';
import { ownProxyEngine } from '../host/own-proxy';
import { proxyConfigKubeDns } from '../host/proxy-kube-dns';

/** A place the query tester can ask: the system resolver, the proxy, CoreDNS, an upstream. */
export interface QueryTargetInfo {
  id: string;
  label: string;
  /** `system` or `IP:PORT`. */
  server: string;
}

/**
 * Where `--server coredns` (the window's "CoreDNS direct") asks, read once: the kube-dns ClusterIP
 * the saved state names; for a user who cannot read root's 0700 state while the proxy runs, the
 * one its engine's 0644 config names (host/proxy-kube-dns.ts, as status reads it); else K2s's
 * default (K2S_DEFAULTS.kubeDnsIp) and why it is a guess (`why`, null when discovered).
 */
interface CoreDnsSource {
  /** `IP:PORT` (`[v6]:PORT`). */
  server: string;
  why: 'unreadable' | 'damaged' | 'none-saved' | 'no-address' | 'bad-address' | null;
  /** The saved text that is no address (why `bad-address`). */
  saved?: string;
}

async function coreDnsSource(deps: LifecycleDeps, state: StateRead): Promise<CoreDnsSource> {
  const asServer = (ip: string) => formatServer(parseServer(ip));
  const saved = state.state?.kubeDnsIp;
  if (saved) {
    // The state file holds any string there (shared/state-file.ts checks only its type): one that
    // is no address (a hand edit) makes --server coredns a guess, and never fails system or proxy.
    try {
      return { server: asServer(saved), why: null };
    } catch {
      return { server: `${K2S_DEFAULTS.kubeDnsIp}:53`, why: 'bad-address', saved };
    }
  }
  if (state.unreadable) {
    const service = await deps.services.status().catch(() => null);
    const engine = service?.running && service.pid ? await ownProxyEngine(deps.fs, service.pid) : null;
    const ip = engine ? await proxyConfigKubeDns(deps.fs, engine) : null;
    if (ip) return { server: asServer(ip), why: null };
  }
  return { server: `${K2S_DEFAULTS.kubeDnsIp}:53`, why: state.unreadable ? 'unreadable' : state.damaged ? 'damaged' : state.state ? 'no-address' : 'none-saved' };
}

/** The saved state as one read found it: the state, or why there is none (unreadable: EACCES/EPERM). */
interface StateRead {
  state: ResolverStateFile | null;
  unreadable: boolean;
  damaged: boolean;
}

async function readStateOnce(deps: LifecycleDeps): Promise<StateRead> {
  let unreadable = false;
  let damaged = false;
  const state = await readState(deps.fs).catch((err: unknown) => {
    const code = (err as NodeJS.ErrnoException).code;
    unreadable = code === 'EACCES' || code === 'EPERM';
    damaged = !unreadable;
    return null;
  });
  return { state, unreadable, damaged };
}

function targetsOf(state: StateRead, coredns: CoreDnsSource): QueryTargetInfo[] {
  const address = coredns.server.replace(/:53$/, '').replace(/^\[(.*)\]$/, '$1');
  return [
    { id: 'system', label: 'System resolver (getaddrinfo)', server: 'system' },
    { id: 'proxy', label: 'K2s proxy 127.0.0.1:53', server: '127.0.0.1:53' },
    { id: 'coredns', label: `CoreDNS direct ${address}`, server: coredns.server },
    ...(state.state?.upstreams ?? []).map((u) => ({ id: u, label: `Upstream ${u}`, server: u })),
  ];
}

/**
 * Targets from one read of the saved state: system, K2s proxy (127.0.0.1:53), CoreDNS direct
 * (coreDnsSource: the saved kube-dns ClusterIP, the running proxy's for a user, else K2s's
 * default 172.21.0.10), and each original upstream.
 */
export async function queryTargets(deps: LifecycleDeps): Promise<QueryTargetInfo[]> {
  const state = await readStateOnce(deps);
  return targetsOf(state, await coreDnsSource(deps, state));
}

/**
 * Maps `system|proxy|coredns|IP[:PORT]` to a server string (`system` stays `system`), with the
 * sentence `k2s-dns query --server coredns` adds when the address asked is K2s's default, not one
 * a start discovered (`guess`, null otherwise): that it is a guess, and why — no saved state
 * (K2s DNS is not running here: a stop removes the state that named the discovered address; the
 * cluster may use another ClusterIP, and a host without K2s has none), one that names no address,
 * one that cannot be read (corrupt: status says why), or one only root reads while no running
 * proxy names it. `name`: the name asked (the root line repeats it). One read of the state for both.
 */
export async function resolveTarget(deps: LifecycleDeps, target: string, name = ''): Promise<{ server: string; guess: string | null }> {
  if (target !== 'system' && target !== 'proxy' && target !== 'coredns') return { server: target, guess: null };
  const state = await readStateOnce(deps);
  const coredns = await coreDnsSource(deps, state);
  const server = targetsOf(state, coredns).find((x) => x.id === target)!.server;
  return { server, guess: target === 'coredns' ? guessWords(coredns, name) : null };
}

function guessWords(coredns: CoreDnsSource, name: string): string | null {
  if (coredns.why === null) return null;
  const guess = `${K2S_DEFAULTS.kubeDnsIp} is K2s's default kube-dns address, a guess`;
  if (coredns.why === 'unreadable') return `${guess}: a start's saved state, which would name the cluster's, is readable by root only; as root, ${cliCommand(`query ${shellWord(name)} --server coredns`, true)} asks the discovered one where there is one.`;
  const why = coredns.why === 'bad-address' ? `the saved state's kube-dns address ${JSON.stringify(coredns.saved)} is no IP address` : coredns.why === 'damaged' ? `the saved state, which would name the cluster's, cannot be read (${cliCommand('status')} says why)` : coredns.why === 'no-address' ? 'the saved state names none' : 'no K2s DNS state is saved on this host (a start saves the address it discovers, a stop removes it)';
  return `${guess}: ${why}; ${cliCommand('zones')} shows the cluster's own (--server IP asks another).`;
}
