/**
 * One health model: the real resolution path of a cluster name on this host,
 * walked hop by hop — getaddrinfo (what host apps see) → /etc/resolv.conf (owner, nameservers)
 * → each k2s-dnsproxy listener → kube-dns direct (the ClusterIP) → the original upstreams — and
 * one verdict: the hop where the path breaks, its cause and the fix. `status`, `doctor`, the
 * Overview and the Topology all read this model. Pure module: no Node or DOM imports.
 */
import { asRootWays, cliCommand, DRIFT_CHOICE, kubectlCommand, networkCheckWays, networkOverrideWays, resolverFileWays, shellCommand, shellWord, upstreamQueryWays, upstreamStartWays } from './fix';
import type { HostDnsStatus, QueryResult } from './types';
import { LIVE_LOOP_FIX, LOOP_WINDOW_MS, type LiveLoop } from './live-loop';
import type { HopKind, HopOutcome, HealthHop, HealthCause, HealthAction, HealthVerdict, HealthReport } from './health-report';
import { GLIBC_DEFAULT_NAMESERVER } from './drift-route';
import { ownerFixClause } from './drift-default';
import { doesNotAnswerWords, errnoWords, isPortUnreachable, PORT_UNREACHABLE, silenceDetail } from './probe-failure';
import { reachesListenerAddress } from './listener-reach';
import { RESOLVED_STUB_ADDRESSES } from './resolved-link';
import { missingOwnerWord, missingResolverWords } from './resolver-missing';
import { notResolverFix, notResolverGuiFix, startRefusalCode } from './network-writer';
import { lastRunWords } from './exit-status';
import { codeSpan } from './code-span';
import { watchdogRestartWords } from './watchdog-backoff';

export type { HopKind, HopOutcome, HealthHop, HealthCause, HealthAction, HealthVerdict, HealthReport } from './health-report';

/**
 * What changes the path (state, resolver owner, proxy PID, listeners, operation step, saved
 * original) or the verdict's advice on a dead proxy (the watchdog's or systemd's restart in
 * progress, or systemd's give-up): a report for another fingerprint is stale at once. The restart
 * is in it so the verdict and the Host DNS card say it from one status (walk 12 M1: a report
 * checked a moment before the watchdog's restart was seen said "nothing restarts it" next to a
 * card saying "the watchdog is restarting it").
 */
export function statusFingerprint(s: HostDnsStatus): string {
  const restart = s.watchdogRestart ? `watchdog ${s.watchdogRestart.restarts}` : s.serviceRestart ? `systemd ${s.serviceRestart.attempt}${s.serviceRestart.gaveUp ? ' gave up' : ''}` : '-';
  return [s.state, s.resolverOwner, s.pid ?? '-', s.listeners.map((l) => `${l.address}:${l.port}`).join(','), s.operation?.step ?? '-', s.savedAt ?? '-', restart].join('|');
}

/** The front end asking: the GUI gets buttons and steps, the CLI gets commands. */
export type FrontEnd = 'gui' | 'cli';

/**
 * What a plain stop does over the saved original another program put back (cause
 * `original-back`): electron/core/lifecycle/teardown.ts keeps its bytes and sets only the saved
 * mode and owner back (`back`), then ends the companions (network follower, query log capture,
 * systemd-resolved route) and removes the saved state.
 */
export const STOP_FINISHES = "it keeps your file's bytes, ends K2s DNS's companions and forgets the saved state";

/**
 * The `original-back` verdict's summary: /etc/resolv.conf holds the saved original again (same
 * bytes, or the same link: shared/resolver-compare.ts originalBack) and k2s-dnsproxy is stopped,
 * not crashed, as K2s's own `k2s stop` and `k2s uninstall` leave them (docs/host-integration.md).
 */
export const ORIGINAL_BACK_SUMMARY = "Your original resolver is back at /etc/resolv.conf and k2s-dnsproxy is stopped, as K2s's own `k2s stop` leaves them; K2s DNS's own stop has not run yet";

/** What each action says, per front end. GUI words name buttons; CLI words are commands (read when used: fix.ts setCliName). */
const FIX: Record<HealthAction, Record<FrontEnd, string>> = {
  // The saved original back and the proxy stopped by another program: the window's one Stop button (verdictFix gives the CLI's).
  stop: { gui: `press Stop in Host DNS below (${STOP_FINISHES})`, get cli() { return `${cliCommand('stop', true)} (${STOP_FINISHES})`; } },
  start: { gui: 'Start', get cli() { return cliCommand('start', true); } },
  restart: { gui: 'Stop, then Start', get cli() { return `${cliCommand('stop', true)} && ${cliCommand('start', true)}`; } },
  // The drift choice is made in one place in the app: the drift banner (it asks before restoring).
  // Both choices, named as the banner names them, Keep their file first (the banner's and --on-drift's default when their file carries no risk; with one, verdictFix puts Restore my original first).
  restore: { gui: `Choose "${DRIFT_CHOICE.keep.label}" or "${DRIFT_CHOICE.restore.label}" in the banner at the top, then Start`, get cli() { return `"${DRIFT_CHOICE.keep.label}" (the default): ${DRIFT_CHOICE.keep.cli} && ${cliCommand('start', true)}; or "${DRIFT_CHOICE.restore.label}": ${DRIFT_CHOICE.restore.cli} && ${cliCommand('start', true)}`; } },
  recover: { gui: 'Stop (finishes the interrupted operation)', get cli() { return cliCommand('recover', true); } },
  wait: { gui: 'Wait for the running operation to finish', get cli() { return `wait for the running k2s-dns operation to finish, then run ${cliCommand('status')}`; } },
  // The API can report the CoreDNS pods Ready (the Cluster card's green count) while the kube-dns
  // ClusterIP does not answer: the fix names what can differ — the pods' own logs and the route to the ClusterIP.
  // The summary names the restart and, for the watchdog, its wait (shared/watchdog-backoff.ts: up
  // to 30 s, so no "few seconds" here); stop && start would fight it.
  'wait-watchdog': { gui: 'Wait for that restart, it checks again by itself', get cli() { return `wait for that restart, then run ${cliCommand('status')}`; } },
  'check-coredns': {
    // Without a verdict's commands (corednsCommands) no command is named: a bare kubectl does not work as printed (walk 10 H1).
    gui: corednsGui(null),
    // Without a verdict there is no ClusterIP to name: verdictFix names the one the check probed.
    get cli() { return checkCorednsCli(null); },
  },
  // The live loop's fix is the Corefile's, the same words as doctor's coredns-loop finding.
  'fix-coredns-loop': { gui: LIVE_LOOP_FIX.gui, get cli() { return LIVE_LOOP_FIX.cli; } },
  'check-network': {
    get gui() { const w = networkCheckWays(); return `${w.charAt(0).toUpperCase()}${w.slice(1)}: K2s DNS follows the network's resolver and switches by itself when the network writes a working one (an override: Stop, then Start with Start options → Upstreams and Network changes: keep)`; },
    // Without a verdict no nameserver is known: verdictFix names the ones the check probed.
    get cli() { return checkNetworkCli([]); },
  },
  'check-upstream': { gui: 'Check the network connection to your original nameservers', get cli() { return checkUpstreamCli([]); } },
  // Drift whose file still reaches the proxy: nothing is broken now. Without a keepRisk a nameserver of
  // their file answers (shared/drift-default.ts silentAfterStop), so both choices work and Keep is the default.
  'restore-via': {
    gui: `Nothing is broken now, you can leave K2s DNS running; to end the drift, choose "${DRIFT_CHOICE.keep.label}" (the default) or "${DRIFT_CHOICE.restore.label}" in the banner at the top`,
    get cli() { return `nothing is broken now; to end the drift: "${DRIFT_CHOICE.keep.label}" (the default): ${DRIFT_CHOICE.keep.cli}; or "${DRIFT_CHOICE.restore.label}": ${DRIFT_CHOICE.restore.cli}`; },
  },
  'fix-resolver': { get gui() { return fixResolverText('gui', resolverFileWays()); }, get cli() { return fixResolverText('cli', resolverFileWays()); } },
  'check-nsswitch': { gui: 'Check the hosts line of /etc/nsswitch.conf (it must include dns)', cli: 'grep ^hosts /etc/nsswitch.conf' },
  // Start's own fix for NOT_RESOLVER_FILE (shared/network-writer.ts; doctor's finding says the same): no start line to run as is.
  'replace-resolver': { get gui() { return notResolverGuiFix(); }, get cli() { return notResolverFix(); } },
};

/**
 * The `fix-resolver` fix (stopped, and the nameservers /etc/resolv.conf names do not answer) in
 * the words of `frontEnd`: a nameserver that answers into the file, in `ways` (shared/fix.ts
 * resolverFileWays, as the runtime that checked built it: HealthVerdict.resolverWays), then Start.
 */
export function fixResolverText(frontEnd: FrontEnd, ways: string): string {
  return frontEnd === 'gui' ? `Put a nameserver that answers into /etc/resolv.conf (${ways}); then Start` : `put a nameserver that answers into /etc/resolv.conf (${ways}); then ${cliCommand('start', true)}`;
}

/**
 * The CLI fix for a followed network whose nameservers do not answer (`check-network`): a check of
 * the first of `silent` (the upstream hops' targets that did not answer: the verdict's
 * silentUpstreams), and an override, stop then a start naming none of them (shared/fix.ts
 * upstreamQueryWays, networkOverrideWays: real addresses, or a line ending with <IP> and what replaces it; walk 7 M4).
 */
export function checkNetworkCli(silent: readonly string[]): string {
  return `${networkCheckWays(silent)} (${upstreamQueryWays(silent[0] ?? null, "the network's nameserver's IP address")}); an override: ${networkOverrideWays(silent)}`;
}

/** The CLI fix for original upstreams that do not answer (`check-upstream`): a check of the first of `silent` (as checkNetworkCli's), the address the proxy forwards to. */
export function checkUpstreamCli(silent: readonly string[]): string {
  return upstreamQueryWays(silent[0] ?? null, "an original nameserver's IP address");
}

/**
 * The CLI fix for CoreDNS down: the CoreDNS pods' logs and the route to `kubeDnsIp`, the kube-dns
 * ClusterIP the check probed (the verdict's `kubeDnsIp`; null: the address in prose, walk 7 M4). Each command works
 * as printed (walk 9 M1): kubectl names the kubeconfig K2s DNS uses (kubectlCommand), and both
 * run where K2s DNS runs (shellCommand: the sandbox's wrapper), never a nested kubectl that
 * leaves `ip route get ""` when it fails.
 */
export function checkCorednsCli(kubeDnsIp: string | null): string {
  const c = corednsCommands(kubeDnsIp);
  return `${c.logs} (pods can be Ready while the ClusterIP does not answer), then check the pod network / KubeSwitch route: ${c.route ?? '`ip route get` followed by the kube-dns ClusterIP'}`;
}

/**
 * The two commands of the CoreDNS-down fix as this runtime's user pastes them: `logs`, the CoreDNS
 * pods' log through kubectlCommand (the kubeconfig K2s DNS uses, the sandbox's wrapper); `route`,
 * `ip route get KUBEDNSIP` through shellCommand, null without an address. Read when called (fix.ts
 * setCliName, setKubectlKubeconfig): healthVerdict puts them in the verdict where the check runs,
 * so the window (whose renderer knows neither) shows the same lines as the CLI (walk 10 H1).
 */
export function corednsCommands(kubeDnsIp: string | null): { logs: string; route: string | null } {
  // The address comes from the cluster (discovery): one shell word whatever it holds.
  return { logs: kubectlCommand('-n kube-system logs -l k8s-app=kube-dns'), route: kubeDnsIp ? shellCommand(`ip route get ${shellWord(kubeDnsIp)}`) : null };
}

/**
 * The window's CoreDNS-down fix: why the Cluster card can be green, then the two commands as code
 * spans (RichText renders `…` as <code>, the window's way of showing a command to paste), each
 * as corednsCommands built it where the check ran; null: the steps in words, with no command.
 */
export function corednsGui(c: { logs: string; route: string | null } | null): string {
  const why = 'The Cluster card’s “pods ready” is the API’s view and can be green while the kube-dns ClusterIP does not answer: in a terminal, ';
  if (!c) return `${why}read the CoreDNS pods’ logs and check the pod network / KubeSwitch route to the ClusterIP`;
  return `${why}read the CoreDNS logs with ${codeSpan(c.logs)} and check the pod network / KubeSwitch route to the ClusterIP with ${c.route ? codeSpan(c.route) : '`ip route get` and its address'}`;
}

/** A check-coredns verdict's own fields: the ClusterIP probed (when known) and the fix's commands (corednsCommands). */
function corednsFields(kubeDnsIp: string | null): Pick<HealthVerdict, 'kubeDnsIp' | 'corednsCommands'> {
  return { ...(kubeDnsIp ? { kubeDnsIp } : {}), corednsCommands: corednsCommands(kubeDnsIp) };
}

/** A drift verdict's words for what happened to /etc/resolv.conf (its summary, as status and doctor print it). */
const DRIFT_CHANGED = '/etc/resolv.conf was changed by another program';
const DRIFT_REWROTE = 'another program rewrote /etc/resolv.conf';
const DRIFT_EDITED = "another program edited K2s's /etc/resolv.conf";

/**
 * A verdict's summary as the window shows it: for drift (not a deleted file) what happened to
 * /etc/resolv.conf is the drift banner's title, right above the verdict, so the verdict refers to
 * it instead of saying it again (walk 12 M3: the fact stood seven times on one screen); any other
 * summary as it is. `status` and doctor print the summary whole (no banner there).
 */
export function windowSummary(v: Pick<HealthVerdict, 'cause' | 'summary'>): string {
  if (v.cause !== 'drift') return v.summary;
  const ref = 'the banner at the top says what changed';
  return v.summary
    .replace(`, but ${DRIFT_CHANGED}: K2s DNS is bypassed`, `, but K2s DNS is bypassed (${ref})`)
    .replace(`: ${DRIFT_CHANGED}, so host apps bypass K2s DNS`, `: host apps bypass K2s DNS (${ref})`)
    .replace(new RegExp(`, but (${DRIFT_REWROTE}|${DRIFT_EDITED})$`), ` (${ref})`);
}

/** The address of a hop target `IP:PORT` (`[v6]:PORT` for IPv6): `172.21.0.10:53` → `172.21.0.10`. */
function targetAddress(target: string): string {
  const v6 = /^\[([^\]]+)\]:\d+$/.exec(target);
  return v6 ? v6[1]! : target.replace(/:\d+$/, '');
}

/** Actions whose fix is or chains a start: never the fix while start would refuse the file (VerdictInput.startRefusal). */
const STARTS: ReadonlySet<HealthAction> = new Set<HealthAction>(['start', 'restart', 'fix-resolver', 'check-network']);

/**
 * What a stopped verdict adds to its summary when start would refuse /etc/resolv.conf (`reason`:
 * HostDnsStatus.startRefusal, "the new file is not text (it holds NUL bytes)"): start's own cause, as
 * its refusal gives it, with start's code (shared/network-writer.ts startRefusalCode).
 */
export function startRefusedWords(reason: string): string {
  return `and start would refuse this /etc/resolv.conf (${startRefusalCode(reason)}): it ${reason.replace(/^the new file /, '')}, so K2s will not save it as your original`;
}

/** The fix of `action` in the words of `frontEnd`; null when there is no action. */
export function fixText(action: HealthAction | null, frontEnd: FrontEnd): string | null {
  return action ? FIX[action][frontEnd] : null;
}

/**
 * The fix of verdict `v` in the words of `frontEnd`: fixText, except for a drift verdict whose
 * default is Restore my original (v.keepRisk, the drift banner's rule in shared/drift-default.ts):
 * then Restore my original comes first as the default and Keep their file second with what it
 * would do in one clause (keepRisk.short), so the CLI, the window's verdict, the banner and a plain
 * `stop` name one default (walk5 H1: status printed Keep as "the default" for a file stop restores
 * over). The long explanation is not repeated here (walk 9 M3, issue #20 "one message per fact"):
 * the window's verdict points to the banner, which says it; the CLI's status prints it once as a
 * note and doctor in its finding's meaning.
 * For a deleted file both choices put the saved original back, so the fix is a plain stop. For a
 * file the follower refused (keepRisk.refused) Keep their file is a stop only, as the banner's
 * button: no start is chained to it (it would save the refused file as the original, walk 7 M1).
 * `restoreName`: the restore choice as the banner's button names it (shared/saved-copy.ts
 * restoreLabel: after a follow "Restore the saved file from HH:MM:SS", walk 9 L1); defaults to
 * DRIFT_CHOICE.restore.label. A stopped verdict's CLI fix is asRootWays('start'): sudo, and
 * `su -c` where sudo is not installed.
 */
export function verdictFix(v: Pick<HealthVerdict, 'action' | 'keepRisk' | 'kubeDnsIp' | 'corednsCommands' | 'resolverWays' | 'silentUpstreams'>, frontEnd: FrontEnd, restoreName: string = DRIFT_CHOICE.restore.label): string | null {
  if (v.action === 'check-coredns') return frontEnd === 'cli' ? checkCorednsCli(v.kubeDnsIp ?? null) : corednsGui(v.corednsCommands ?? null);
  // Stopped: the start as root, with `su -c` beside sudo (a minimal Debian has no sudo), as status's other root fixes.
  if (frontEnd === 'cli' && v.action === 'start') return asRootWays('start');
  if (frontEnd === 'cli' && v.action === 'stop') return `${asRootWays('stop')} (${STOP_FINISHES})`;
  if (frontEnd === 'cli' && v.action === 'check-network' && v.silentUpstreams) return checkNetworkCli(v.silentUpstreams);
  if (frontEnd === 'cli' && v.action === 'check-upstream' && v.silentUpstreams) return checkUpstreamCli(v.silentUpstreams);
  // Where the check ran, its runtime's ways (the sandbox's wrapper): the renderer knows no wrapper.
  if (v.action === 'fix-resolver' && v.resolverWays) return fixResolverText(frontEnd, v.resolverWays);
  if (v.action === 'replace-resolver' && v.resolverWays) return frontEnd === 'gui' ? notResolverGuiFix(v.resolverWays) : notResolverFix(v.resolverWays);
  const risk = v.keepRisk;
  if (!risk || (v.action !== 'restore' && v.action !== 'restore-via')) {
    // The plain drift fix names both buttons: the restore one as the banner shows it.
    const text = fixText(v.action, frontEnd);
    return text && (v.action === 'restore' || v.action === 'restore-via') ? text.split(`"${DRIFT_CHOICE.restore.label}"`).join(`"${restoreName}"`) : text;
  }
  const keep = DRIFT_CHOICE.keep;
  const restore = DRIFT_CHOICE.restore;
  const start = cliCommand('start', true);
  // What Keep would do in one clause; where it is explained at length (walk 9 M3).
  const short = risk.short ?? risk.words.replace(/\.$/, '');
  const why = frontEnd === 'gui' ? ' (the banner says why)' : '';
  // Deleted: the banner has one button (no file of theirs to keep) and says what it puts back, and
  // the Host DNS card's Stop is a plain Stop (walk 12 M2): the window's fix names both, says no more.
  if (risk.gone) {
    const press = `press Stop in Host DNS below or "${restoreName}" in the banner at the top`;
    if (v.action === 'restore-via') {
      return frontEnd === 'gui'
        ? `Nothing is broken now, you can leave K2s DNS running; to end it, ${press}`
        : `nothing is broken now; to end it: ${cliCommand('stop', true)} (it puts the saved original back, with either --on-drift choice)`;
    }
    return frontEnd === 'gui'
      ? `${press.charAt(0).toUpperCase()}${press.slice(1)}, then Start`
      : `${cliCommand('stop', true)} && ${start} (stop puts the saved original back, with either --on-drift choice)`;
  }
  // A plain stop applies the same rule (stopRestores); only a report that did not ask their nameservers
  // (no theirNameservers) can give a `dead` that is the banner's default alone.
  const which = risk.stopRestores ? 'the default' : `the banner's default; a plain ${cliCommand('stop', true)} keeps theirs`;
  if (v.action === 'restore-via') {
    // Refused for its owner or mode only: its fix ends the drift with K2s DNS running (walk 11 M3).
    if (risk.ownerFix) {
      return frontEnd === 'gui'
        ? `Nothing is broken now, you can leave K2s DNS running; to end the drift, run the fix the banner at the top names (the network follower then follows their file), or choose "${restoreName}" (the default) in the banner, not "${keep.label}": ${short}${why}`
        : `nothing is broken now; to end the drift with K2s DNS running: ${risk.ownerFix} (the network follower then follows their file within seconds); or stop: ${restore.cli} (${which}; not --on-drift keep: ${short})`;
    }
    return frontEnd === 'gui'
      ? `Nothing is broken now, you can leave K2s DNS running; to end the drift, choose "${restoreName}" (the default) in the banner at the top, not "${keep.label}": ${short}${why}`
      : `nothing is broken now; to end the drift: ${restore.cli} (${which}; not --on-drift keep: ${short})`;
  }
  // A file the follower refused (its owner or mode, no resolver file, no nameserver but the proxy's):
  // Keep their file only stops, as the banner's button does; a start after it would save that very
  // file as the original (walk 7 M1), so none is chained and the fix says why.
  // A kept file start refuses (NOT_RESOLVER_FILE: NUL bytes…) is said so: start would not save it (walk 8 L5).
  if (risk.refused) {
    const after = risk.startRefuses ? 'a start would refuse it (NOT_RESOLVER_FILE) until /etc/resolv.conf is replaced with a resolver file' : 'a start would save it as your original';
    // Why it refused is said once where the choice is (the banner, status's note, doctor's meaning):
    // not again in this line (issue #20, walk 10 L1: status said the chmod reason three times).
    const noStart = `no start after it: K2s DNS refused to follow their file, and ${after}`;
    const stops = frontEnd === 'gui'
      ? `hoose "${restoreName}" (the default) in the banner at the top, then Start; "${keep.label}" only stops (${noStart.replace('a start', 'Start')})`
      : `"${restoreName}" (${which}): ${restore.cli} && ${start}; or "${keep.label}", which only stops: ${keep.cli} (${noStart})`;
    // Refused for its owner or mode only: the fix that keeps K2s DNS running first, as the banner
    // gives it (walk 11 M3); the window's verdict refers to the banner, which prints the command.
    if (risk.ownerFix) {
      return frontEnd === 'gui'
        ? `To keep K2s DNS running, run the fix the banner at the top names: the network follower then follows their file; or c${stops}`
        : `to keep K2s DNS running: ${risk.ownerFix} (the network follower then follows their file within seconds); or stop: ${stops}`;
    }
    return frontEnd === 'gui' ? `C${stops}` : stops;
  }
  return frontEnd === 'gui'
    ? `Choose "${restoreName}" (the default) or "${keep.label}" in the banner at the top, then Start`
    : `"${restoreName}" (${which}): ${restore.cli} && ${start}; or "${keep.label}" (${short}): ${keep.cli} && ${start}`;
}

/**
 * Maps a probe result to a hop outcome. `needAnswer` false (upstreams): any DNS reply counts
 * as `answer`, since an NXDOMAIN still proves the nameserver answers.
 */
export function outcomeOf(r: QueryResult, needAnswer = true): HopOutcome {
  if (r.rcode === 'TIMEOUT') return 'timeout';
  // A reply that cannot be decoded proves nothing about the name, upstream or not.
  if (r.rcode === 'MALFORMED_ANSWER') return 'error';
  if (r.rcode === 'ERROR') return /ECONNREFUSED|port unreachable|refused the connection/i.test(r.error ?? '') ? 'unreachable' : 'error';
  if (!needAnswer) return 'answer';
  if (r.rcode === 'NOERROR') return r.answers.length > 0 ? 'answer' : 'nodata';
  if (r.rcode === 'NXDOMAIN') return 'nxdomain';
  if (r.rcode === 'SERVFAIL') return 'servfail';
  if (r.rcode === 'REFUSED') return 'refused';
  return 'error';
}

/**
 * Why a query result's rcode differs from the first reply it got (QueryResult.recheck), in one
 * sentence; null when it was asked once. The CLI prints it under the headline, hops append it.
 */
export function recheckWords(r: Pick<QueryResult, 'rcode' | 'answers' | 'recheck'>): string | null {
  if (!r.recheck) return null;
  const now = r.answers.length > 0 ? `${r.rcode} with ${r.answers.length} record${r.answers.length === 1 ? '' : 's'}` : r.rcode === 'TIMEOUT' ? 'no answer in time (TIMEOUT)' : r.rcode;
  return `the first reply (in ${Math.round(r.recheck.latencyMs)} ms) was ${r.recheck.rcode} with no record and no SOA${RECHECK_WHY}; asked again on its own${RECHECK_HOW}: ${now}`;
}

/** recheckWords's clause saying why a first reply can be bare (electron/core/probes/dns-query.ts isBareNoerror). */
const RECHECK_WHY = ', which is what AdGuard dnsproxy sends a question asked while an identical one is in flight and failing (it copies that reply and resets its rcode)';
/** recheckWords's clause saying how the question was asked again (electron/core/probes/dns-query.ts). */
const RECHECK_HOW = ' (CD bit: not merged, not from the cache)';

/**
 * recheckWords's explanation in one sentence, said once under a list of hops whose reasons
 * briefRecheck shortened (doctor's path: walk 16 — the CD bit twice in one ~900-character line).
 */
export const RECHECK_NOTE = 'a first reply with no record and no SOA is what AdGuard dnsproxy sends a question asked while an identical one is in flight and failing; the check then asks it again on its own with the CD bit set, so it is neither merged nor answered from the cache';

/** A hop's reason with recheckWords's two explanations cut out (said once as RECHECK_NOTE); other text as is. */
export function briefRecheck(reason: string): string {
  return reason.split(RECHECK_WHY).join('').split(RECHECK_HOW).join('');
}

/** A query hop from a probe result: `ok` when the outcome is `answer`. */
export function queryHop(id: string, kind: HopKind, r: QueryResult, needAnswer = true): HealthHop {
  const outcome = outcomeOf(r, needAnswer);
  const ok = outcome === 'answer';
  return {
    id,
    kind,
    target: r.server === 'system' ? 'getaddrinfo' : r.server,
    name: r.name,
    type: r.type,
    outcome,
    ok,
    answers: r.answers.map((a) => a.data),
    rcode: r.rcode,
    reason: ok ? null : [(kind === 'kube-dns' ? doesNotAnswerWords(r.server, { ...r, outcome }) : null) ?? describeOutcome(outcome, r), recheckWords(r)].filter(Boolean).join('; '),
    latencyMs: r.latencyMs,
  };
}

/**
 * A getaddrinfo TIMEOUT that came back long before any probe deadline (≥ 1 s) was no timeout: getaddrinfo
 * returns EAI_AGAIN at once when the nameserver's port refuses (ICMP port unreachable on glibc's
 * connected UDP socket). Below this many ms such a TIMEOUT is shown as `refused`.
 */
export const QUICK_FAILURE_MS = 500;

/**
 * True for getaddrinfo's TIMEOUT (EAI_AGAIN) returned within QUICK_FAILURE_MS: shown as refused.
 * Only getaddrinfo: the probes' own UDP queries (connected sockets, electron/core/probes/dns-query.ts)
 * see the refusal as ECONNREFUSED (outcome `unreachable`), so their TIMEOUT is always the deadline. `r`: a QueryResult (server `system`) or a hop (target `getaddrinfo`).
 */
export function refusedQuickly(r: { rcode: string | null; latencyMs: number | null; server?: string; target?: string }): boolean {
  const gai = r.server === 'system' || r.target === 'getaddrinfo';
  return gai && r.rcode === 'TIMEOUT' && r.latencyMs !== null && r.latencyMs < QUICK_FAILURE_MS;
}

/**
 * What a query hop got, as the CLI's `status` line and the Topology box show it: the answers, else
 * the rcode; `refused` for a closed port (outcome `unreachable`, or getaddrinfo's quick EAI_AGAIN:
 * refusedQuickly) — never TIMEOUT or ERROR for it.
 */
export function hopGot(h: Pick<HealthHop, 'ok' | 'answers' | 'rcode' | 'outcome' | 'latencyMs' | 'target'>): string {
  if (h.ok) return h.answers.length ? h.answers.join(', ') : (h.rcode ?? h.outcome);
  if (h.outcome === 'unreachable' || refusedQuickly(h)) return 'refused';
  return h.rcode ?? h.outcome;
}

/**
 * What the nameservers answered behind a failed getaddrinfo, from probe-lookup's error text
 * (electron/core/probes/probe-lookup.ts: `getaddrinfo gave up (EAI_AGAIN): 127.0.0.1:53 answered
 * SERVFAIL; …`); without that list, `a nameserver answered RCODE`. getaddrinfo has no rcode
 * (getaddrinfo(3): EAI_* codes), so the rcode is the nameserver's, asked again by the probe.
 */
function gaiNameserverWords(r: QueryResult, rcode: string): string {
  const list = /^getaddrinfo gave up[^:]*: (.+)$/.exec(r.error ?? '')?.[1];
  return list ?? `a nameserver answered ${rcode}`;
}

/** One sentence on a failed probe: the rcode or error in DNS terms. */
function describeOutcome(outcome: HopOutcome, r: QueryResult): string {
  const at = r.server === 'system' ? 'getaddrinfo' : r.server;
  switch (outcome) {
    case 'nodata':
      return `${at} answered NOERROR without an address for ${r.name} ${r.type}`;
    case 'nxdomain':
      return `${at} answered NXDOMAIN: it does not know ${r.name}`;
    case 'servfail':
      if (r.server === 'system') return `getaddrinfo returned EAI_AGAIN (temporary failure) for ${r.name}; the DNS rcode: ${gaiNameserverWords(r, 'SERVFAIL')} (SERVFAIL: its own upstream failed)`;
      return `${at} answered SERVFAIL for ${r.name}: its own upstream failed`;
    case 'refused':
      if (r.server === 'system') return `getaddrinfo found no address for ${r.name}; the DNS rcode: ${gaiNameserverWords(r, 'REFUSED')}`;
      return `${at} answered REFUSED for ${r.name}`;
    case 'timeout':
      if (refusedQuickly(r)) return `${at} was refused in ${Math.round(r.latencyMs)} ms${r.error ? ` (${r.error})` : ''}`;
      return `${at} did not answer in ${Math.round(r.latencyMs)} ms${r.error ? ` (${r.error})` : ''}`;
    case 'unreachable':
      // A UDP query to a closed port (ICMP port unreachable): the words getaddrinfo's hop uses too.
      if (isPortUnreachable(r.error)) return `${at} ${PORT_UNREACHABLE}`;
      return `nothing listens on ${at}${r.error ? ` (${r.error})` : ''}`;
    default: {
      // An errno the socket reported at once (ENETUNREACH…) in words, never as a timeout (shared/probe-failure.ts).
      const errno = errnoWords(r.error);
      return errno ? `${at}: ${errno}` : `${at} failed: ${r.error ?? r.rcode}`;
    }
  }
}

/**
 * One outcome per fact across the path (issue 20.2). getaddrinfo walks the search list of
 * resolv.conf (resolv.conf(5) `search`, glibc res_search) when the name itself fails: with
 * k2s-dnsproxy answering SERVFAIL or not at all for the cluster name (CoreDNS down), glibc then
 * asks `<name>.<search domain>`, which the upstreams answer NXDOMAIN — and returns that
 * (measured with AdGuard dnsproxy: "getaddrinfo · NXDOMAIN" while every DNS hop timed out).
 * That NXDOMAIN is not an answer for the name. So when a listener asked the same name timed
 * out, failed or answered SERVFAIL, the host apps' hop takes the listener's outcome, its rcode
 * and a reason that says why; everything else is left as probed. Pure; returns new hops.
 */
export function reconcileHops(hops: readonly HealthHop[]): HealthHop[] {
  const system = hops.find((h) => h.kind === 'system');
  if (!system || (system.outcome !== 'nxdomain' && system.outcome !== 'nodata')) return [...hops];
  const failed = (h: HealthHop) => h.outcome === 'timeout' || h.outcome === 'servfail' || h.outcome === 'unreachable' || h.outcome === 'error';
  // A listener asked the same name, or else kube-dns itself: the proxy sends the cluster zones
  // only there, so with it failing no NXDOMAIN for a cluster name can be the name's own answer
  // (the probes run side by side; a listener may still answer from cache while getaddrinfo's
  // walk reached the search list).
  // The listener the file names (its first nameserver, glibc's first choice), not any listener:
  // with 127.0.0.1 listed, the KubeSwitch listener's outcome is not what host apps saw (issue 20.3).
  const asked = askedListener(hops);
  if (asked === 'bypass') return [...hops];
  const listener = asked ?? hops.find((h) => h.kind === 'listener' && failed(h));
  const failing = (listener && failed(listener) ? listener : undefined) ?? hops.find((h) => h.kind === 'kube-dns' && failed(h));
  if (!failing) return [...hops];
  const what = failing.outcome === 'servfail' ? 'answered SERVFAIL for it' : failing.outcome === 'timeout' ? 'did not answer it' : 'failed';
  const reason = `getaddrinfo got no answer for ${system.name}: ${hopTitle(failing)} ${what}${failing.reason ? ` (${failing.reason})` : ''}; the “not found” getaddrinfo returned is for a search-list expansion of the name (resolv.conf search), not for the name itself`;
  return hops.map((h) => (h === system ? { ...h, outcome: failing.outcome, rcode: failing.rcode, ok: false, reason } : h));
}

/**
 * The listener hop host apps ask, from the resolver hop's nameservers (its `answers`): the one
 * glibc's first nameserver reaches (resolv.conf(5); no nameserver line: 127.0.0.1). `bypass`: the
 * first nameserver is no listener of the proxy (another program's file), so a listener's outcome
 * says nothing about getaddrinfo's; undefined: unknown (no resolver hop, or systemd-resolved's
 * stub, which forwards to the proxy itself), so any failing listener may be the one.
 */
function askedListener(hops: readonly HealthHop[]): HealthHop | 'bypass' | undefined {
  const resolver = hops.find((h) => h.kind === 'resolver');
  if (!resolver) return undefined;
  const first = resolver.answers[0] ?? GLIBC_DEFAULT_NAMESERVER;
  if ((RESOLVED_STUB_ADDRESSES as readonly string[]).includes(first)) return undefined;
  const listeners = hops.filter((h) => h.kind === 'listener' && h.outcome !== 'skipped' && h.outcome !== 'idle');
  const hit = listeners.find((h) => reachesListenerAddress(first, listenerAddressOf(h.target)));
  return hit ?? 'bypass';
}

/** The bare address of a listener hop's target: `127.0.0.1:53` → `127.0.0.1`, `[::1]:53` → `::1`. */
function listenerAddressOf(target: string): string {
  const v6 = /^\[(.*)\]:\d+$/.exec(target);
  if (v6) return v6[1]!;
  return target.replace(/:\d+$/, '');
}

/**
 * The Query tester's getaddrinfo result under the same rule as the host apps' hop
 * (reconcileHops): a cluster-domain name that getaddrinfo reports NXDOMAIN/NODATA while the
 * newest health report has a failing listener gets that listener's rcode and the reason; any
 * other result is returned as it is. `report` null: nothing to compare with.
 */
export function reconcileSystemResult(r: QueryResult, report: Pick<HealthReport, 'name' | 'hops'> | null): QueryResult {
  if (r.server !== 'system' || !report) return r;
  const domain = report.name.split('.svc.')[1];
  const name = r.name.toLowerCase().replace(/\.$/, '');
  if (!domain || !(name === domain || name.endsWith(`.${domain}`))) return r;
  const system = queryHop('system', 'system', r);
  const [after] = reconcileHops([system, ...report.hops.filter((h) => h.kind !== 'system')]);
  if (!after || after.outcome === system.outcome) return r;
  return { ...r, rcode: after.rcode ?? r.rcode, error: after.reason ?? r.error };
}

/** Facts the verdict needs besides the hops (from `status`). */
export interface VerdictInput {
  hops: readonly HealthHop[];
  state: HostDnsStatus['state'];
  /** Set while an operation runs (state starting/stopping) or was interrupted. */
  interrupted: boolean;
  /** The state file is corrupt (HostDnsStatus.stateProblem): stop cannot trust it as it is. */
  stateCorrupt?: boolean;
  /** The watchdog is restarting k2s-dnsproxy now (HostDnsStatus.watchdogRestart): wait, not stop && start. */
  watchdogRestart?: { restarts: number; max: number } | null;
  /** systemd is restarting k2s-dnsproxy now (HostDnsStatus.serviceRestart): wait, not stop && start. */
  serviceRestart?: { attempt: number; lastExit: string | null; reason: string | null; gaveUp: boolean } | null;
  /**
   * The running start follows the network (HostDnsStatus.onNetworkChange `follow`): its upstreams
   * are the network's nameservers, so a dead one is the network's to fix.
   */
  following?: boolean;
  /** The proxy's main pid (HostDnsStatus.pid), null when no process runs. */
  proxyPid?: number | null;
  /**
   * Set when another program's /etc/resolv.conf makes Restore my original the drift default
   * (HealthVerdict.keepRisk; electron/core/health/check-health.ts driftKeepRisk): carried onto a
   * drift verdict only. Null or absent when Keep their file is the default.
   */
  keepRisk?: HealthVerdict['keepRisk'];
  /**
   * A CoreDNS ↔ proxy loop running now (shared/live-loop.ts recentLoops over the query log),
   * the same finding as doctor's `coredns-loop`; null or absent when none.
   */
  liveLoop?: LiveLoop | null;
  /**
   * Why start would refuse /etc/resolv.conf as it is (HostDnsStatus.startRefusal, preflight
   * NOT_RESOLVER_FILE); null or absent when it would save it. While stopped, a verdict whose fix
   * is or chains a start (STARTS) names the refusal and gets `replace-resolver` instead (walk 8 H1).
   */
  startRefusal?: string | null;
  /**
   * The saved original is back at /etc/resolv.conf and k2s-dnsproxy is stopped, not crashed
   * (HostDnsStatus.originalBack): the verdict `original-back`, whose fix is a plain stop.
   */
  originalBack?: boolean;
  /**
   * The listener the `ok` summary names (`resolves via k2s-dnsproxy (127.0.0.1:53)`) when no
   * listener hop was probed: a user who cannot read the state file gets no listener list
   * (electron/core/health/check-health.ts shownListener). Absent: the first listener hop's target.
   */
  listenerShown?: string | null;
}

/**
 * The kube-dns hop's `why` while K2s DNS is stopped and a kubeconfig is found: status asks no
 * cluster (start does), so its address is K2s's default *not read*, not one discovery failed to
 * find (kubeDnsDefaultWords: a new user read "not discovered" beside doctor's "kube-dns at …").
 */
export const START_READS_KUBE_DNS = 'start reads it from the cluster';

/**
 * A kube-dns hop's address said as K2s's default when it was not discovered from a cluster
 * (HealthHop.addressFrom): `K2s's default: not discovered — no kubeconfig`; when it was, but in a
 * saved state this user cannot read (`unread`), `K2s's default: ` and that why, never "not
 * discovered"; read by the window's cluster discovery while stopped (`cluster`): `read from the
 * cluster`; stopped with a kubeconfig (START_READS_KUBE_DNS): `K2s's default: not read while
 * stopped — start reads it from the cluster`; null when discovered or not a kube-dns hop.
 */
export function kubeDnsDefaultWords(h: Pick<HealthHop, 'kind' | 'addressFrom'>): string | null {
  if (h.kind !== 'kube-dns' || !h.addressFrom || h.addressFrom.source === 'discovered') return null;
  if (h.addressFrom.source === 'cluster') return 'read from the cluster';
  if (h.addressFrom.source === 'unread') return `K2s's default: ${h.addressFrom.why ?? 'the discovered address is not readable here'}`;
  if (h.addressFrom.why === START_READS_KUBE_DNS) return `K2s's default: not read while stopped — ${START_READS_KUBE_DNS}`;
  return `K2s's default: not discovered${h.addressFrom.why ? ` — ${h.addressFrom.why}` : ''}`;
}

/** Short display name of a hop for the summary line. */
export function hopTitle(h: Pick<HealthHop, 'kind' | 'target' | 'addressFrom'>): string {
  switch (h.kind) {
    case 'system':
      return 'host apps (getaddrinfo)';
    case 'resolver':
      return '/etc/resolv.conf';
    case 'listener':
      return `k2s-dnsproxy on ${h.target}`;
    case 'kube-dns': {
      const fallback = kubeDnsDefaultWords(h);
      return `CoreDNS (kube-dns ${h.target}${fallback ? `, ${fallback}` : ''})`;
    }
    case 'upstream':
      return `upstream ${h.target}`;
  }
}

const NOT_RESOLVING = 'Cluster names do not resolve on this host';

/**
 * The verdict over the hops (path order: system, resolver, listeners, kube-dns, upstreams).
 * A listener failing because kube-dns fails is explained by kube-dns: the verdict names the
 * hop whose failure no later hop explains (CoreDNS down is `coredns-down`, never "proxy").
 */
export function healthVerdict(input: VerdictInput): HealthVerdict {
  const { hops, state } = input;
  const system = hops.find((h) => h.kind === 'system');
  const resolver = hops.find((h) => h.kind === 'resolver');
  const listeners = hops.filter((h) => h.kind === 'listener' && h.outcome !== 'skipped' && h.outcome !== 'idle');
  const kubeDns = hops.find((h) => h.kind === 'kube-dns');
  const upstreams = hops.filter((h) => h.kind === 'upstream' && h.outcome !== 'skipped');
  const resolves = !!system?.ok;
  // One rule for every printed start (walk 8 H1): none while start would refuse the file.
  const refusedStart = state === 'stopped' ? (input.startRefusal ?? null) : null;
  const v = (level: HealthVerdict['level'], cause: HealthCause, hop: HealthHop | undefined | null, summary: string, action: HealthAction | null): HealthVerdict => {
    const blocked = refusedStart !== null && action !== null && STARTS.has(action);
    return {
      level,
      resolves,
      cause,
      hopId: hop?.id ?? null,
      summary: blocked ? `${summary}, ${startRefusedWords(refusedStart)}` : summary,
      action: blocked ? 'replace-resolver' : action,
      ...(input.keepRisk && (action === 'restore' || action === 'restore-via') ? { keepRisk: input.keepRisk } : {}),
      ...(action === 'check-coredns' ? corednsFields(hop?.kind === 'kube-dns' ? targetAddress(hop.target) : null) : {}),
      ...(blocked || action === 'fix-resolver' ? { resolverWays: resolverFileWays() } : {}),
      ...(!blocked && (action === 'check-network' || action === 'check-upstream') ? { silentUpstreams: silentTargets() } : {}),
    };
  };
  // The upstream hops that did not answer: the fix of check-network / check-upstream names them.
  function silentTargets(): string[] {
    return hops.filter((h) => h.kind === 'upstream' && h.outcome !== 'skipped' && !h.ok).map((h) => h.target);
  }
  const reasonOf = (h: HealthHop | undefined) => (h?.reason ? `: ${h.reason}` : '');
  // CoreDNS refused or silent is one fact, "does not answer" (shared/probe-failure.ts DOES_NOT_ANSWER):
  // the title names the address, so only which of the two follows, in parentheses.
  const kubeDnsWhy = (h: HealthHop) => {
    const detail = silenceDetail(h);
    return detail ? ` (${detail})` : reasonOf(h);
  };
  // A deleted (or dangling) /etc/resolv.conf is said as such, never as a file another program wrote (walk5 M5).
  const gone = input.keepRisk?.gone ?? null;
  const goneWords = gone ? `/etc/resolv.conf was ${gone} while K2s DNS ran` : null;

  if (state === 'starting' || state === 'stopping') {
    return v('warn', 'busy', null, `K2s DNS is ${state}; the path is checked again when it is done`, 'wait');
  }
  if (input.interrupted) return v('error', 'interrupted', resolver, `${resolves ? 'Cluster names resolve, but a' : `${NOT_RESOLVING}: a`} k2s-dns operation was interrupted`, 'recover');
  // Even while names resolve: the saved original cannot be read as it is, so a plain stop
  // would not give the user's resolver back. recover salvages it.
  if (input.stateCorrupt) return v('error', 'state-corrupt', resolver, `${resolves ? 'Cluster names resolve, but the' : `${NOT_RESOLVING}: the`} saved resolver state (/var/lib/k2s/dns-resolver-state.json) is corrupt`, 'recover');
  // Not drift and not a proxy to start again: another program's stop, which K2s DNS's stop finishes
  // (off: the proxy is meant to be down). A watchdog restarting it says a crash instead (below).
  if (input.originalBack && !input.watchdogRestart) return v('off', 'original-back', resolver, ORIGINAL_BACK_SUMMARY, 'stop');
  const deadUpstreams = upstreams.filter((h) => !h.ok);
  // A live loop is an error whether or not the probe name resolves: the looping names time out
  // for pods and host apps, and every copy costs CoreDNS and the proxy (doctor's coredns-loop).
  if (input.liveLoop && state !== 'stopped') {
    const l = input.liveLoop;
    return v('error', 'coredns-loop', kubeDns, `${resolves ? 'Cluster names resolve, but CoreDNS' : `${NOT_RESOLVING}: CoreDNS`} and k2s-dnsproxy forward ${l.type} ${l.name} to each other (a loop: ${l.count} copies within ${LOOP_WINDOW_MS / 1000} s from ${l.clients.join(', ')})`, 'fix-coredns-loop');
  }

  if (resolves) {
    // Their file may still reach the proxy (no nameserver line, or 127.0.0.1 first: shared/drift-route.ts).
    // K2s's own file edited in place whose first nameserver is still a listener (check-health.ts resolverHop) is the same.
    const driftVia = (resolver?.outcome === 'foreign' || resolver?.outcome === 'k2s-edited') && resolver.ok;
    const via = resolver?.outcome === 'k2s' || driftVia;
    if (!via) {
      const drift = resolver?.outcome === 'foreign' || resolver?.outcome === 'k2s-edited';
      if (drift) return v('warn', 'drift', resolver, `${shortName(system!.name ?? '')} resolves, but ${goneWords ?? DRIFT_CHANGED}: K2s DNS is bypassed`, 'restore');
      return v(state === 'stopped' ? 'off' : 'ok', 'ok-without-k2s', null, `${shortName(system!.name ?? '')} resolves without K2s DNS (another resolver or /etc/hosts answers it)`, null);
    }
    // Answers can still come from the proxy's cache (TTL 30 s in kubeadm's Corefile) while
    // CoreDNS is gone: a warning (amber) while host apps still get the address, the same words
    // in status and the window; red once their lookup fails too (the branch below the `resolves` block).
    // `status` still reads degraded (applyHealth): CoreDNS down is news for a script now, not in 30 s.
    if (kubeDns && !kubeDns.ok && kubeDns.outcome !== 'skipped' && kubeDns.outcome !== 'idle') {
      return v('warn', 'coredns-down', kubeDns, `${hopTitle(kubeDns)} does not answer${kubeDnsWhy(kubeDns)}; cluster names resolve only from k2s-dnsproxy's cache until their TTL ends`, 'check-coredns');
    }
    // External names fail: an error for them (Diagnostics' upstream-answers says the same), with
    // the cause in the errno's words; the fix fits the mode (a followed network's nameserver is the network's to fix).
    if (deadUpstreams.length > 0 && deadUpstreams.length === upstreams.length) {
      const whose = input.following ? "the network's nameservers" : 'the original upstreams';
      return v('error', 'upstream-down', deadUpstreams[0], `Names outside the cluster do not resolve on this host: none of ${whose} answers (${deadUpstreams.map((h) => h.reason ?? `${h.target}: ${h.outcome}`).join('; ')}); cluster names still resolve through K2s DNS`, input.following ? 'check-network' : 'check-upstream');
    }
    if (driftVia) {
      if (goneWords) return v('warn', 'drift', resolver, `${shortName(system!.name ?? '')} resolves through K2s DNS, but ${goneWords}: with no file glibc asks ${GLIBC_DEFAULT_NAMESERVER}:53 (resolv.conf(5)), k2s-dnsproxy's listener`, 'restore-via');
      // One clause (issue #20, walk 10 L1): why it still goes through K2s DNS (viaK2sWords) is said
      // once per front end — the window's drift banner, status's note (electron/core/lifecycle/status.ts).
      return v('warn', 'drift', resolver, `${shortName(system!.name ?? '')} resolves through K2s DNS, but ${resolver!.outcome === 'k2s-edited' ? DRIFT_EDITED : DRIFT_REWROTE}`, 'restore-via');
    }
    const first = listeners[0]?.target ?? input.listenerShown ?? null;
    return v('ok', 'ok', null, `${shortName(system!.name ?? '')} resolves via k2s-dnsproxy${first ? ` (${first})` : ''}`, null);
  }

  // Your own file names only loopback nameservers (or none: glibc asks 127.0.0.1) and nothing
  // answers there: not only cluster names, no name resolves (e.g. their file kept after drift).
  const deadLocal = state === 'stopped' && resolver?.outcome === 'original' && upstreams.length > 0 && upstreams.every((h) => h.target.startsWith('127.') && (h.outcome === 'unreachable' || h.outcome === 'timeout' || h.outcome === 'error'));
  if (deadLocal) {
    const where = upstreams.map((h) => h.target).join(' and ');
    const why = resolver.missing ? `/etc/resolv.conf ${missingResolverWords(resolver.missing)}, so glibc asks ${GLIBC_DEFAULT_NAMESERVER}:53 (resolv.conf(5))` : resolver.answers.length === 0 ? `/etc/resolv.conf has no nameserver line, so glibc asks ${GLIBC_DEFAULT_NAMESERVER}:53 (resolv.conf(5))` : `/etc/resolv.conf lists only ${resolver.answers.join(', ')}`;
    return v('error', 'no-nameserver', upstreams[0], `No names resolve on this host: nothing answers on ${where} (${why}; K2s DNS is stopped)`, 'fix-resolver');
  }
  // Your own file's nameservers (not loopback) all fail: K2s DNS being stopped is not the
  // news; no name resolves (e.g. a followed network whose nameserver is gone, put back by Stop).
  const deadOwn = state === 'stopped' && resolver?.outcome === 'original' && upstreams.length > 0 && upstreams.every((h) => h.outcome === 'unreachable' || h.outcome === 'timeout' || h.outcome === 'error');
  if (deadOwn) {
    const reasons = upstreams.map((h) => h.reason ?? `${h.target}: ${h.outcome}`).join('; ');
    return v('error', 'upstream-down', upstreams[0], `No names resolve on this host: none of the nameservers in /etc/resolv.conf answers (${reasons}); K2s DNS is stopped, so this is the host's own resolver`, 'check-network');
  }
  if (state === 'stopped' && resolver?.outcome !== 'k2s' && resolver?.outcome !== 'foreign') {
    return v('off', 'stopped', system, `${NOT_RESOLVING}: K2s DNS is stopped`, 'start');
  }
  if (resolver && !resolver.ok) {
    if (resolver.outcome === 'foreign' || resolver.outcome === 'k2s-edited') {
      return v('error', 'drift', resolver, `${NOT_RESOLVING}: ${goneWords ?? DRIFT_CHANGED}, so host apps bypass K2s DNS`, 'restore');
    }
    return v('error', 'resolver-not-k2s', resolver, `${NOT_RESOLVING}: /etc/resolv.conf does not point at k2s-dnsproxy`, 'restart');
  }
  const deadListener = listeners.find((h) => h.outcome === 'timeout' || h.outcome === 'unreachable' || h.outcome === 'error');
  const kubeDnsDead = !!kubeDns && !kubeDns.ok && kubeDns.outcome !== 'skipped' && kubeDns.outcome !== 'idle';
  if (listeners.length === 0) return v('error', 'proxy-down', null, `${NOT_RESOLVING}: k2s-dnsproxy has no listener`, 'restart');
  // dnsproxy answers SERVFAIL (or times out after its own upstream timeout) when CoreDNS is down:
  // that failure is CoreDNS's, not the listener's.
  if (kubeDnsDead && (kubeDns.outcome === 'timeout' || kubeDns.outcome === 'unreachable' || kubeDns.outcome === 'error' || kubeDns.outcome === 'refused' || kubeDns.outcome === 'servfail')) {
    return v('error', 'coredns-down', kubeDns, `${NOT_RESOLVING}: ${hopTitle(kubeDns)} does not answer${kubeDnsWhy(kubeDns)}`, 'check-coredns');
  }
  // Every listener silent while /etc/resolv.conf points at them: no name resolves, not only cluster names.
  const allDead = listeners.every((h) => h.outcome === 'timeout' || h.outcome === 'unreachable' || h.outcome === 'error');
  if (deadListener && allDead && (deadListener.outcome === 'unreachable' || !kubeDnsDead)) {
    const where = listeners.map((h) => h.target).join(' and ');
    const w = input.watchdogRestart;
    if (w) return v('error', 'proxy-down', deadListener, `No names resolve on this host: nothing answers on ${where}; the watchdog is restarting k2s-dnsproxy (${watchdogRestartWords(w)})`, 'wait-watchdog');
    const sd = input.serviceRestart;
    if (sd && !sd.gaveUp) return v('error', 'proxy-down', deadListener, `No names resolve on this host: nothing answers on ${where}; systemd is restarting k2s-dnsproxy (attempt ${sd.attempt}${sd.lastExit ? `; ${lastRunWords(sd.lastExit)}` : ''})`, 'wait-watchdog');
    if (sd?.gaveUp) return v('error', 'proxy-down', deadListener, `No names resolve on this host: nothing answers on ${where}; systemd restarted k2s-dnsproxy ${sd.attempt} times and gave up`, 'restart');
    const proc = input.proxyPid === undefined ? '' : input.proxyPid === null ? '; k2s-dnsproxy is not running and nothing restarts it' : `; k2s-dnsproxy (PID ${input.proxyPid}) runs but does not answer`;
    // No process: Start alone brings it back (start runs in full while the proxy is down); a
    // process that runs but does not answer needs stopping first.
    return v('error', 'proxy-down', deadListener, `No names resolve on this host: nothing answers on ${where}${proc}`, input.proxyPid === null ? 'start' : 'restart');
  }
  if (deadListener && (deadListener.outcome === 'unreachable' || !kubeDnsDead)) {
    const w = input.watchdogRestart;
    if (w) return v('error', 'proxy-down', deadListener, `${NOT_RESOLVING}: ${hopTitle(deadListener)} does not answer; the watchdog is restarting it (${watchdogRestartWords(w)})`, 'wait-watchdog');
    const sd = input.serviceRestart;
    if (sd && !sd.gaveUp) return v('error', 'proxy-down', deadListener, `${NOT_RESOLVING}: ${hopTitle(deadListener)} does not answer; systemd is restarting it (attempt ${sd.attempt}${sd.lastExit ? `; ${lastRunWords(sd.lastExit)}` : ''})`, 'wait-watchdog');
    return v('error', 'proxy-down', deadListener, `${NOT_RESOLVING}: ${hopTitle(deadListener)} does not answer${reasonOf(deadListener)}`, 'restart');
  }
  if (kubeDnsDead) {
    return v('error', 'coredns-answer', kubeDns, `${NOT_RESOLVING}: ${hopTitle(kubeDns)} gives no address${reasonOf(kubeDns)}`, 'check-coredns');
  }
  const wrongListener = listeners.find((h) => !h.ok);
  if (wrongListener) {
    return v('error', 'proxy-routing', wrongListener, `${NOT_RESOLVING}: ${hopTitle(wrongListener)} does not send the cluster zone to CoreDNS${reasonOf(wrongListener)}`, 'restart');
  }
  return v('error', 'system-resolver', system, `${NOT_RESOLVING}: the proxy answers, but getaddrinfo does not${reasonOf(system)}`, 'check-nsswitch');
}

/**
 * The probed name as the verdict line shows it: the full name, lowercased, without a trailing
 * dot (`KUBERNETES.DEFAULT.svc.cluster.local.` → `kubernetes.default.svc.cluster.local`). Never
 * the short `kubernetes.default`: that only resolves through a search list that names the
 * cluster domain, which a host's resolv.conf normally does not (new-user pass, 2026-12-01).
 */
export function shortName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

/** The verdict line with its fix for one front end, e.g. "… K2s DNS is stopped — Start"; `restoreName` as verdictFix's. */
export function verdictLine(v: HealthVerdict, frontEnd: FrontEnd, restoreName?: string): string {
  const fix = verdictFix(v, frontEnd, restoreName);
  return fix && v.level !== 'ok' ? `${v.summary} — ${fix}` : v.summary;
}

/**
 * Status with the health verdict folded in: `running` while cluster names do not resolve
 * becomes `degraded` with the verdict as the first message (CoreDNS down is never "running",
 * not even while its names still resolve from the proxy's cache: that verdict is a warning).
 */
export function applyHealth(status: HostDnsStatus, report: HealthReport, frontEnd: FrontEnd): HostDnsStatus {
  const v = report.verdict;
  // The CLI's one note on what Keep their file would do (walk 9 M3): the health line says it in a
  // clause (verdictFix); the window's banner says it in full. A file that is no resolver file has
  // status's own note (electron/core/lifecycle/status.ts), with what a plain stop does.
  const risk = v.keepRisk;
  // When the follower's note already gives why it refused their file (writable by every user…),
  // the note says only what Keep leaves (risk.outcome: issue #20, walk 10 L1).
  const reason = risk?.refused?.replace(/^it /, '') ?? null;
  const told = !!reason && status.messages.some((m) => m.includes(reason));
  const note = frontEnd === 'cli' && risk && !risk.gone && !status.driftFileRefusal ? (told && risk.outcome ? risk.outcome : risk.words) : null;
  if (note) status = { ...status, messages: [...status.messages, note] };
  // The health line gives the owner fix first (verdictFix, walk 11 M3): the follower's note keeps
  // its reason without that fix again (one message per fact).
  const ownerFix = frontEnd === 'cli' ? ownerFixClause(risk) : null;
  if (ownerFix) status = { ...status, messages: status.messages.map((m) => m.split(ownerFix).join('')) };
  if (status.state !== 'running' || v.level === 'ok') return { ...status, health: report };
  // CoreDNS down while the proxy's cache still answers is amber in the verdict, yet the proxy cannot reach the cluster: degraded.
  const state = v.level === 'error' || v.cause === 'coredns-down' ? 'degraded' : status.state;
  return { ...status, state, health: report, messages: [verdictLine(v, frontEnd), ...status.messages] };
}

/**
 * True when `report` was checked for the host state `status` shows (or carries no stamp): a
 * status folded by applyHealth may read `degraded` where the check saw `running`, so both count.
 */
export function reportFitsStatus(report: HealthReport, status: HostDnsStatus): boolean {
  if (report.forStatus === undefined) return true;
  if (report.forStatus === statusFingerprint(status)) return true;
  return status.state === 'degraded' && report.forStatus === statusFingerprint({ ...status, state: 'running' });
}

/**
 * How a hop is drawn (✓ green, ! amber, ✗ red, – grey), the same in the CLI's `status` and the
 * Topology panel:
 * - `idle`: not on the path now (K2s DNS stopped) or skipped; also host apps' NXDOMAIN/NODATA for
 *   the cluster name while stopped (expected then, yet not a working lookup);
 * - `ok`: does what the path needs. While K2s DNS is stopped (verdict `off`) your own
 *   /etc/resolv.conf (`original`) and your nameservers answering are the healthy stopped state;
 * - `warn`: an upstream that answers, but neither NOERROR nor rootlessNxdomain's NXDOMAIN (e.g.
 *   REFUSED or SERVFAIL): reachable, yet it may not resolve names for this host — never green. An
 *   upstream answering NXDOMAIN for the root zone is `ok`: it answers, so it is reachable, and a
 *   resolver that serves local names only (the sandbox's) or a split-horizon one need not serve
 *   the root zone. Whether it resolves an Internet name is asked by doctor's `upstream-answers`
 *   (kubernetes.io A, the same rule for that name) and start's verify step, not by this probe;
 * - `fail`: anything else that is not ok.
 */
export type HopMark = 'ok' | 'warn' | 'fail' | 'idle';

/**
 * True when upstream hop `h` answered NXDOMAIN for the root zone's NS (`. NS`, the path check's
 * upstream probe: electron/core/health/check-health.ts): the server is there (any DNS answer
 * proves that) but serves no root zone — a resolver for local names only, such as the sandbox's
 * dnsmasq (`local=/#/`, e2e/bed/testbed.ts UPSTREAM_RECORDS), or a split-horizon one. Status,
 * Topology and doctor mark it ✓ alike (walk15: status said `!` where doctor said OK).
 */
export function rootlessNxdomain(h: Pick<HealthHop, 'kind' | 'ok' | 'name' | 'type' | 'rcode'>): boolean {
  return h.kind === 'upstream' && h.ok && h.name === '.' && h.type === 'NS' && h.rcode === 'NXDOMAIN';
}

/** Why rootlessNxdomain's hop is ✓, as status's line and the Topology box say it. */
export const ROOTLESS_WORDS = 'a local-only or split-horizon resolver need not serve the root zone';

/** The mark of `h` under `verdict` (see HopMark). */
export function hopMark(h: HealthHop, verdict: Pick<HealthVerdict, 'level'>): HopMark {
  if (h.outcome === 'idle' || h.outcome === 'skipped') return 'idle';
  const off = verdict.level === 'off';
  if (h.kind === 'upstream' && h.ok) return h.rcode === 'NOERROR' || rootlessNxdomain(h) ? 'ok' : 'warn';
  // Another program's file that still reaches the proxy: on the path, yet not K2s's (drift).
  if (h.kind === 'resolver' && h.outcome === 'foreign' && h.ok) return 'warn';
  if (h.ok) return 'ok';
  // …unless start would refuse that file (NOT_RESOLVER_FILE): doctor's error, never ✓ (walk 9 L2).
  // …and a file a user could write is a warning (walk 11 L8: a file `stop --on-drift keep` kept).
  if (off && h.kind === 'resolver' && h.outcome === 'original' && !h.startRefusal) return h.writable ? 'warn' : 'ok';
  // Stopped: your nameservers answering a cluster name with NXDOMAIN/NODATA is expected, but the
  // name still does not resolve: neutral (–), neither ✓ nor ✗.
  if (off && h.kind === 'system' && (h.outcome === 'nxdomain' || h.outcome === 'nodata')) return 'idle';
  return 'fail';
}

/**
 * The resolver hop's owner in words, as `status` and the Topology box print it: the outcome, except
 * `original` with no original saved (HealthHop.hostOwn), which is "host's own" — "original" names
 * a saved original, and none exists then (walk 9 L4). A file that resolves to nothing (HealthHop.missing)
 * is `missing` (stopped), `deleted` (while K2s DNS ran) or `dangling symlink` (walk 10 M5, L4).
 */
export function resolverOwnerWords(h: Pick<HealthHop, 'outcome' | 'hostOwn' | 'missing'>): string {
  if (h.missing && (h.outcome === 'original' || h.outcome === 'foreign')) return missingOwnerWord(h.missing, h.outcome === 'foreign');
  return h.outcome === 'original' && h.hostOwn ? "host's own" : h.outcome;
}

/** The CLI's symbol of a mark. */
export const HOP_SYMBOL: Record<HopMark, string> = { ok: '✓', warn: '!', fail: '✗', idle: '–' };
