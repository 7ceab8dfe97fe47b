import type { LifecycleDeps } from './deps';
import type { ClusterDiscovery, QueryResult } from '../../../shared/types';
import { failed } from './errors';
import { answerClass, answerMismatch } from './answer-compare';
import type { HostPath } from './host-paths';
import { cliCommand, upstreamStartWays, type FrontEnd } from '../../../shared/fix';
import { errnoWords, isPortUnreachable } from '../../../shared/probe-failure';
import type { StartChecks } from '../capture/start-checks';

export { answerClass } from './answer-compare';
/** Default deadline of the whole verify step, ms: sized for a host whose cores are saturated. */
export const VERIFY_TIMEOUT_MS = 15_000;
/** Longest single attempt of one verify query, ms (a lost UDP datagram is retried after it). */
const ATTEMPT_MS = 2_000;
/** Pause between attempts, ms. */
const RETRY_PAUSE_MS = 50;
/**
 * A check still unanswered this long (ms) after verify began is said once (`onWaiting`): a failed
 * verify asks until its deadline (15 s) and the user should not wait that long in silence. Said at
 * the first retry past it: a timed-out attempt ends at ATTEMPT_MS, so about 2 s in.
 */
export const WAITING_AFTER_MS = 2_000;


/** No answer yet (timeout, socket error, SERVFAIL while the proxy or CoreDNS warms up): ask again. */
function unanswered(r: QueryResult): boolean {
  return r.rcode === 'TIMEOUT' || r.rcode === 'ERROR' || r.rcode === 'SERVFAIL';
}

/**
 * Socket errors this host gives at once, before a datagram leaves (connect(2), sendto(2), ip(7)):
 * no route to the server's network (ENETUNREACH), an address it cannot send to (EINVAL: a
 * link-local address whose interface is not there, `fe80::1%lo`; EADDRNOTAVAIL; EAFNOSUPPORT).
 * Asking again gets the same; a timeout or ECONNREFUSED (a server restarting) is not one of them.
 */
const REFUSED_HERE = /\b(ENETUNREACH|EINVAL|EADDRNOTAVAIL|EAFNOSUPPORT)\b/;
/** Tries after which a check whose every answer was REFUSED_HERE, each within AT_ONCE_MS, is not asked again. */
const REFUSED_HERE_TRIES = 3;
/** An answer within this many ms came back at once (not after a wait on the network). */
const AT_ONCE_MS = 500;

/** True when `r` is a socket error this host gave at once (REFUSED_HERE). */
function refusedHere(r: QueryResult): boolean {
  return r.rcode === 'ERROR' && r.latencyMs < AT_ONCE_MS && REFUSED_HERE.test(r.error ?? '');
}

/** A check's last result; `expired` when the deadline ran out, `refusedHere` (its tries) when every try was refused by this host at once. */
interface Asked {
  r: QueryResult;
  expired: boolean;
  refusedHere?: number;
}

/** How untilAnswered asks again. */
interface AskAgain {
  /** True when a result is no answer yet and is asked again; default `unanswered`. */
  retry?: (r: QueryResult) => boolean;
  /** Told of each result that is asked again, before the pause. */
  retrying?: (r: QueryResult) => void;
}

/**
 * Asks `ask(attemptMs)` while `opts.retry` says its result is no answer yet (`opts.retrying` is
 * told of each result that is asked again) until `deadline` (ms since the epoch, deps.now())
 * passes, or — each of REFUSED_HERE_TRIES tries refused at once by this host (refusedHere) —
 * sooner; resolves to the last result and why it ended.
 */
async function untilAnswered(deps: LifecycleDeps, deadline: number, ask: (attemptMs: number) => Promise<QueryResult>, opts: AskAgain = {}): Promise<Asked> {
  const { retry = unanswered, retrying } = opts;
  let tries = 0;
  let everyRefusedHere = true;
  for (;;) {
    const left = deadline - deps.now();
    const r = await ask(Math.max(1, Math.min(ATTEMPT_MS, left)));
    if (!retry(r)) return { r, expired: false };
    tries += 1;
    everyRefusedHere &&= refusedHere(r);
    if (everyRefusedHere && tries >= REFUSED_HERE_TRIES) return { r, expired: false, refusedHere: tries };
    if (deps.now() + RETRY_PAUSE_MS >= deadline) return { r, expired: true };
    retrying?.(r);
    await deps.sleep(RETRY_PAUSE_MS);
  }
}

/**
 * The progress sentence of a check asked again (verifyDns `onWaiting`): `what` (`NAME through the
 * proxy`), its last try `r` — not answered (TIMEOUT, a socket error) or answered SERVFAIL so far —
 * and that it is asked until the verify deadline, `timeoutMs` after verify began.
 */
export function waitingText(what: string, r: Pick<QueryResult, 'rcode' | 'error'>, timeoutMs: number): string {
  const last = silent(r) ? `not answered yet (${r.rcode}${r.error ? `: ${r.error}` : ''})` : `answered ${r.rcode} so far`;
  return `${what} ${last}; asking again until the verify deadline, ${timeoutMs / 1000} s after it began …`;
}

/** Addresses of a result for messages. */
const shown = (r: QueryResult) => r.answers.map((a) => a.data).join(', ') || '(no address)';

/** What verify found; `warning` is set when it passed without checking an external name. */
export interface VerifyOutcome {
  summary: string;
  detail: Record<string, unknown>;
  /** One sentence with the fix, for the result's warnings (`warningCode`). */
  warning: string | null;
  /** UPSTREAM_UNVERIFIED: no upstream answered; UPSTREAM_NO_ADDRESS: it answered without an address (NXDOMAIN, NODATA…). */
  warningCode?: 'UPSTREAM_UNVERIFIED' | 'UPSTREAM_NO_ADDRESS';
}

/**
 * VERIFY_UPSTREAM's words for the upstreams the user named, per front end: the CLI's `--upstream`
 * flag, the window's Start options → Upstreams field (walk 24: the window quoted the flag); also
 * preflight's NO_UPSTREAM and UPSTREAM_LOOP for them (preflight.ts).
 */
export const NAMED_UPSTREAM_WORDS: Record<FrontEnd, { one: string; many: string; every: string; without: string }> = {
  cli: { one: '--upstream you named', many: '--upstream you named', every: 'every --upstream you name', without: 'start without --upstream' },
  gui: { one: 'upstream you entered in Start options → Upstreams', many: 'upstreams you entered in Start options → Upstreams', every: 'every upstream entered there', without: 'clear Upstreams in Start options and start again' },
};

/** Upstream did not answer at all (nothing listens, no route, timeout): not a DNS answer. */
function silent(r: Pick<QueryResult, 'rcode'>): boolean {
  return r.rcode === 'TIMEOUT' || r.rcode === 'ERROR';
}

/**
 * Verify step: the proxy and the system resolver both resolve
 * `kubernetes.default.svc.<domain>` to the kubernetes Service ClusterIP; an external name gets
 * the same answer class and at least one shared answer record through the proxy as from the
 * first upstream directly (answer-compare.ts). The checks run in parallel under ONE
 * deadline (`timeoutMs`, default VERIFY_TIMEOUT_MS), each retried while unanswered.
 * Upstreams the user named (`explicitUpstreams`, `--upstream`) must each answer the external
 * name directly (retried until the deadline), else VERIFY_UPSTREAM: a typo there would send
 * every non-cluster name into the void. Discovered upstreams get one attempt: an offline host
 * still starts (cluster names work), and the outcome carries a `warning` saying so.
 * Throws VERIFY_PROXY / VERIFY_SYSTEM / VERIFY_UPSTREAM / VERIFY_EXTERNAL failures whose
 * message says when the deadline is what ran out; VERIFY_UPSTREAM's in the words of `frontEnd`
 * (NAMED_UPSTREAM_WORDS). `paths` (the host's other lookup paths, host-paths.ts) may still be
 * read: the other checks begin meanwhile, and its rejection fails verify.
 * `onAsked`, when given, gets what verify asked once its queries are done, passed or failed: the
 * cluster name and `externalName` as asked, and the window (deps.now(), ms wall clock) from just
 * before its first query to just after its last answer (capture/start-checks.ts: the query log
 * marks those rows as start's checks). `onWaiting`, when given, gets one sentence (waitingText)
 * once, when a check is asked again WAITING_AFTER_MS or more after verify began: start reports it
 * as the verify step's progress.
 */
export async function verifyDns(
  deps: LifecycleDeps,
  d: ClusterDiscovery,
  upstreams: string[],
  externalName: string,
  timeoutMs = VERIFY_TIMEOUT_MS,
  explicitUpstreams = false,
  paths: HostPath[] | Promise<HostPath[]> = [],
  frontEnd: FrontEnd = 'cli',
  onAsked?: (checks: StartChecks) => void,
  onWaiting?: (text: string) => void,
): Promise<VerifyOutcome> {
  const name = `kubernetes.default.svc.${d.clusterDomain}`;
  const want = d.kubernetesServiceIp;
  const upstream = upstreams[0]!;
  const deadline = deps.now() + timeoutMs;
  // A check asked until the deadline: "no answer" only when its last try got none (a SERVFAIL is an answer);
  // one this host refused at once on each try: said so, with no deadline (it was not waited for).
  const ranOut = ({ expired, r: last, refusedHere: tries }: Asked) =>
    tries ? ` (at once on each of ${tries} tries: this host cannot send to it, so it was not asked again until the verify deadline)` : !expired ? '' : !silent(last) ? ` (still so when the verify deadline of ${timeoutMs} ms ran out: asked again until then)` : ` (no answer within the verify deadline of ${timeoutMs} ms)`;
  const askUpstream = (server: string, t: number) => deps.query({ name: externalName, type: 'A', server, timeoutMs: t });

  // Each named upstream, until it answers or the deadline passes (a lost datagram is retried), or
  // this host refuses to send to it at once on each try (`--upstream fe80::1%lo`: ENETUNREACH).
  const named = async () => (explicitUpstreams ? Promise.all(upstreams.map(async (u) => ({ u, ...(await untilAnswered(deps, deadline, (t) => askUpstream(u, t), { retrying: retrying(`${externalName} from ${u}`), retry: silent })) }))) : []);
  // Discovered upstreams, one attempt each in order, until one gives an answer the host's
  // resolver would keep (glibc moves on after a timeout, SERVFAIL or REFUSED):
  // with a dead first nameserver the external name is still checked, against the second.
  const firstAnswering = async (): Promise<{ u: string; r: QueryResult; skipped: string[] }> => {
    const skipped: string[] = [];
    let last: { u: string; r: QueryResult } | null = null;
    for (const u of upstreams) {
      const left = deadline - deps.now();
      if (last && left <= 0) break;
      const r = await askUpstream(u, Math.max(1, Math.min(ATTEMPT_MS, left)));
      last = { u, r };
      if (!silent(r) && r.rcode !== 'SERVFAIL' && r.rcode !== 'REFUSED') return { u, r, skipped };
      skipped.push(`${u} (${r.rcode})`);
    }
    return { ...last!, skipped: skipped.slice(0, -1) };
  };
  const external = async (direct: QueryResult) => {
    if (silent(direct)) return { direct, via: null };
    return { direct, via: await untilAnswered(deps, deadline, (t) => deps.query({ name: externalName, type: 'A', server: '127.0.0.1:53', timeoutMs: t }), { retrying: retrying(`${externalName} through the proxy`) }) };
  };
  const fromMs = deps.now();
  // The first check asked again past WAITING_AFTER_MS is said, once.
  let waitingSaid = !onWaiting;
  const retrying = (what: string) => (r: QueryResult) => {
    if (waitingSaid || deps.now() - fromMs < WAITING_AFTER_MS) return;
    waitingSaid = true;
    onWaiting!(waitingText(what, r, timeoutMs));
  };
  const [proxy, system, ext, viaPaths] = await Promise.all([
    untilAnswered(deps, deadline, (t) => deps.query({ name, type: 'A', server: '127.0.0.1:53', timeoutMs: t }), { retrying: retrying(`${name} through the proxy`) }),
    untilAnswered(deps, deadline, () => deps.systemLookup(name), { retrying: retrying(`${name} through getaddrinfo`) }),
    (async () => {
      const checked = await named();
      const dead = checked.filter((c) => silent(c.r) || c.r.rcode === 'REFUSED');
      if (dead.length) return { dead, asked: upstream, skipped: [] as string[], direct: null, via: null };
      const first = checked[0] ? { u: checked[0].u, r: checked[0].r, skipped: [] as string[] } : await firstAnswering();
      return { dead, asked: first.u, skipped: first.skipped, ...(await external(first.r)) };
    })(),
    Promise.resolve(paths).then((list) => Promise.all(list.map(async (p) => ({ p, ...(await untilAnswered(deps, deadline, (t) => p.ask(name, t), { retrying: retrying(`${name} through ${p.label}`) })) })))),
  ]).finally(() => onAsked?.({ names: [name, externalName], fromMs, toMs: deps.now() }));

  if (!proxy.r.answers.some((a) => a.data === want)) {
    throw failed('VERIFY_PROXY', `The proxy answered ${name} with ${proxy.r.rcode} ${shown(proxy.r)}, not ${want}${ranOut(proxy)}; is CoreDNS at ${d.kubeDnsIp} reachable from this host?`);
  }
  if (!system.r.answers.some((a) => a.data === want)) {
    throw failed('VERIFY_SYSTEM', `The system resolver (getaddrinfo) answered ${name} with ${system.r.rcode} ${shown(system.r)}, not ${want}${ranOut(system)}; check the hosts line of /etc/nsswitch.conf.`);
  }
  // Every path host programs use must see the cluster: one that misses it
  // leaves some programs without cluster names although the proxy answers.
  const missed = viaPaths.find((v) => !v.r.answers.some((a) => a.data === want));
  if (missed) {
    throw failed('VERIFY_SYSTEM', `${missed.p.label} answered ${name} with ${missed.r.rcode}${missed.r.error ? ` (${missed.r.error})` : ''} ${shown(missed.r)}, not ${want}${ranOut(missed)}; programs that resolve this way would not find cluster names. Check \`resolvectl status\` (the cluster zones must be on the KubeSwitch link) and the hosts line of /etc/nsswitch.conf.`);
  }
  if (ext.dead.length) {
    // An errno this host gave (EADDRNOTAVAIL, EINVAL …) in the probes' words, with its fix
    // (shared/probe-failure.ts), not Node's raw message; a closed port or a timeout as probed.
    const noAnswer = (r: QueryResult) => {
      const errno = r.rcode === 'ERROR' && !isPortUnreachable(r.error) ? errnoWords(r.error) : null;
      return errno ? `gave no answer: ${errno}` : `gave no answer (${r.rcode}${r.error ? `: ${r.error}` : ''})`;
    };
    const what = ext.dead.map(({ u, r }) => `${u} ${r.rcode === 'REFUSED' ? 'refused' : noAnswer(r)}`).join('; ');
    // All dead: nothing outside the cluster resolves. Some dead: the others answer, but a name
    // they fail waits for the dead one's timeout, and a typo'd address is kept silently: refused
    // either way, in words that say which case it is.
    const allDead = ext.dead.length === upstreams.length;
    const w = NAMED_UPSTREAM_WORDS[frontEnd];
    const consequence = allDead
      ? 'every non-cluster name would fail through the proxy'
      : `the other${upstreams.length - ext.dead.length === 1 ? ' answers' : 's answer'} (${upstreams.filter((u) => !ext.dead.some((d) => d.u === u)).join(', ')}), but ${w.every} must answer: remove it or correct the address`;
    throw failed('VERIFY_UPSTREAM', `${allDead ? (upstreams.length > 1 && frontEnd === 'gui' ? `The ${w.many} do` : `The ${w.one} does`) : `${ext.dead.length === 1 ? 'One' : 'Some'} of the ${w.many} do${ext.dead.length === 1 ? 'es' : ''}`} not resolve ${externalName}: ${what}${silent(ext.dead[0]!.r) ? ranOut(ext.dead[0]!) : ''}; ${consequence}. Check the address (${cliCommand(`query ${externalName} --server ${ext.dead[0]!.u}`)}), or ${w.without} to use the nameservers of your /etc/resolv.conf.`);
  }
  let externalNote = `skipped (${upstreams.length > 1 ? 'no upstream answered' : 'the upstream did not answer'}: offline host?)`;
  let warning: string | null = null;
  const asked = ext.asked;
  if (ext.via) {
    // Answer data, not only the class.
    const mismatch = answerMismatch(ext.direct!, ext.via.r);
    if (mismatch) {
      throw failed('VERIFY_EXTERNAL', `${externalName}: ${mismatch} (upstream ${asked})${ranOut(ext.via)}; check the upstream rules in the proxy config (a refused zone allowed, or a zone routed to CoreDNS?).`);
    }
    const cls = answerClass(ext.via.r);
    externalNote = `${cls} as from ${asked}${ext.skipped.length ? ` (asked after ${ext.skipped.join(', ')}, as glibc does)` : ''}`;
    // The proxy passed on what the upstream said, but a real name without an address means the
    // upstream may not resolve Internet names: a warning (the step's `!`, shared/step-warn.ts).
    if (cls !== 'answer') {
      warning = `Your nameserver ${asked} answered ${externalName} with ${cls === 'nxdomain' ? 'NXDOMAIN' : cls === 'nodata' ? 'no address (NODATA)' : cls}, so it may not resolve Internet names; if ${externalName} should resolve, check it with ${cliCommand(`query ${externalName} --server ${asked}`)}, or start again with ${upstreamStartWays([], [asked], 'the IP address of one that does')} (or --verify-name NAME for a name it serves).`;
      return outcome('UPSTREAM_NO_ADDRESS');
    }
  } else {
    // The cause the socket reported, in the probes' words (ENETUNREACH: "network unreachable …",
    // shared/probe-failure.ts), not a bare "(ERROR)" (walk 7 L8); else the rcode (TIMEOUT).
    const errno = errnoWords(ext.direct?.error);
    const why = errno ? `: ${errno}` : ` (${ext.direct?.rcode ?? 'no answer'})`;
    warning = `Your nameserver${upstreams.length > 1 ? 's' : ''} ${upstreams.length > 1 ? upstreams.join(', ') : upstream} did not answer ${externalName}${why}, so names outside the cluster were not checked and may not resolve; if this host is online, check it with ${cliCommand(`query ${externalName} --server ${upstream}`)}, or start again with ${upstreamStartWays([], upstreams, 'the IP address of a nameserver that answers')}.`;
  }
  return outcome('UPSTREAM_UNVERIFIED');

  function outcome(code: NonNullable<VerifyOutcome['warningCode']>): VerifyOutcome {
    return {
    summary: `${name} → ${want} through the proxy and getaddrinfo${viaPaths.length ? ` and ${viaPaths.length} more path${viaPaths.length === 1 ? '' : 's'} (${viaPaths.map((v) => v.r.server).join(', ')})` : ''}; ${externalName}: ${externalNote}`,
    detail: { proxyMs: proxy.r.latencyMs, systemMs: system.r.latencyMs, external: externalNote, paths: viaPaths.map((v) => ({ path: v.p.label, ms: v.r.latencyMs })) },
    warning,
    ...(warning ? { warningCode: code } : {}),
    };
  }
}
