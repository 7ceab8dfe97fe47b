import type { LifecycleDeps } from './deps';
import type { CaptureUnitState } from '../../../shared/capture-unit-state';
import { askedStartWays, type StartOptions } from './options';
import type { Listener, ResolverEntry } from '../../../shared/types';
import type { ResolverStateFile } from '../../../shared/state-file';
import { K2S_DEFAULTS, K2S_PATHS } from '../../../shared/k2s-paths';
import { GLIBC_MAXNS, parseResolvConf, writableResolverTokens } from '../../../shared/resolv-conf';
import { captureResolver, isManagedResolvConf, isOversize, NotResolverEntryError, readAppendOnly, readState } from '../host/resolver-state';
import { notResolverFileWords, oversizeResolverWords } from '../../../shared/not-a-file';
import { StateFileCorruptError } from '../host/state-store';
import { resolverBytes, resolverText, sameResolver } from '../host/resolver-state';
import { notResolverFix, resolverOwnerRefusal, startRefusesResolverFile, unknownLineWords } from '../../../shared/network-writer';
import { savedOriginalFix, type FileOwner } from '../../../shared/writable-resolver';
import { isGone } from './resolver-gone';
import { missingResolverWords } from '../../../shared/resolver-missing';
import { isResolvedStub, pickUpstreams, readResolvedLinkServers } from '../host/upstreams';
import { isBindMounted } from '../host/mounts';
import { isOwnProxyPid } from '../host/own-proxy';
import { chooseEngine, type EngineChoice } from './engine';
import { refused } from './errors';
import { NoKubeconfigError } from '../cluster/errors';
import { kubeSwitchRefusal } from '../../../shared/kubeswitch-address';
import { cliCommand, handResolverWays, DRIFT_CHOICE, resolverFileWays, shellCommand, upstreamStartWays } from '../../../shared/fix';
import { interfaceOfAddress, linkServers, resolvedActive } from './resolved';
import { managedNameserverOnResolvedHost, RESOLVED_STUB_ADDRESSES } from '../../../shared/resolved-link';

export { resolverText } from '../host/resolver-state';
import { ipInCidr, parseIp } from '../../../shared/cidr';
import { wslRefusalMessage, wslResolverVerdict } from '../../../shared/wsl';
import { readWslInputs } from '../host/wsl-inputs';
import { KUBESWITCH_NONE_REASON } from '../../../shared/running-start';
import { NAMED_UPSTREAM_WORDS } from './verify';

/** What preflight learned; nothing on the host has changed yet. */
export interface Preflight {
  engine: EngineChoice;
  kubeconfigPath: string;
  /** /etc/resolv.conf as it is now. */
  current: ResolverEntry;
  /** The state file of an earlier start, or null. */
  existing: ResolverStateFile | null;
  /** The original to keep: the saved one when the current file is K2s-owned, else `current`. */
  original: ResolverEntry;
  /** True when the current /etc/resolv.conf is the K2s-owned file. */
  currentIsManaged: boolean;
  /** K2s is fully up already: the start is a no-op. */
  alreadyRunning: boolean;
  upstreams: string[];
  droppedUpstreams: { server: string; reason: string }[];
  search: string[];
  options: string[];
  /** Search domains/options of the original that the K2s-owned file leaves out. */
  droppedTokens: string[];
  /**
   * Owner and mode of the file saved now (not a saved original kept) when it is owned by a user
   * account or writable by others or a group other than root's (resolverOwnerRefusal, the
   * follower's rule): the start warns RESOLV_CONF_WRITABLE (resolverWritableWarning); else null.
   */
  writableOwner: FileOwner | null;
  /** `line "x" is no resolv.conf(5) directive`: a line of the saved file glibc ignores, in a file that names a nameserver (saved as is, said in the step); else null. */
  ignoredLine: string | null;
  /**
   * With --upstream only: why the file saved (and put back at stop) names no nameserver glibc can
   * use — "it has no nameserver line" or "its only nameserver line \"nameserver <x>\" is unusable
   * to glibc…" (resolv.conf(5); shared/resolv-conf.ts parseResolvConf): after stop no name resolves
   * (glibc asks 127.0.0.1, where nothing answers then). Said in the preflight step (walk 7 M4);
   * without --upstream such a file is NO_UPSTREAM. Else null.
   */
  noNameserver: string | null;
  /**
   * With --upstream only: /etc/resolv.conf resolves to no file now, in words ("does not exist", "is
   * a dangling symlink (→ X)", shared/resolver-missing.ts); saved so, and stop puts back no file
   * (walk 10 M5). Said in the preflight step; without --upstream it is NO_UPSTREAM. Else null.
   */
  originalMissing: string | null;
  listeners: Listener[];
  skippedListeners: { address: string; reason: string }[];
  /**
   * On a systemd-resolved host: the link that gets the cluster zones (the KubeSwitch link), the
   * proxy address on it, and the nameserver of the K2s-owned resolv.conf
   * (managedNameserverOnResolvedHost); null where resolved does not run.
   */
  resolved: { link: string; address: string; nameserver: string } | null;
  /**
   * systemd: the capture unit when it was not inactive as preflight asked (ServiceManager.status
   * captureUnit): a companion of the last run still stopping, which start's capture waits for.
   */
  captureUnit?: CaptureUnitState | null;
}

/** Program name of a command line: `/usr/sbin/dnsmasq --conf…` → `dnsmasq`. */
function programName(command: string): string {
  const first = command.trim().split(/\s+/)[0] ?? command;
  return first.slice(first.lastIndexOf('/') + 1) || command;
}

/**
 * True when `command` (a command line, arguments joined by spaces) runs a K2s DNS proxy: a config
 * argument on a `k2s/dnsproxy.yaml` or `k2s/dnsmasq.conf` under any directory (this host's, another
 * installation's, or one in a container). Whether it is this host's own is isOwnProxyPid's question.
 */
export function isK2sProxyCommand(command: string): boolean {
  return /(^|\s)(--config-path=|--conf-file=)\S*\/k2s\/(dnsproxy\.yaml|dnsmasq\.conf)(\s|$)/.test(command);
}

/**
 * "127.0.0.1:53/udp is held by dnsmasq (PID 812); …" with a fix that is a real command:
 * `systemctl stop UNIT` only for the system service `holder.unit` its cgroup names
 * (host/cgroup-unit.ts; a process name is no unit name: a kill of a service may be undone by
 * its Restart=), else only the kill.
 */
export function portHeldMessage(what: string, holder: { pid: number; command: string; unit?: string }): string {
  // A K2s DNS proxy (ours in another mount namespace, or K2s's own CLI's) is no system
  // service called "dnsmasq": stopping the distribution's dnsmasq would not free the port.
  if (isK2sProxyCommand(holder.command)) {
    return `${what} is held by a K2s DNS proxy (${programName(holder.command)}, PID ${holder.pid}) that this k2s-dns does not own; run \`${cliCommand('stop', true)}\` where it was started (or \`sudo k2s stop\`), or \`${shellCommand(`kill ${holder.pid}`, true)}\`, then start again.`;
  }
  const name = programName(holder.command);
  const kill = `\`${shellCommand(`kill ${holder.pid}`, true)}\``;
  if (holder.unit) return `${what} is held by ${name} (PID ${holder.pid}, system service ${holder.unit}); stop it — \`${shellCommand(`systemctl stop ${holder.unit}`, true)}\` — then start again.`;
  return `${what} is held by ${name} (PID ${holder.pid}); stop it — ${kill} — then start again.`;
}

/** Whether `entry` is the K2s-owned resolv.conf (a regular file with the managed header). */
export function isManagedEntry(entry: ResolverEntry): boolean {
  return entry.kind === 'file' && isManagedResolvConf(Buffer.from(entry.contentBase64, 'base64'));
}

/**
 * The listeners: 127.0.0.1:53 always, the KubeSwitch address only when assigned here. Throws
 * refused BAD_KUBESWITCH for an address outside private space (shared/kubeswitch-address.ts)
 * and KUBESWITCH_NOT_ASSIGNED for an explicit address other than K2s's default that no
 * interface has; K2s's own 172.19.1.1 is skipped instead (K2s creates it when the cluster runs).
 */
export async function planListeners(
  deps: LifecycleDeps,
  kubeSwitch: string | undefined,
): Promise<{ listeners: Listener[]; skipped: { address: string; reason: string }[] }> {
  const listeners: Listener[] = [{ address: '127.0.0.1', port: 53 }];
  const skipped: { address: string; reason: string }[] = [];
  const wanted = kubeSwitch ?? K2S_DEFAULTS.kubeSwitchAddress;
  if (wanted === 'none') return { listeners, skipped: [{ address: 'KubeSwitch', reason: KUBESWITCH_NONE_REASON }] };
  const bad = kubeSwitchRefusal(wanted);
  if (bad) throw refused('BAD_KUBESWITCH', bad);
  const assigned = await deps.hostAddresses();
  if (!assigned.includes(wanted) && wanted !== K2S_DEFAULTS.kubeSwitchAddress) {
    throw refused('KUBESWITCH_NOT_ASSIGNED', `--kubeswitch ${wanted} is not assigned to any interface on this host; give one of this host's private addresses (ip -4 addr), K2s's ${K2S_DEFAULTS.kubeSwitchAddress}, or none.`);
  }
  if (assigned.includes(wanted)) listeners.push({ address: wanted, port: 53 });
  else skipped.push({ address: wanted, reason: `${wanted} is not assigned to any interface on this host (K2s creates it on ${K2S_DEFAULTS.kubeSwitchInterface}); started without it` });
  return { listeners, skipped };
}

/** Ranges no ClusterIP can be in, with why: a ClusterIP is a routable unicast address. */
const NON_ROUTABLE: Array<[string, string]> = [
  ['fe80::/10', 'IPv6 link-local (RFC 4291 §2.5.6: valid only on one link, needs an interface)'],
  ['fec0::/10', 'deprecated IPv6 site-local (RFC 3879)'],
  ['ff00::/8', 'IPv6 multicast (RFC 4291 §2.7)'],
  ['169.254.0.0/16', 'IPv4 link-local (RFC 3927)'],
  ['224.0.0.0/4', 'IPv4 multicast (RFC 5771)'],
  ['240.0.0.0/4', 'IPv4 reserved or broadcast (RFC 1112 §4, RFC 919)'],
  ['0.0.0.0/8', '"this network" (RFC 1122 §3.2.1.3)'],
];

/**
 * Why the kube-dns ClusterIP `ip` cannot be forwarded to, or null: not an IP literal, an IPv6
 * scope id, or a non-routable range (link-local fe80::/10 and 169.254/16, multicast, reserved,
 * 0/8; IPv4-mapped forms too). Checked before the proxy starts: the verify step would otherwise
 * only time out after its 15 s deadline. Loopback and this host's own addresses are
 * kubeDnsLoop's (host/upstreams.ts).
 */
export function clusterIpRefusal(ip: string): string | null {
  const a = parseIp(ip);
  const fix = 'check the cluster DNS Service (`kubectl -n kube-system get svc -l k8s-app=kube-dns -o wide`).';
  if (!a) return `The kube-dns ClusterIP ${JSON.stringify(ip.slice(0, 64))} is not an IP address; ${fix}`;
  if (a.zoneId !== null) return `The kube-dns ClusterIP ${ip} carries an IPv6 scope id; a ClusterIP is routable and never has one; ${fix}`;
  const mapped = a.family === 6 && a.bytes.slice(0, 10).every((b) => b === 0) && a.bytes[10] === 0xff && a.bytes[11] === 0xff;
  const eff = mapped ? a.bytes.slice(12).join('.') : ip;
  const hit = NON_ROUTABLE.find(([cidr]) => ipInCidr(eff, cidr));
  return hit ? `The kube-dns ClusterIP ${ip} is ${hit[1]}, not a routable ClusterIP, so no DNS query can reach it; ${fix}` : null;
}

/**
 * Checks every precondition of start and changes nothing. Throws refused (exit 3) errors:
 * NOT_ROOT, NO_ENGINE, NO_KUBECONFIG, NO_SAVED_ORIGINAL, IMMUTABLE, APPEND_ONLY, BIND_MOUNTED,
 * BAD_KUBESWITCH, KUBESWITCH_NOT_ASSIGNED, NO_UPSTREAM, PORT_IN_USE — each message names the cause and the fix.
 */
export async function preflight(deps: LifecycleDeps, opts: StartOptions): Promise<Preflight> {
  if (deps.uid() !== 0) {
    // The start asked, as root: with its own options (sixth walk M1), not a bare start.
    throw refused('NOT_ROOT', `Starting K2s DNS changes /etc/resolv.conf and binds port 53: run it ${askedStartWays(opts)}; or use the desktop app.`);
  }
  // Two reads of the service manager (systemd: answered by start's askUnits, one `systemctl show`
  // begun before preflight; else a `systemctl` process each, ~20 ms on a booted Debian 13 host)
  // asked first: their processes run while this thread loads the
  // Kubernetes client below (~20 ms of CPU) and reads and judges the resolver; each is awaited
  // where its check stood (hostChecks), so the checks and their order of refusals are as before.
  const early: EarlyReads = { service: deps.services.status(), resolved: resolvedActive(deps) };
  early.service.catch(() => undefined);
  early.resolved.catch(() => undefined);
  // Before anything is saved: a bad kubeconfig is a refusal (exit 3), not a rollback. Started
  // first and awaited before any verdict after NO_KUBECONFIG, so loading the Kubernetes client
  // (most of the check's time) overlaps the engine lookup and the file reads and programs
  // (lsattr, resolvectl, ss) of the host checks, while the refusals keep their order.
  const kubeconfigPath = opts.kubeconfigPath;
  const kubeconfigRefusal = kubeconfigPath
    ? deps.checkKubeconfig(kubeconfigPath).then(
        () => null,
        (err: unknown) => refused('BAD_KUBECONFIG', (err as Error).message),
      )
    : Promise.resolve(null);
  const engine = await chooseEngine(deps.fs, opts);
  if (!kubeconfigPath) {
    throw refused('NO_KUBECONFIG', NoKubeconfigError.fromLookup(opts.kubeconfigLookup ?? { tried: [], explicit: false }).message);
  }
  try {
    const checked = await hostChecks(deps, opts, engine, kubeconfigPath, early);
    const refusal = await kubeconfigRefusal;
    if (refusal) throw refusal;
    return checked;
  } catch (err) {
    throw (await kubeconfigRefusal) ?? err;
  }
}

/**
 * Start's NOT_RESOLVER_FILE refusal of a directory or special file at /etc/resolv.conf: what it
 * is and the way out — move it away, then a resolver file (no start recorded: `existing` null)
 * or a stop, which puts the saved original back (teardown.ts refuses to restore over it).
 */
function notResolverEntryMessage(err: NotResolverEntryError, existing: ResolverStateFile | null): string {
  const what = `/etc/resolv.conf is ${notResolverFileWords(err.what)}`;
  const move = `Move it away (${shellCommand('mv /etc/resolv.conf /etc/resolv.conf.moved', true)})`;
  if (existing) return `${what}; your original from ${existing.savedAt} is still saved in ${K2S_PATHS.stateFile}. ${move}, then run ${cliCommand('stop', true)} (it puts the saved original back), then start again. Nothing was changed.`;
  return `${what}, so K2s cannot save it as your original. ${move} first. ${notResolverFix()} Nothing was changed.`;
}

/** The service manager's reads preflight starts before its checks (each awaited where its check stands). */
interface EarlyReads {
  service: ReturnType<LifecycleDeps['services']['status']>;
  resolved: ReturnType<typeof resolvedActive>;
}

/** preflight's checks of the host after the engine and the kubeconfig, in their order. */
async function hostChecks(deps: LifecycleDeps, opts: StartOptions, engine: Preflight['engine'], kubeconfigPath: string, early: EarlyReads): Promise<Preflight> {
  const servicePending = early.service;
  const resolvedPending = early.resolved;
  // A directory or special file there is no resolver file: refused as start's other
  // not-a-resolver files are (NOT_RESOLVER_FILE), before anything is changed.
  const current = await captureResolver(deps.fs, deps.exec).catch(async (err: unknown) => {
    if (err instanceof NotResolverEntryError) throw refused('NOT_RESOLVER_FILE', notResolverEntryMessage(err, await readState(deps.fs).catch(() => null)));
    throw err;
  });
  // Its bytes were read only up to the bound: a copy of it could never be put back whole.
  if (isOversize(current)) {
    const size = (await deps.fs.stat(K2S_PATHS.resolvConf).catch(() => null))?.size;
    throw refused('RESOLV_CONF_TOO_LARGE', `/etc/resolv.conf is ${oversizeResolverWords(size)}, so K2s cannot save a copy of it to put back at stop; replace it with a regular resolv.conf (a few nameserver and search lines), then start again.`);
  }
  const existing = await readState(deps.fs).catch((err: unknown) => {
    // Never start over (and later overwrite) a saved original we cannot read: stop deals with it.
    if (err instanceof StateFileCorruptError) throw refused('STATE_CORRUPT', err.message);
    throw err;
  });
  const currentIsManaged = isManagedEntry(current);
  if (currentIsManaged && !existing) {
    throw refused(
      'NO_SAVED_ORIGINAL',
      `/etc/resolv.conf is K2s-owned but no saved original exists at ${K2S_PATHS.stateFile}; write your own resolv.conf back by hand (${handResolverWays()}), then run ${cliCommand('stop', true)}, then start again.`,
    );
  }
  // A resolver deleted (or left dangling) while K2s ran is not an original to save over the real
  // one: stop puts the saved original back first.
  if (existing && isGone(current) && !sameResolver(current, existing.resolvConf)) {
    throw refused('RESOLV_CONF_GONE', `/etc/resolv.conf was ${current.kind === 'symlink' ? `replaced by a dangling symlink (→ ${current.target})` : 'deleted'} while K2s DNS ran, and the saved original in ${K2S_PATHS.stateFile} must not be overwritten with that; run ${cliCommand('stop', true)} first (it puts the saved original back), then start again.`);
  }
  // Drift (another program rewrote the file while K2s ran): a start would have to decide which
  // file is the user's original, and silently saving theirs loses the real one (new-user pass,
  // 2026-12-01). The choice is stop's --on-drift (the app's drift banner); start only after it.
  if (existing && !currentIsManaged && !isGone(current) && !sameResolver(current, existing.resolvConf)) {
    throw refused('DRIFTED', `/etc/resolv.conf was rewritten by another program while K2s DNS ran; your original from ${existing.savedAt} is still saved in ${K2S_PATHS.stateFile}. Choose first — Keep their file: ${DRIFT_CHOICE.keep.cli}; Restore my original: ${DRIFT_CHOICE.restore.cli} (in the app: the drift banner, which names the safer one as its default; ${cliCommand('status')} says it too) — then start again. Nothing was changed.`);
  }
  // Never save over a saved original: when the current file is ours, the saved one is the original.
  const original = currentIsManaged && existing ? existing.resolvConf : current;
  // A file that is no resolver file at all (not text, not UTF-8, a line that is no resolv.conf(5)
  // directive: shared/network-writer.ts notResolverFileRefusal, the follower's rule) is never
  // saved as the original: stop would put it back byte for byte. Refused, as a file without a
  // nameserver is (NO_UPSTREAM below) — and --upstream does not lift it, since the problem is the
  // copy, not the upstreams. Such a file is typically drift a `stop --on-drift keep` kept.
  // (Over 64 KiB is RESOLV_CONF_TOO_LARGE above.) Only the file saved now: a saved original is
  // not judged again.
  const originalBytes = original === current ? resolverBytes(current) : null;
  // One exception (shared/network-writer.ts startRefusesResolverFile): a line glibc ignores in a
  // file that names a nameserver — glibc uses that file, so it is saved as is and the preflight
  // step names the line (ignoredLine).
  const notResolver = originalBytes ? startRefusesResolverFile(originalBytes) : null;
  // Owner and mode of the file saved now (a link's target's: stat follows it).
  const ownerOf = original !== current || isGone(current) ? null : current.kind === 'file' ? current : await deps.fs.stat(K2S_PATHS.resolvConf).catch(() => null);
  const writableOwner = ownerOf && resolverOwnerRefusal(ownerOf) !== null ? { uid: ownerOf.uid, gid: ownerOf.gid, mode: ownerOf.mode } : null;
  const ignoredLine = originalBytes ? unknownLineWords(originalBytes) : null;
  if (notResolver) {
    throw refused('NOT_RESOLVER_FILE', `/etc/resolv.conf ${notResolver.replace(/^the new file /, '')}, so K2s will not save it as your original (stop would put it back byte for byte). ${notResolverFix()} Nothing was changed.`);
  }
  const service = await servicePending;
  const alreadyRunning = currentIsManaged && existing !== null && service.running;

  if (current.kind === 'file' && current.immutable) {
    throw refused('IMMUTABLE', `/etc/resolv.conf is immutable (chattr +i); run \`${shellCommand('chattr -i /etc/resolv.conf', true)}\` if you want K2s to manage it, then start again.`);
  }
  // Append-only (chattr +a) refuses rename(2) over the file just like +i (chattr(1)): refuse
  // now, before anything is saved, instead of failing at activate.
  if (current.kind === 'file' && (await readAppendOnly(deps.fs, deps.exec, K2S_PATHS.resolvConf))) {
    throw refused('APPEND_ONLY', `/etc/resolv.conf is append-only (chattr +a), so it cannot be replaced; run \`${shellCommand('chattr -a /etc/resolv.conf', true)}\` if you want K2s to manage it, then start again.`);
  }
  if (!alreadyRunning && isBindMounted(deps.fs.real(K2S_PATHS.resolvConf), await deps.mountinfo())) {
    throw refused('BIND_MOUNTED', '/etc/resolv.conf is a bind mount (a container or WSL layout) and cannot be replaced by rename; manage DNS on the outer host instead.');
  }

  const text = resolverText(original) ?? '';
  // One detector with doctor (shared/wsl.ts): WSL's header on any line, and wsl.conf decides
  // whether WSL still rewrites the file (a leftover with generateResolvConf = false is fine).
  const wsl = wslResolverVerdict({ resolvText: text, ...(await readWslInputs(deps.fs)) });
  if (wsl.kind === 'regenerates') throw refused('WSL_RESOLV_CONF', wslRefusalMessage(wsl));
  const parsed = parseResolvConf(text);
  const unusable = parsed.unknown.filter((l) => /^nameserver(\s|$)/.test(l));
  // No file at all (absent, or a link to nothing) is saved as such and put back so at stop: said
  // as missing, never as "no nameserver line" (walk 10 M5).
  const missing = original === current && isGone(current) ? missingResolverWords(current.kind === 'symlink' ? { kind: 'dangling', target: current.target } : { kind: 'absent' }) : null;
  const noNameserver = opts.upstreams?.length && parsed.nameservers.length === 0 ? (missing ? `it ${missing}` : unusable.length === 0 ? 'it has no nameserver line' : `its only nameserver ${unusable.length === 1 ? 'line' : 'lines'} ${unusable.map((l) => JSON.stringify(l.slice(0, 80))).join(', ')} ${unusable.length === 1 ? 'is' : 'are'} unusable to glibc: not an IP address in column one, resolv.conf(5)`) : null;
  // Tokens the K2s-owned file cannot hold are dropped and named, never a reason to fail.
  const writable = writableResolverTokens(parsed);
  const { listeners, skipped } = await planListeners(deps, opts.kubeSwitch);

  const resolved = (await resolvedPending) ? await planResolvedRoute(deps, listeners, skipped, parsed.nameservers) : null;
  const usesResolvedStub = parsed.nameservers.slice(0, GLIBC_MAXNS).some(isResolvedStub);
  // Our own routing link is no upstream (a second start sees it in `resolvectl dns`).
  const resolvedLinkServers = usesResolvedStub ? await readResolvedLinkServers(deps.exec, resolved ? [resolved.link] : []) : undefined;
  const interfaces = await deps.interfaceNames();
  // Loop check by address semantics: this host's own addresses count too.
  const hostAddresses = await deps.hostAddresses();
  const picked = opts.upstreams?.length
    ? pickUpstreams({ resolvConf: { ...parsed, nameservers: opts.upstreams }, listeners, interfaces, hostAddresses })
    : pickUpstreams({ resolvConf: parsed, listeners, interfaces, hostAddresses, glibcMaxns: true, ...(resolvedLinkServers ? { resolvedLinkServers } : {}) });
  const loops = picked.dropped.filter((d) => d.kind === 'loop');
  if (loops.length > 0) {
    // The user's own upstreams in the words of the front end that asked (verify.ts
    // NAMED_UPSTREAM_WORDS, as VERIFY_UPSTREAM): the CLI's flag, the window's Start options field.
    const own = opts.upstreams?.length ? NAMED_UPSTREAM_WORDS[opts.cliDoor ? 'cli' : 'gui'] : null;
    const where = !own ? 'The original resolver lists' : opts.cliDoor ? '--upstream lists' : opts.upstreams!.length === 1 ? `The ${own.one} lists` : `The ${own.many} list`;
    // Name what the file says: 127.0.0.53 when resolved's link servers loop.
    const named = loops.map((d) => (d.listed && d.listed !== d.server ? `${d.listed} (systemd-resolved; its link server ${d.server}, from resolvectl)` : d.server));
    throw refused('UPSTREAM_LOOP', `${where} ${named.join(', ')}, which reaches k2s-dnsproxy itself: forwarding there would loop. ${own ? (opts.cliDoor ? 'Give your real nameserver' : 'Enter your real nameserver there') : `Point /etc/resolv.conf at your real nameserver first, or start with ${upstreamStartWays()}`}.`);
  }
  if (picked.upstreams.length === 0) {
    const why = picked.dropped.length ? ` (dropped: ${picked.dropped.map((d) => `${d.server}: ${d.reason}`).join('; ')})` : '';
    // Say where the unusable list came from: the --upstream values, or the original file.
    throw refused(
      'NO_UPSTREAM',
      opts.upstreams?.length
        ? `No ${NAMED_UPSTREAM_WORDS[opts.cliDoor ? 'cli' : 'gui'].one} is usable${why}; ${opts.cliDoor ? 'name' : 'enter'} a nameserver this host can reach (an IPv6 link-local address needs an existing interface: fe80::1%eth0).`
        : missing && parsed.nameservers.length === 0
          ? `/etc/resolv.conf ${missing}, so there is no original resolver to take upstream nameservers from (with no file glibc asks 127.0.0.1:53, resolv.conf(5), where k2s-dnsproxy would listen). Put a resolver file there first (${resolverFileWays()}), then start again; ${upstreamStartWays()} also starts, but stop then puts back no file, and no name resolves after it. Nothing was changed.`
          : `The original resolver lists no usable upstream nameserver${why}; fix the host's DNS first or start with ${upstreamStartWays()}.`,
    );
  }

  if (!alreadyRunning) {
    // Our own k2s-dnsproxy may hold the port (e.g. the resolver drifted while it ran): start
    // restarts it with the new config, so only a foreign holder is a refusal.
    // Ours also when no pidfile names it (a killed start): recognised by its exact command line.
    const ownPid = service.running ? service.pid : null;
    // Every listener and protocol looked at at once (each a bind, host/port-holder.ts), judged in
    // their order: the refusal names the first held one, as one after the other did.
    const checks = listeners.flatMap((l) => (['udp', 'tcp'] as const).map((proto) => ({ l, proto })));
    const holders = await Promise.allSettled(checks.map((c) => deps.portHolder(c.l.port, c.proto, c.l.address)));
    for (const [i, { l, proto }] of checks.entries()) {
      const found = holders[i]!;
      if (found.status === 'rejected') throw found.reason;
      const holder = found.value;
      if (holder && holder.pid !== ownPid && !(await isOwnProxyPid(deps.fs, holder.pid))) {
        throw refused('PORT_IN_USE', portHeldMessage(`${l.address}:${l.port}/${proto}`, holder));
      }
    }
  }
  return {
    engine,
    kubeconfigPath,
    current,
    existing,
    original,
    currentIsManaged,
    alreadyRunning,
    upstreams: picked.upstreams,
    droppedUpstreams: picked.dropped,
    search: writable.search,
    options: writable.options,
    droppedTokens: writable.dropped,
    ignoredLine,
    noNameserver,
    originalMissing: opts.upstreams?.length ? missing : null,
    writableOwner,
    listeners,
    skippedListeners: skipped,
    resolved,
    captureUnit: service.captureUnit ?? null,
  };
}

/**
 * Where systemd-resolved runs, the cluster zones reach it on a routing-only link (shared/resolved-link.ts):
 * the link holding the proxy's KubeSwitch listener. Refuses (exit 3) RESOLVED_NO_KUBESWITCH
 * without that listener — resolved has no per-link route to offer then, and a global one leaks
 * and puts loopback into kubelet's resolvConf — and RESOLVED_LINK_TAKEN when another program
 * already gave that link DNS servers (it is not K2s's to change).
 */
async function planResolvedRoute(deps: LifecycleDeps, listeners: Listener[], skipped: { address: string; reason: string }[], originalNameservers: string[]): Promise<NonNullable<Preflight['resolved']>> {
  const kube = listeners.find((l) => l.address !== '127.0.0.1');
  const why = skipped.find((s) => s.address !== '127.0.0.1')?.reason;
  if (!kube) {
    throw refused('RESOLVED_NO_KUBESWITCH', `systemd-resolved runs here, and K2s DNS gives it the cluster zones as a routing-only link on the KubeSwitch address, which the proxy cannot listen on now${why ? ` (${why})` : ''}. Bring up the K2s network first (systemctl start k2s-proxy-network, which creates ${K2S_DEFAULTS.kubeSwitchInterface} with ${K2S_DEFAULTS.kubeSwitchAddress}), or pass --kubeswitch with the address of a link only K2s uses, then start again. Nothing was changed.`);
  }
  const link = await interfaceOfAddress(deps.exec, kube.address);
  if (!link) throw refused('RESOLVED_NO_KUBESWITCH', `systemd-resolved runs here, but no interface holds the KubeSwitch address ${kube.address} (ip -o addr show); bring up the K2s network first, then start again. Nothing was changed.`);
  const foreign = (await linkServers(deps.exec, link)).filter((s) => s !== kube.address);
  if (foreign.length > 0) {
    throw refused('RESOLVED_LINK_TAKEN', `systemd-resolved already has DNS servers ${foreign.join(', ')} on ${link}, the link of the KubeSwitch address ${kube.address}; another program manages it, so K2s will not route the cluster zones there. Use a link only K2s uses (--kubeswitch ADDRESS), or drop that setting (resolvectl revert ${link}), then start again. Nothing was changed.`);
  }
  const stubAnswers = await deps.tcpListening(RESOLVED_STUB_ADDRESSES[0], 53, 2000);
  return { link, address: kube.address, nameserver: managedNameserverOnResolvedHost({ originalNameservers, stubAnswers, kubeSwitch: kube.address }) };
}

/**
 * The start's warning for a /etc/resolv.conf a user could write: owned by a user account, or
 * writable by others or by a group other than root's (shared/network-writer.ts
 * resolverOwnerRefusal, in its words); null when the owner rule passes.
 *
 * Warn, not refuse: the network follower refuses such a file because it would let a user choose
 * the whole host's DNS behind the admin's back; at start the admin is the one choosing it, and
 * refusing would leave no way to start on a host whose file is (wrongly) 0666 other than fixing
 * it first — which the warning says how to do. Said, because the file is saved as the original
 * with that owner and mode and stop puts it back so (walk5 H1: a 0666 file was saved without a word);
 * status and doctor keep saying it while it is saved (shared/writable-resolver.ts). `startLine`
 * is this start's own (options.ts startLineOf), so the fix's `stop, fix, start` brings back the
 * same K2s DNS (sixth walk M1); the fix command goes through shared/fix.ts shellCommand (M2).
 */
export function resolverWritableWarning(owner: FileOwner, startLine: string): string | null {
  const refusal = resolverOwnerRefusal(owner);
  const fix = savedOriginalFix(owner, startLine);
  if (!refusal || !fix) return null;
  // Without the refusal's own "fix it with chmod …": on a saved original that alone fixes
  // nothing (stop puts the saved one back); `fix` below is the whole of it.
  return `/etc/resolv.conf ${refusal.replace(/^the new file /, '').replace(/ — fix it with .*$/, '')}. It was saved as your original as it is, so stop puts it back with that owner and mode, and a user can choose this host's DNS through it; to save it fixed: ${fix}.`;
}
