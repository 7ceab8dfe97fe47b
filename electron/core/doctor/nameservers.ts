/**
 * Doctor checks on the original nameservers, the ones the proxy forwards to: a nameserver that is
 * one of our own listeners (loop) and more than glibc's MAXNS = 3 (resolv.conf(5)).
 */
import { asRootWays, cliCommand, networkCheckWays, networkOverrideWays, resolverFileWays, upstreamQueryWays, upstreamStartWays } from '../../../shared/fix';
import { noReplyWords } from '../../../shared/probe-failure';

/** The window's way to the CLI's `start --upstream ADDRESS` (Start options → Upstreams, renderer LifecycleControls). */
export const UPSTREAMS_GUI = 'enter a nameserver that resolves Internet names under Start options → Upstreams, then Start (Stop first while K2s DNS runs)';
import type { DoctorFinding } from '../../../shared/doctor';
import { GLIBC_MAXNS, parseResolvConf } from '../../../shared/resolv-conf';
import { hopMark, queryHop } from '../../../shared/health';
import type { DoctorContext } from './context';
import { healthFixPointer, healthOf } from './health';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { notResolverFix, notResolverGuiFix } from '../../../shared/network-writer';
import { NOT_RESOLVER_TITLE, notResolverNow } from './not-resolver';
import { isGone } from '../lifecycle/resolver-gone';
import { missingResolverWords } from '../../../shared/resolver-missing';
import { codeSpan } from '../../../shared/code-span';

/** glibc reads at most this many nameservers (resolv.conf(5): MAXNS); shared/resolv-conf.ts. */
export const MAXNS = GLIBC_MAXNS;

/** Address part of a nameserver: brackets and an IPv6 `%zone` stripped, lower-case. */
function bare(server: string): string {
  return server.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase();
}

/**
 * The finding for a check that needs the saved original while this user cannot read it (K2s owns
 * /etc/resolv.conf, the original is in the root-only state file): info, naming `sudo … doctor`,
 * never "there is none"; null when the check can be made.
 */
export function savedOriginalUnreadable(ctx: DoctorContext, base: { id: string; title: string }, what: string): DoctorFinding | null {
  if (!(ctx.originalText === null && ctx.state === null && !ctx.originalIsCurrent && ctx.stateUnreadable)) return null;
  return {
    ...base,
    severity: 'info',
    title: `${what}: not checked as this user`,
    meaning: `${ctx.k2sOwnsResolver ? 'K2s DNS owns /etc/resolv.conf' : "k2s-dnsproxy runs with a saved original (the file in /etc/resolv.conf now is another program's)"} and the saved original is in ${K2S_PATHS.stateFile}, which only root can read (its directory ${K2S_PATHS.stateDir} is 0700), so this check could not be made as uid ${ctx.deps.uid()}.`,
    fix: `To check the saved original, run ${asRootWays('doctor')}.`,
    remedy: { action: null, gui: `Run ${codeSpan(cliCommand('doctor', true))} in a terminal to check the saved original.`, cli: cliCommand('doctor', true) },
  };
}

/**
 * The original as a finding's sentence names it, capitalised: "The original", or during drift
 * "The saved original, not the file in /etc/resolv.conf now (another program's)," — the checks
 * read the saved one then, and the file in place is never called the original (walk 10 L3).
 */
export function originalWords(ctx: Pick<DoctorContext, 'drift'>): string {
  return ctx.drift ? "The saved original, not the file in /etc/resolv.conf now (another program's)," : 'The original';
}

/** Addresses the proxy listens on: 127.0.0.1 always, the KubeSwitch address unless `none`. */
export function ownListenerAddresses(kubeSwitch: string): string[] {
  return kubeSwitch === 'none' ? ['127.0.0.1'] : ['127.0.0.1', kubeSwitch];
}

/** Titles of the nameserver-loop finding's problem cases (other findings point at them by title). */
export const LOOP_TITLES = {
  none: 'Original resolver has no nameserver line',
  missing: '/etc/resolv.conf does not exist',
  notResolver: NOT_RESOLVER_TITLE,
  loop: 'Original nameservers point at the proxy (loop)',
  kubeSwitch: 'Original nameservers include the KubeSwitch address',
} as const;

/**
 * `nameserver-loop`: error when an original nameserver is 127.0.0.1 or the assigned KubeSwitch
 * address (start refuses UPSTREAM_LOOP) or when there is none at all (resolv.conf(5): the local
 * machine; start refuses NO_UPSTREAM); warn when it is the KubeSwitch address not assigned yet.
 */
export async function checkNameserverLoop(ctx: DoctorContext): Promise<DoctorFinding> {
  const base = { id: 'nameserver-loop', title: 'Original nameservers do not point at the proxy' };
  const unknown = savedOriginalUnreadable(ctx, base, 'Original nameservers vs. the proxy');
  if (unknown) return unknown;
  // No file at all (not K2s's, nothing saved): glibc asks 127.0.0.1 (resolv.conf(5)) as for a
  // file with no nameserver line, and start refuses NO_UPSTREAM naming the missing file (walk 10 M5).
  const gone = !ctx.k2sOwnsResolver && ctx.state === null && ctx.original !== null && isGone(ctx.original) ? ctx.original : null;
  if (gone) {
    const words = missingResolverWords(gone.kind === 'symlink' ? { kind: 'dangling', target: gone.target } : { kind: 'absent' });
    const fix = `Put a resolver file at /etc/resolv.conf (${resolverFileWays()}), then start.`;
    // The health finding's error (no name resolves) already gives this fix (`fix-resolver`): point at it (walk 11 L5).
    const v = (await healthOf(ctx)).verdict;
    const pointer = v.level === 'error' && v.action === 'fix-resolver' ? healthFixPointer(v) : null;
    return {
      ...base,
      severity: 'error',
      title: gone.kind === 'absent' ? LOOP_TITLES.missing : `/etc/resolv.conf ${words}`,
      meaning: `/etc/resolv.conf ${words}, so there is no original resolver to forward to: with no file glibc asks 127.0.0.1 (resolv.conf(5)), the proxy itself, so start refuses with NO_UPSTREAM; with --upstream it would save "no file" and stop would put back none, leaving no name resolving.`,
      ...(pointer ?? { fix, remedy: { action: null, gui: fix, cli: fix } }),
      ...(pointer ? { detail: { pointsAt: 'health' } } : {}),
    };
  }
  if (ctx.originalText === null) {
    return { ...base, severity: 'info', title: 'No original resolver to check for loops', meaning: 'There is no readable original resolv.conf to check (absent, dangling link, or K2s-owned without a saved original).', fix: null };
  }
  const own = ownListenerAddresses(ctx.kubeSwitch);
  // Start's own rule for the file it would save now (shared/network-writer.ts
  // startRefusesResolverFile, preflight NOT_RESOLVER_FILE): checked before the nameservers, as
  // start does, and fixed only by a new file — --upstream (Start options → Upstreams) does not
  // lift it, so neither is offered (walk 7 H2: NUL bytes were called "no nameserver line").
  // Only while no start is recorded: with a saved original a start keeps it and saves no file,
  // and another program's file in place then is drift, whose finding is K2s DNS state's with
  // the drift choice as its fix (lifecycle-state.ts; walk 10 M3: "then start again" while running).
  const notResolver = notResolverNow(ctx);
  if (notResolver) {
    return {
      ...base,
      severity: 'error',
      title: LOOP_TITLES.notResolver,
      meaning: `/etc/resolv.conf ${notResolver.replace(/^the new file /, '')}, so start refuses with NOT_RESOLVER_FILE, with or without --upstream: it will not save that file as your original, since stop would put it back byte for byte.`,
      // The one finding with this fix: the health finding's verdict (replace-resolver) points here (walk 11 L5).
      fix: notResolverFix(),
      remedy: { action: null, gui: notResolverGuiFix(), cli: notResolverFix() },
      detail: { reason: notResolver },
    };
  }
  const listed = parseResolvConf(ctx.originalText).nameservers;
  const fix = `Point the original /etc/resolv.conf at your real nameserver (router or company DNS), or start with ${upstreamStartWays()}.`;
  const remedy = { action: null, gui: `Point the original /etc/resolv.conf at your real nameserver (router or company DNS), or ${UPSTREAMS_GUI}.`, cli: fix };
  if (listed.length === 0) {
    const unusable = parseResolvConf(ctx.originalText).unknown.filter((l) => /^nameserver(\s|$)/.test(l));
    return {
      ...base,
      severity: 'error',
      title: LOOP_TITLES.none,
      meaning: `The original resolv.conf has no nameserver line${unusable.length ? ` glibc can use (${unusable.map((l) => JSON.stringify(l.slice(0, 80))).join(', ')}: not an IP address)` : ''}, which means 127.0.0.1 (resolv.conf(5)), the proxy itself, so start refuses with NO_UPSTREAM.`,
      fix,
      remedy,
      detail: { nameservers: listed, loops: ['127.0.0.1'], listeners: own },
    };
  }
  const loops = listed.filter((ns) => own.includes(bare(ns)));
  const detail = { nameservers: listed, loops, listeners: own };
  if (loops.length === 0) {
    return { ...base, severity: 'ok', meaning: ctx.drift ? `${originalWords(ctx)} lists nameservers (${listed.join(', ')}) that are not K2s DNS listeners.` : `The original nameservers (${listed.join(', ')}) are not K2s DNS listeners.`, fix: null, detail };
  }
  const assigned = await ctx.deps.hostAddresses();
  // Start only listens on the KubeSwitch address when it is assigned (preflight planListeners).
  const active = loops.filter((ns) => bare(ns) === '127.0.0.1' || assigned.includes(bare(ns)));
  if (active.length > 0) {
    return {
      ...base,
      severity: 'error',
      title: LOOP_TITLES.loop,
      meaning: `The original resolver lists ${active.join(', ')}, where the K2s DNS proxy itself listens: forwarding there would loop, so start refuses with UPSTREAM_LOOP.`,
      fix,
      remedy,
      detail,
    };
  }
  return {
    ...base,
    severity: 'warn',
    title: LOOP_TITLES.kubeSwitch,
    meaning: `The original resolver lists the KubeSwitch address ${loops.join(', ')}: once K2s assigns it, the proxy listens there and forwarding to it would loop.`,
    fix,
    remedy,
    detail,
  };
}

/** `nameserver-count`: warn when the original lists more than MAXNS nameservers. */
export function checkNameserverCount(ctx: DoctorContext): DoctorFinding {
  const base = { id: 'nameserver-count', title: 'At most 3 nameservers' };
  const unknown = savedOriginalUnreadable(ctx, base, 'Number of original nameservers');
  if (unknown) return unknown;
  const nameservers = ctx.originalText === null ? [] : parseResolvConf(ctx.originalText).nameservers;
  if (nameservers.length <= MAXNS) {
    return { ...base, severity: 'ok', meaning: `${originalWords(ctx)} lists ${nameservers.length} ${nameservers.length === 1 ? 'nameserver' : 'nameservers'}; glibc uses up to ${MAXNS}.`, fix: null, detail: { nameservers } };
  }
  const ignored = nameservers.slice(MAXNS);
  // `--upstream` takes one address and repeats (k2s-dns --help: `[--upstream IP[:PORT]]...`).
  const pinFix = `Keep at most 3 nameserver lines in the original, or pin the upstreams with ${upstreamStartWays([], [], 'the IP address of one to use (one --upstream for each)')}.`;
  return {
    ...base,
    severity: 'warn',
    title: `${nameservers.length} nameservers: more than glibc's 3`,
    meaning: `The original lists ${nameservers.length} nameservers but glibc only ever asked the first ${MAXNS} (resolv.conf(5) MAXNS), so ${ignored.join(', ')} never got queries; K2s DNS does the same and leaves ${ignored.length === 1 ? 'it' : 'them'} out of the proxy's upstreams (start names ${ignored.length === 1 ? 'it' : 'them'}).`,
    fix: pinFix,
    remedy: { action: null, gui: `Keep at most 3 nameserver lines in your original /etc/resolv.conf, or ${UPSTREAMS_GUI.replace('a nameserver that resolves Internet names', 'the ones to use')}.`, cli: pinFix },
    detail: { nameservers, ignoredByGlibc: ignored },
  };
}

/** How long each original upstream gets to answer the doctor's probe, ms. */
export const UPSTREAM_PROBE_TIMEOUT_MS = 2000;

/**
 * `upstream-answers`: the upstreams the proxy forwards to (the saved ones while K2s runs, else
 * the original's nameservers) each get one UDP query for `kubernetes.io` A. Any DNS answer,
 * NXDOMAIN or REFUSED included, means the server is there; a timeout or socket error means every
 * external name through K2s DNS would fail too. Error when none answers, warn when some don't,
 * and warn when one answers other than NOERROR for that name (shared/health.ts hopMark, as Topology).
 */
export async function checkUpstreamsAnswer(ctx: DoctorContext): Promise<DoctorFinding> {
  const base = { id: 'upstream-answers', title: 'Original upstreams answer' };
  const unknown = savedOriginalUnreadable(ctx, base, 'Original upstreams');
  if (unknown) return unknown;
  const own = ownListenerAddresses(ctx.kubeSwitch);
  const listed = ctx.state?.upstreams ?? (ctx.originalText === null ? [] : parseResolvConf(ctx.originalText).nameservers.slice(0, MAXNS));
  const upstreams = listed.filter((ns) => !own.includes(bare(ns)));
  if (upstreams.length === 0) {
    // Why, in the user's words, and the loop finding by the title it has in this same run (never
    // its internal id, never a title it does not show: walk 9 L3 pointed at "…has no nameserver
    // line" while the loop finding said "/etc/resolv.conf is no resolver file").
    const loop = await checkNameserverLoop(ctx);
    const why =
      loop.title === LOOP_TITLES.notResolver
        ? `/etc/resolv.conf is no resolver file, so there is no nameserver to probe; see “${loop.title}”.`
        : ctx.originalText === null && listed.length === 0
          ? `There is no readable original resolv.conf, so there is no nameserver to probe; see “${loop.title}”.`
          : listed.length === 0
            ? `The original resolver lists no nameserver, so there is none to probe; see “${loop.title}”.`
            : `The original resolver lists only ${listed.join(', ')}, where the K2s DNS proxy itself listens, so there is none to probe; see “${loop.title}”.`;
    return { ...base, severity: 'info', title: 'No original upstream to probe', meaning: why, fix: null };
  }
  const results = await Promise.all(
    upstreams.map(async (server) => ({ server, r: await ctx.deps.query({ name: 'kubernetes.io', type: 'A', server, transport: 'udp', timeoutMs: UPSTREAM_PROBE_TIMEOUT_MS }) })),
  );
  const silent = results.filter(({ r }) => r.rcode === 'TIMEOUT' || r.rcode === 'ERROR');
  const detail = { upstreams, silent: silent.map((s) => s.server), rcodes: Object.fromEntries(results.map(({ server, r }) => [server, r.rcode])) };
  // The same rule as the Topology's upstream boxes and `status` (shared/health.ts hopMark): an
  // upstream that answers, but not NOERROR, for kubernetes.io (an Internet name every resolver of
  // this host should know) is reachable yet may not resolve Internet names — a warning. Status asks
  // the root zone instead, where NXDOMAIN is ✓ (rootlessNxdomain): reachable, as here.
  const odd = results.filter(({ server, r }) => hopMark(queryHop(`upstream:${server}`, 'upstream', r, false), { level: 'ok' }) === 'warn');
  const rcodes = results.map(({ server, r }) => `${server}: ${r.rcode}`).join(', ');
  if (silent.length === 0 && odd.length > 0) {
    // The check names the nameserver that answered oddly, and a start names none of them (walk 7 M4: no placeholder line).
    const check = upstreamQueryWays(odd[0]!.server);
    const oddFix = `Check that the nameserver resolves Internet names (e.g. ${check}); if it only serves a local zone, start with ${upstreamStartWays([], odd.map((o) => o.server), 'the IP address of one that does')}.`;
    return {
      ...base,
      severity: 'warn',
      title: odd.length === upstreams.length ? 'Original upstreams answer, but not NOERROR' : `${odd.length} of ${upstreams.length} original upstreams answer, but not NOERROR`,
      meaning: `${odd.map(({ server, r }) => `${server} answered ${r.rcode} for kubernetes.io A`).join(', ')}: reachable, yet ${odd.length === 1 ? 'it' : 'they'} may not resolve Internet names through K2s DNS (${rcodes}).`,
      fix: oddFix,
      remedy: { action: null, gui: `Check that the nameserver resolves Internet names (e.g. ${check} in a terminal); if it only serves a local zone, ${UPSTREAMS_GUI}.`, cli: oddFix },
      detail,
    };
  }
  if (silent.length === 0) {
    return { ...base, severity: 'ok', meaning: `Every original upstream answers (${rcodes}).`, fix: null, detail };
  }
  const all = silent.length === upstreams.length;
  // The words match the errno: an ENETUNREACH comes back at once, it is no "no reply in 2 s".
  const why = silent.map(({ server, r }) => `${server}: ${noReplyWords(r, UPSTREAM_PROBE_TIMEOUT_MS)}`).join('; ');
  // While the follower tracks the network (the default), the upstreams ARE the network's
  // nameservers: the fix is the network's, an Upstreams override holds only with `keep`.
  const following = ctx.state !== null && (ctx.state.onNetworkChange ?? 'follow') === 'follow';
  // The real address that did not answer, and a start that names none of the silent ones (walk 7 M4).
  const check = upstreamQueryWays(silent[0]!.server);
  const dead = silent.map((s) => s.server);
  // The override as status's check-network words it (shared/health.ts checkNetworkCli): stop
  // first, a start while K2s DNS runs is refused (RUNNING_OTHER_OPTIONS; new-user walk).
  const fix = following
    ? `The network's nameserver does not answer: ${networkCheckWays(dead)} (e.g. ${check}). K2s DNS follows the network's resolver and switches when the network writes a working one; an override, which holds only while the network is not followed: ${networkOverrideWays(dead)}.`
    : `Check the network link and the nameserver (e.g. ${check}); if the original resolver lists a server that is gone, fix it or start with ${upstreamStartWays([], dead, 'the IP address of a nameserver that answers')}.`;
  const gui = following
    ? `The network's nameserver does not answer: ${networkCheckWays(dead)} (e.g. ${check} in a terminal). K2s DNS follows the network (Start options → Network changes: follow) and switches when the network writes a working resolver; Start options → Upstreams overrides it only with Network changes: keep (Stop first).`
    : `Check the network link and the nameserver (e.g. ${check} in a terminal); if the original resolver lists a server that is gone, fix it or ${UPSTREAMS_GUI}.`;
  return {
    ...base,
    severity: all ? 'error' : 'warn',
    title: all ? 'No original upstream answers' : `${silent.length} of ${upstreams.length} original upstreams do not answer`,
    meaning: `${why}; so ${all ? 'every name outside the cluster fails through K2s DNS (cluster names still resolve)' : 'names outside the cluster are slower while the proxy tries them'}.`,
    fix,
    remedy: { action: null, gui, cli: fix },
    detail: { ...detail, following },
  };
}
