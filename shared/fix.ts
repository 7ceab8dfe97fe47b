/**
 * A fix is data, rendered per front end: the desktop app shows `gui` (a button
 * or a step in the app, never a shell command of ours) and offers `action` as a button; the CLI
 * prints `cli` (a command line). One name per choice: the drift choice is "Keep their file" /
 * "Restore my original" in the banner, the Host DNS card, topology, doctor and CLI help alike.
 * Pure module: no Node or DOM imports.
 */
import { codeSpan } from './code-span';
import { startFlagWords, type StartFlag } from './start-flag';

/** Front ends that render fixes. */
export type FrontEnd = 'gui' | 'cli';

/**
 * Buttons the app can offer for a fix: `start`/`stop` the lifecycle; `keep-theirs` and
 * `restore-original` stop after drift (dns:stop onDrift keep|restore); `show-diff` opens the
 * Resolver diff tab; `run-checks` re-runs Diagnostics; `choose-dnsmasq` picks the dnsmasq engine.
 */
export type FixAction = 'start' | 'stop' | 'keep-theirs' | 'restore-original' | 'show-diff' | 'run-checks' | 'choose-dnsmasq';

/** One fix: `gui` and `cli` are one sentence each; `action` is the button the app offers, or null. */
export interface Fix {
  action: FixAction | null;
  gui: string;
  cli: string;
}

/**
 * How a user runs the CLI, so every CLI fix text (built with cliCommand) is a line they can
 * paste: `k2s-dns` where the package installed /usr/bin/k2s-dns, `npx k2s-dns` in a checkout
 * (npm's bin link, the README's "The CLI"), or a wrapper's absolute path named by
 * `$K2S_DNS_CLI` (the sandbox's, which enters its namespaces). Not guessed here: each runtime's
 * entry knows where it runs from and says so once with setCliName (electron/core/cli-invocation.ts).
 */
export type CliName = string;

/** Until a runtime says otherwise: the checkout's. */
let cliName: CliName = 'npx k2s-dns';
/** False for a wrapper that runs as root by itself: root commands then get no `sudo ` in front. */
let cliSudo = true;
/** True for a wrapper that also runs a shell command where K2s DNS runs (`NAME sh -c 'CMD'`): shellCommand prints other programs' commands through it. */
let cliShell = false;
/** The nameserver of the sandbox's network when this runtime is `npm run sandbox`'s (setCliName `sandboxNameserver`), else null. */
let sandboxNameserver: string | null = null;

/**
 * Sets how this runtime's CLI is run (called once by its entry, before any text is built);
 * `sudo` false: root commands are printed without `sudo `; `shell` true: `name` is a wrapper
 * that runs `name sh -c 'CMD'` inside the namespaces it runs the CLI in (the sandbox's,
 * e2e/sandbox-cli-wrapper.ts), so a fix's other commands are printed through it (shellCommand);
 * `sandboxNameserver`: this runtime is the sandbox of `npm run sandbox` (e2e/sandbox-app.ts),
 * whose network's nameserver (its test bed's upstream, 192.0.2.53) answers — a fix may write it
 * (resolverFileWays) and name the sandbox's own controls (clusterRunningHint); null elsewhere.
 */
export function setCliName(name: CliName, sudo = true, shell = false, sandboxNameserver_: string | null = null): void {
  cliName = name;
  cliSudo = sudo;
  cliShell = shell;
  sandboxNameserver = sandboxNameserver_;
}

/** The documentation address (RFC 5737 TEST-NET-1) a resolver-file example names where no nameserver of the user's network is known. */
export const EXAMPLE_NAMESERVER = '192.0.2.1';

/**
 * How to get a resolver file that names a nameserver into /etc/resolv.conf, one clause (no capital,
 * no full stop; "it" is that file) for every text that asks for one: start's NO_UPSTREAM and
 * NOT_RESOLVER_FILE refusals, doctor's findings, the verdict's fix, stop's RESOLVER_DOWN notes.
 * On a host: reconnect the network, or write it as root with a line such as `nameserver
 * 192.0.2.1` (prose: the address is the user's, and no printed line may run unedited — walk 7 M4:
 * a printed `echo 'nameserver <your router…>'` ran as is and wrote a line glibc cannot use).
 * Under a wrapper that runs shell commands where K2s DNS runs (setCliName `shell`), where a pasted
 * fix acts there and never on the host's file (walk 11 M1): in the sandbox, whose network's
 * nameserver is known, a whole command through it that works as pasted (`rm -f` first: the file
 * may be a link, or one holding NUL bytes); under another wrapper, the same prose, in the root
 * shell `NAME sh` opens there.
 */
export function resolverFileWays(): string {
  if (cliShell && sandboxNameserver !== null) {
    const write = shellCommand(`rm -f /etc/resolv.conf && echo nameserver ${sandboxNameserver} > /etc/resolv.conf`, true);
    return `in the sandbox, \`${write}\` writes one naming its network's nameserver, ${sandboxNameserver}`;
  }
  const line = `a line such as \`nameserver ${EXAMPLE_NAMESERVER}\`, your router's or company DNS's IP address in place of ${EXAMPLE_NAMESERVER}`;
  if (cliShell) return `write it yourself with ${line}, in the root shell \`${cliName} sh\` opens where K2s DNS runs (not on this host's own /etc/resolv.conf)`;
  return `reconnect the network so NetworkManager or your DHCP client writes it again, or write it yourself as root (sudo) with ${line}`;
}

/** The link a systemd-resolved host's /etc/resolv.conf usually is (docs/host-facts.md "Host resolver traps"). */
const STUB_LINK = 'ln -sf ../run/systemd/resolve/stub-resolv.conf /etc/resolv.conf';

/**
 * What a user writes back by hand as /etc/resolv.conf when no saved original is left to put back
 * (stop's STATE_CORRUPT and NO_SAVED_ORIGINAL, start's NO_SAVED_ORIGINAL, status's message,
 * doctor's fix): the words of one parenthesis (no capital, no full stop). In the sandbox,
 * resolverFileWays' whole command through its wrapper; elsewhere a file with the user's
 * nameserver, or the link the distribution uses as a whole command, `ln -sf TARGET
 * /etc/resolv.conf` (ln(1): with no link name, `ln -s TARGET` makes ./stub-resolv.conf in the
 * current directory; -f replaces the K2s-owned file), as root, or through a shell wrapper.
 */
export function handResolverWays(): string {
  if (cliShell && sandboxNameserver !== null) return resolverFileWays();
  return `a file with your nameserver, or the symlink your distribution uses, e.g. \`${shellCommand(STUB_LINK)}\`${cliShell ? '' : ' as root'}`;
}

/**
 * The placeholder a printed command ends with where its value is the user's and unknown here (a
 * nameserver's IP address), followed in prose by what to put in its place (ipPlaceholderWords).
 * Unlike a bare word (`--upstream IP` ran as is, walk 7 M4) it cannot run unedited: at the end of
 * a line the shell reads `<IP>` as an input redirection and an output one with no file name, a
 * syntax error before anything runs (bash(1) and dash(1) "Redirection"; bash: "syntax error near
 * unexpected token `newline'") — even where a file named IP exists. Only ever last on a line.
 */
export const IP_PLACEHOLDER = '<IP>';

/** What follows a command that ends with IP_PLACEHOLDER: ` (replace <IP> with WHOSE)`. */
function ipPlaceholderWords(whose: string): string {
  return ` (replace ${IP_PLACEHOLDER} with ${whose})`;
}

/**
 * A root start that names its upstream, as a clause for a fix ("… or start with CLAUSE"): in the
 * sandbox (setCliName `sandboxNameserver`) the whole command naming its network's nameserver,
 * unless that is one of `avoid` (nameservers, `IP` or `IP:PORT`, found not to answer); elsewhere the
 * command in a code span ending with the IP_PLACEHOLDER `--upstream <IP>`, and in prose what to
 * put in its place (`whose`, default "your nameserver's IP address"): a line to paste and edit
 * that cannot run unedited (walk 7 M4: `--upstream IP` ran as is; new-user walk: "`… --upstream`
 * followed by the IP address" was no line to paste). `flags` come before `--upstream` (e.g.
 * `--on-network-change keep`); the line is cliStartCommand's (sudo, the wrapper, `--kubeconfig
 * PATH`) and carries the running start's flags (setCliRunningStart) as a bare `start` does, but
 * none of its upstreams and none `flags` sets again (runningStartWith; new-user walk: the
 * override after `start --engine dnsmasq` named no `--engine dnsmasq`).
 */
export function upstreamStartWays(flags: readonly StartFlag[] = [], avoid: readonly string[] = [], whose = "your nameserver's IP address"): string {
  const start = cliStartCommand(runningStartWith(flags, ['--upstream']));
  const ns = sandboxNameserver;
  if (ns !== null && !avoid.some((a) => a === ns || a.startsWith(`${ns}:`))) return `${codeSpan(`${start} --upstream ${ns}`)} (the sandbox network's nameserver)`;
  return `${codeSpan(`${start} --upstream ${IP_PLACEHOLDER}`)}${ipPlaceholderWords(whose)}`;
}

/**
 * The running start's flags (setCliRunningStart) for a start line that names `flags` of its own,
 * followed by those: each running flag (with its value) whose name neither `flags` nor `replaced`
 * names, so a fix's start brings back the running options (engine, KubeSwitch, zones …) and sets
 * what it is about once (`--on-network-change keep` once; `replaced` `--upstream`: none of the
 * running upstreams, where the line names its own after). Values unquoted (cliCommand quotes them).
 */
export function runningStartWith(flags: readonly StartFlag[], replaced: readonly string[] = []): StartFlag[] {
  const named = new Set([...flags.map(([flag]) => flag), ...replaced]);
  return [...runningStart.filter(([flag]) => !named.has(flag)), ...flags];
}

/**
 * The override of a followed network's upstreams (status's `check-network`, doctor's silent
 * upstreams), one clause: stop first (a start while K2s DNS runs with other options is refused,
 * RUNNING_OTHER_OPTIONS), then a start with `--on-network-change keep` naming none of `silent`
 * (upstreamStartWays: real addresses, or a line ending with <IP> and what replaces it), each
 * line in a code span: `` `sudo k2s-dns stop`, then `sudo k2s-dns start … --on-network-change keep --upstream <IP>` (replace …) ``.
 */
export function networkOverrideWays(silent: readonly string[]): string {
  return `${codeSpan(cliCommand('stop', true))}, then ${upstreamStartWays([['--on-network-change', 'keep']], silent, 'the IP address of a nameserver that answers')}`;
}

/**
 * The sandbox's control line `npm run sandbox:ctl -- --dir DIR WORDS` (e2e/sandbox-ctl.ts), in a
 * code span: DIR is the sandbox's own directory, the one its wrapper (the CLI name, DIR/k2s-dns,
 * e2e/sandbox-cli-wrapper.ts) is in, so the line acts on this sandbox also while others run (a new
 * user's finding: without it, "2 sandboxes run; name one with --dir"). Without a wrapper path: no `--dir`.
 */
export function sandboxCtlCommand(words: string): string {
  const slash = cliName.lastIndexOf('/');
  const dir = cliShell && cliName.startsWith('/') && slash > 0 ? ` --dir ${cliName.slice(0, slash)}` : '';
  return `\`npm run sandbox:ctl --${dir} ${words}\``;
}

/**
 * What a followed network's nameserver that does not answer asks of the user, one clause (no
 * capital, no full stop) a check of it in parentheses may follow (status's `check-network`,
 * doctor's silent upstreams): on a host, the network connection or VPN; in the sandbox
 * (setCliName `sandboxNameserver`), whose network's nameserver is the test bed's, the sandbox's
 * own control that starts it again (e2e/sandbox-ctl.ts `upstream up`, as clusterStartWays names
 * `api up`) — only when none of `silent` (the nameservers found not to answer, `IP` or `IP:PORT`)
 * is another server than the sandbox's, or none is known.
 */
export function networkCheckWays(silent: readonly string[] = []): string {
  const ns = sandboxNameserver;
  if (ns !== null && silent.every((a) => a === ns || a === `${ns}:53`)) {
    return `start the sandbox network's nameserver (${ns}) again with ${sandboxCtlCommand('upstream up')} in a root shell in the checkout, or check it`;
  }
  return 'check the network connection or VPN';
}

/**
 * A check of nameserver `server` (`IP`, `IP:PORT`, `[v6]:PORT`: how a hop or the state names it)
 * as the user pastes it, in a code span: `k2s-dns query kubernetes.io --server SERVER` (cliCommand;
 * port 53 left out), the real address; null (none known): the command ending with the
 * IP_PLACEHOLDER `--server <IP>` and in prose what to put in its place (`whose`), as
 * upstreamStartWays.
 */
export function upstreamQueryWays(server: string | null, whose = "the nameserver's IP address"): string {
  if (server === null) return `\`${cliCommand(`query kubernetes.io --server ${IP_PLACEHOLDER}`)}\`${ipPlaceholderWords(whose)}`;
  // Port 53 is query's default: `192.0.2.53:53` and `[2001:db8::1]:53` are printed bare.
  const bare = /^\[([^\]]+)\]:53$/.exec(server)?.[1] ?? (/^[\d.]+:53$/.test(server) ? server.slice(0, -3) : server);
  return `\`${cliCommand(`query kubernetes.io --server ${shellWord(bare)}`)}\``;
}

/** The sandbox's kubeconfig (setSandboxKubeconfig), else null. */
let sandboxKubeconfig: string | null = null;

/**
 * Sets the path of the sandbox's own kubeconfig (electron/core/cli-invocation.ts
 * SANDBOX_KUBECONFIG_ENV), whose API server is the test bed's; null: not the sandbox, or not known.
 */
export function setSandboxKubeconfig(path: string | null): void {
  sandboxKubeconfig = path;
}

/**
 * What starts the Kubernetes API again where this runtime runs, from one place: on a host, the
 * cluster, with K2s's CLI (`k2s start`); in the sandbox (setCliName `sandboxNameserver`), which
 * has no `k2s` command and whose API is the test bed's fake one, the sandbox's own control
 * (e2e/sandbox-ctl.ts `api up`; walk 11 L12, walk 12 H1) — only when the API that failed was read
 * through `kubeconfigPath`, the sandbox's own (setSandboxKubeconfig; walk 18 H1: another
 * kubeconfig's server is not the sandbox's test API, and `api up` would not bring it back).
 * `kubeconfigPath` undefined or the sandbox's not known: the sandbox's words in the sandbox.
 * `what`: the thing that is down, in prose; `command`: the line to run, in a code span; `where`:
 * where to run it ('' on a host).
 */
export function clusterStartWays(kubeconfigPath?: string): { what: string; command: string; where: string } {
  const sandboxApi = sandboxNameserver !== null && (kubeconfigPath === undefined || sandboxKubeconfig === null || kubeconfigPath === sandboxKubeconfig);
  return sandboxApi
    ? { what: "the sandbox's test API", command: sandboxCtlCommand('api up'), where: 'in a root shell in the checkout' }
    : { what: 'the cluster', command: '`k2s start`', where: '' };
}

/**
 * The question an unreachable API server's message ends with (electron/core/cluster/errors.ts):
 * on a host, whether the cluster runs, and how to see it (`k2s status`, K2s's CLI); in the sandbox,
 * the control that starts its API again (clusterStartWays, for `kubeconfigPath`, the kubeconfig read).
 */
export function clusterRunningHint(kubeconfigPath?: string): string {
  const w = clusterStartWays(kubeconfigPath);
  if (w.where === '') return 'is the cluster running (`k2s status`)?';
  return `is ${w.what} down? ${w.where.charAt(0).toUpperCase()}${w.where.slice(1)}, ${w.command} brings it back.`;
}

/**
 * The fix for an unreachable API server (doctor's `cluster` check, electron/core/doctor/cluster.ts;
 * the CLI and the window's Diagnostics print it alike): start it again with this runtime's
 * command (clusterStartWays), or check the address the kubeconfig names.
 */
export function clusterStartFix(kubeconfigPath?: string): string {
  const w = clusterStartWays(kubeconfigPath);
  return `Start ${w.what} (${w.command}${w.where ? ` ${w.where}` : ''}) or check the kubeconfig's server address.`;
}

/** The CLI as this runtime's user runs it (setCliName). */
export function currentCliName(): CliName {
  return cliName;
}

/** The CLI verb that serves this runtime's app in web mode (setAppVerb), else null. */
let appVerb: 'ui' | 'app' | null = null;
/** The line that started it, without `--kubeconfig` (setAppVerb `launch`), else null. */
let appLaunch: string | null = null;

/**
 * Says that this runtime's app was started by the CLI's `ui` or `app` verb in web mode
 * (electron/cli/ui.ts runUi), so appKubeconfigCommand names the command as it was typed:
 * `launch` is that line without a `--kubeconfig` (electron/cli/app-launch.ts appLaunchLine:
 * `npm start --`, `node bin/k2s-dns.mjs app`, `npx k2s-dns ui`); absent, `CLI VERB`. null:
 * another entry (the Electron window, the helper).
 */
export function setAppVerb(verb: 'ui' | 'app' | null, launch: string | null = null): void {
  appVerb = verb;
  appLaunch = verb === null ? null : launch;
}

/**
 * The line that starts the app with a kubeconfig (the app takes one only when it starts): started
 * by the CLI's `ui` or `app` verb (setAppVerb), that command as it was typed (`npm start --
 * --kubeconfig PATH` after `npm start`, `node bin/k2s-dns.mjs app --kubeconfig PATH` after node,
 * `k2s-dns ui --kubeconfig PATH` installed: new user, under `k2s-dns ui` it named `npm start -- …`,
 * and after `npm start` as a user `npx k2s-dns app …`, which npx refuses there); else where the
 * package is installed (setCliName `k2s-dns`, electron/core/cli-invocation.ts), its CLI's `app`
 * verb (`k2s-dns app --kubeconfig PATH`, electron/cli/usage.ts); in a checkout or under a
 * wrapper, docs/verdict.md's `npm start -- --kubeconfig PATH` (`npm start` exists only in a checkout).
 */
export function appKubeconfigCommand(): string {
  if (appVerb !== null && !cliShell) return `${appLaunch ?? `${cliName} ${appVerb}`} --kubeconfig ${KUBECONFIG_PLACEHOLDER}`;
  return cliName === 'k2s-dns' ? `k2s-dns app --kubeconfig ${KUBECONFIG_PLACEHOLDER}` : `npm start -- --kubeconfig ${KUBECONFIG_PLACEHOLDER}`;
}

/**
 * The clause of a CLI hint that names how to start the app with a kubeconfig (`for the app: LINE`,
 * appKubeconfigCommand), or null under a wrapper that runs the CLI in other namespaces (setCliName
 * `shell`: the sandbox's): `npm start` there would start the app on the host, outside them, and
 * the sandbox's own app (`npm run sandbox`) reads only its test bed's kubeconfig.
 */
export function appKubeconfigClause(): string | null {
  return cliShell || (cliAsRoot && appVerb === null) ? null : `for the app: ${appKubeconfigCommand()}`;
}

/** True in a CLI process run as root (setCliAsRoot): its hints name no app line (appKubeconfigClause). */
let cliAsRoot = false;

/**
 * Says the CLI command runs as root (its entry, electron/cli/run-cli.ts: euid 0). The app runs as
 * the desktop user and finds that user's kubeconfig itself (README: `npm start` as your user, NOT
 * root), so a root command's kubeconfig hint names no `for the app: …` line — it does not apply
 * (new user, session 30: root in the try-package host got it while ada's app had found its
 * kubeconfig). The `ui` and `app` verbs (setAppVerb) keep it: there the app is the one asking.
 */
export function setCliAsRoot(root: boolean): void {
  cliAsRoot = root;
}

/** The kubeconfig this runtime uses when `sudo k2s-dns …` would not find it by itself (setCliKubeconfig), else null. */
let cliKubeconfig: string | null = null;

/**
 * Sets the kubeconfig that suggested `start`, `zones` and `doctor` commands must name with
 * `--kubeconfig` (the sandbox's, a `k2s-dns ui --kubeconfig PATH`): the one in use when the
 * CLI's own lookup finds another file or none (electron/core/cluster/kubeconfig-default.ts
 * kubeconfigToName); null when the lookup finds it.
 */
export function setCliKubeconfig(path: string | null): void {
  cliKubeconfig = path;
}

/** The kubeconfig a `su -c '…'` line names (setCliSuKubeconfig), else cliKubeconfig's. */
let cliSuKubeconfig: string | null = null;

/**
 * Sets the kubeconfig the `su -c '…'` form of asRootWays names with `--kubeconfig` in its start,
 * zones and doctor commands: the one in use. su(1) sets neither SUDO_USER nor PKEXEC_UID, so
 * root's own lookup there never reaches the caller's ~/.kube/config, which `sudo k2s-dns …`
 * finds (electron/core/cluster/kubeconfig.ts locateKubeconfig): naming it is what makes that
 * line start the same cluster. Null: as setCliKubeconfig's.
 */
export function setCliSuKubeconfig(path: string | null): void {
  cliSuKubeconfig = path;
}

/** What setCliKubeconfig is given when no kubeconfig was found: `--kubeconfig PATH`, as `k2s-dns --help` writes it. */
export const KUBECONFIG_PLACEHOLDER = 'PATH';

/** The verbs that read a kubeconfig (`--kubeconfig PATH` in `k2s-dns --help`). */
const KUBECONFIG_VERBS: ReadonlySet<string> = new Set(['start', 'zones', 'doctor']);

/** The start flags of the K2s DNS this runtime's texts are about (setCliRunningStart), else none. */
let runningStart: readonly StartFlag[] = [];

/**
 * Sets the flags a printed bare `start` ends with: those that start K2s DNS again as the running
 * (or started, then broken) one was started (shared/running-start.ts runningStartFlags of its
 * state file), so a fix's `stop … && start` does not bring back other options (the Automatic
 * engine where dnsmasq ran). Set wherever the state file is read for status and doctor
 * (electron/core/lifecycle/status.ts, electron/core/doctor/context.ts); null or [] when none
 * is known (no state, or one this user cannot read).
 */
export function setCliRunningStart(flags: readonly StartFlag[] | null): void {
  runningStart = flags ?? [];
}

/** `word` as one shell word: as is when it has nothing the shell reads, else in single quotes. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * `args` as a command line of the CLI: `k2s-dns ARGS` (installed) or `npx k2s-dns ARGS`
 * (`viaSu`: a line of asRootWays' pair, which names setCliSuKubeconfig's file)
 * (checkout); `root` commands (start, stop, uninstall, recover: they change /etc/resolv.conf)
 * get `sudo ` in front, as the README says ("as root … or prefix it with sudo"). A verb that
 * reads a kubeconfig ends with `--kubeconfig PATH` when the one in use is not what the lookup
 * finds (setCliKubeconfig), so the line works as printed — never a help line (`VERB --help`), nor
 * one whose `args` name a `--kubeconfig` already. A bare `start` (no flags of its own:
 * a line with flags asks for other options on purpose) ends with the running start's flags
 * (setCliRunningStart), each a shell word.
 */
export function cliCommand(args: string, root = false, viaSu = false): string {
  const verb = args.split(' ', 1)[0] ?? '';
  if (args === 'start' && runningStart.length > 0) args = `start ${startFlagWords(runningStart).map(shellWord).join(' ')}`;
  // A help line reads no kubeconfig: never one on it (walk 23: `zones --help --kubeconfig PATH`).
  const help = args.split(' ').some((w) => w === '--help' || w === '-h');
  // A line that names its own kubeconfig keeps it alone.
  const own = args.split(' ').includes('--kubeconfig');
  const named = viaSu ? (cliSuKubeconfig ?? cliKubeconfig) : cliKubeconfig;
  const kubeconfig = named !== null && KUBECONFIG_VERBS.has(verb) && !help && !own ? ` --kubeconfig ${shellWord(named)}` : '';
  return `${root && cliSudo ? 'sudo ' : ''}${cliName} ${args}${kubeconfig}`;
}

/**
 * How to run the CLI's `args` as root, one clause for a text that needs root to read (diff,
 * doctor, status: root's 0700 state directory) or to change the host (status's fixes: stop,
 * start, recover). sudo(8) is not installed everywhere (a minimal Debian has only su(1)), so
 * besides `sudo …` it names `su -c '…'`, which runs the line as root through root's shell (su(1)
 * `-c`). Several commands in turn (`['stop', 'start']`): each with sudo (`…`, then `…`), and one
 * `su -c` joining them with `&&`. Both lines of the pair name the same kubeconfig: the su line's
 * (setCliSuKubeconfig), which `sudo …` reads too — a user's ~/.kube/config that sudo finds by
 * itself (SUDO_USER) and su's root does not was named on the su line alone, so the two read as
 * different commands (`sudo k2s-dns doctor`, or `su -c 'k2s-dns doctor --kubeconfig
 * /home/ada/.kube/config'`). Under a wrapper that runs as root by itself (setCliName `sudo`
 * false), `as root: ` and just its lines (each call site reads "run it as root: …"). Each command
 * in a code span (shared/code-span.ts codeSpan: a kubeconfig path may hold a backtick).
 */
export function asRootWays(args: string | readonly string[]): string {
  const all = typeof args === 'string' ? [args] : args;
  const lines = all.map((a) => codeSpan(cliCommand(a, true, true))).join(', then ');
  if (!cliSudo) return `as root: ${lines}`;
  return `as root: ${lines}, or ${codeSpan(`su -c ${shellWord(all.map((a) => cliCommand(a, false, true)).join(' && '))}`)} where sudo is not installed`;
}

/**
 * How this user gets read access to the proxy's logs (root:adm 0640, electron/core/host/query-log.ts
 * logOwnership), one clause (no capital, no full stop): be in the group adm — on a host with
 * `usermod -aG adm $USER` (usermod(8) -a -G) and a new login, through sudo or, where sudo is not
 * installed, `su -c "…"` (as asRootWays: double quotes, so this user's shell puts in their name
 * before su runs root's shell, where $USER is root); under a wrapper that runs shell commands
 * where K2s DNS runs (setCliName `shell`), prose: `$USER` in its shell is its root.
 */
export function admGroupWays(): string {
  if (cliShell) return 'be in the group adm where K2s DNS runs';
  if (!cliSudo) return 'be in the group adm (`usermod -aG adm $USER`, then log out and in again)';
  return 'be in the group adm (`sudo usermod -aG adm $USER`, or `su -c "usermod -aG adm $USER"` where sudo is not installed, then log out and in again)';
}

/**
 * A fix's command that is not this CLI's (`chmod o-w /etc/resolv.conf`, `kill 812`), as the user
 * pastes it: under a wrapper that runs shell commands where K2s DNS runs (setCliName `shell`: the
 * sandbox's `DIR/k2s-dns sh -c 'CMD'`), through it, so it acts on the sandbox's files and
 * processes, never on the host's the line was printed on (sixth walk M2); else `root` commands
 * (they change root's files or processes) with `sudo ` in front as cliCommand's, others as they are.
 */
export function shellCommand(command: string, root = false): string {
  if (cliShell) return `${cliName} sh -c ${shellWord(command)}`;
  return `${root && cliSudo ? 'sudo ' : ''}${command}`;
}

/** The kubeconfig K2s DNS uses in this runtime, for printed kubectl lines (setKubectlKubeconfig); null when none is known. */
let kubectlConfig: { path: string; root: boolean } | null = null;

/**
 * Sets the kubeconfig a printed `kubectl` line names with `--kubeconfig` (kubectlCommand): the
 * one K2s DNS uses (electron/core/cluster/kubeconfig-default.ts kubeconfigOrStarted), always —
 * kubectl's own lookup ($KUBECONFIG, ~/.kube/config) is not K2s DNS's order, and under sudo it
 * finds neither (walk 9 M1: a bare kubectl asked localhost:8080). `root`: this user cannot read
 * that file (kubeadm's admin.conf is 0600 root), so the line gets `sudo ` as shellCommand's.
 * null: none known, kubectl is printed without `--kubeconfig`.
 */
export function setKubectlKubeconfig(config: { path: string; root: boolean } | null): void {
  kubectlConfig = config;
}

/**
 * `kubectl ARGS` as the user pastes it: with `--kubeconfig PATH` of the cluster K2s DNS uses
 * (setKubectlKubeconfig), through shellCommand (the sandbox's wrapper, or `sudo ` when only root
 * reads that kubeconfig), so it asks the cluster K2s DNS asked, where K2s DNS runs.
 */
export function kubectlCommand(args: string): string {
  const kc = kubectlConfig ? ` --kubeconfig ${shellWord(kubectlConfig.path)}` : '';
  return shellCommand(`kubectl${kc} ${args}`, kubectlConfig?.root ?? false);
}

/**
 * The root `start` line that starts K2s DNS again with `flags` (shared/running-start.ts
 * runningStartFlags of its state), each a shell word, as cliCommand writes it (`sudo `, the
 * wrapper, `--kubeconfig PATH`): for a text written before any status read set the running
 * start's flags (setCliRunningStart), e.g. the watchdog's give-up line (supervisor-script.ts).
 */
export function cliStartCommand(flags: readonly StartFlag[]): string {
  const saved = runningStart;
  runningStart = flags;
  try {
    return cliCommand('start', true);
  } finally {
    runningStart = saved;
  }
}

/**
 * asRootWays for the root `start` with `flags` (shared/running-start.ts runningStartFlags), as
 * cliStartCommand writes its line: those flags, not a running start's (setCliRunningStart).
 */
export function asRootStartWays(flags: readonly StartFlag[]): string {
  const saved = runningStart;
  runningStart = flags;
  try {
    return asRootWays('start');
  } finally {
    runningStart = saved;
  }
}

/** The two drift choices (resolv.conf rewritten by another program while K2s DNS ran), named once; `cli` is read when used (setCliName). */
export const DRIFT_CHOICE = {
  keep: {
    label: 'Keep their file',
    get cli() {
      return cliCommand('stop --on-drift keep', true);
    },
    what: 'stop K2s DNS and leave the /etc/resolv.conf the other program wrote',
  },
  restore: {
    label: 'Restore my original',
    get cli() {
      return cliCommand('stop --on-drift restore', true);
    },
    what: 'stop K2s DNS and put back the saved original, byte for byte',
  },
} as const;

/** Button label of each action, as the app shows it (drift choices from DRIFT_CHOICE). */
export const ACTION_LABEL: Record<FixAction, string> = {
  start: 'Start',
  stop: 'Stop',
  'keep-theirs': DRIFT_CHOICE.keep.label,
  'restore-original': DRIFT_CHOICE.restore.label,
  'show-diff': 'Open Resolver diff',
  'run-checks': 'Check again',
  'choose-dnsmasq': 'Use dnsmasq',
};

/** The text of `fix` for `frontEnd`. */
export function fixText(fix: Fix, frontEnd: FrontEnd): string {
  return frontEnd === 'gui' ? fix.gui : fix.cli;
}
