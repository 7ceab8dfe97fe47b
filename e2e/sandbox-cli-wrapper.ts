/**
 * The sandbox's `k2s-dns` (`npm run sandbox`, e2e/sandbox-app.ts): DIR/k2s-dns, a script that
 * runs the CLI inside the sandbox, from a host shell and from the sandbox's own root shell
 * (`nsenter -t PID -n -m -p -- bash`) alike. From a host shell it enters the sandbox's network,
 * mount and PID namespaces with nsenter(1); in the sandbox's root shell the host's PID is not in
 * the sandbox's /proc (nsenter: "cannot open /proc/PID/ns/net"), and nothing needs entering:
 * when its own namespaces are the sandbox's (the /proc/self/ns links, namespaces(7)), it runs
 * the CLI as it is.
 */
import { chmod, mkdir, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI_WRAPPER_ENV, SANDBOX_KUBECONFIG_ENV, SANDBOX_NAMESERVER_ENV } from '../electron/core/cli-invocation';

/** The sandbox's `k2s-dns`: DIR/k2s-dns. */
export function cliWrapperPath(dir: string): string {
  return join(dir, 'k2s-dns');
}

/**
 * The HOME of whatever runs through the wrapper and of the sandbox's root shell: DIR/home, gone
 * with DIR. The sandbox's mount namespace shares the host's /root (e2e/bed/inner.sh mounts over
 * /etc, /run, /var/lib, /var/log and /opt only), so a pasted fix such as `kubectl … logs` would
 * otherwise write its cache into the host's /root/.kube (a new user's finding).
 */
export function sandboxHome(dir: string): string {
  return join(dir, 'home');
}

/** The namespaces the wrapper compares, as namespaces(7) names their /proc/PID/ns links. */
const NAMESPACES = ['net', 'mnt', 'pid'] as const;

/** What the wrapper needs: the sandbox process's PID out here, and its namespace links (`net:[4026532…]`). */
export interface CliWrapperTarget {
  hostPid: number;
  ns: Record<(typeof NAMESPACES)[number], string>;
}

/** The namespace links of `hostPid` (readlink /proc/PID/ns/…); throws when it is gone. */
export async function wrapperTarget(hostPid: number): Promise<CliWrapperTarget> {
  const [net, mnt, pid] = await Promise.all(NAMESPACES.map((n) => readlink(`/proc/${hostPid}/ns/${n}`)));
  return { hostPid, ns: { net: net!, mnt: mnt!, pid: pid! } };
}

/** `word` in single quotes for sh (a `'` as `'\''`). */
function q(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The wrapper's exit status when not run as root: npm run sandbox's own (e2e/bed/sandbox.sh, sysexits' EX_NOPERM). */
export const NOT_ROOT_EXIT = 77;

/** The signals the wrapper passes on to the command it runs (a terminal's Ctrl-C, kill(1)'s default, a closed terminal). */
export const FORWARDED = ['TERM', 'INT', 'HUP'] as const;

/** The wrapper's first argument that runs a shell command inside the sandbox instead of the CLI: `DIR/k2s-dns sh -c 'CMD'`. */
export const WRAPPER_SHELL_VERB = 'sh';

/**
 * The script's text: `command` (absolute paths, so it works under sudo's PATH) with
 * $K2S_DNS_CLI naming the script itself (so the fix texts the CLI prints are lines that act
 * inside the sandbox, electron/core/cli-invocation.ts) and $KUBECONFIG the sandbox's (so a
 * printed `start` works as is; also as $K2S_DNS_SANDBOX_KUBECONFIG, so only that API's failure
 * is called the sandbox's test API), without $SUDO_USER and $PKEXEC_UID (the kubeconfig lookup
 * tries the caller's ~/.kube/config, the host's cluster, before $KUBECONFIG: README; walk 18 H1;
 * the sandbox's /etc has no /etc/kubernetes, e2e/bed/inner.sh); run directly when this shell is already in the target's
 * network, mount and PID namespaces, else through `nsenter -t PID -n -m -p` (without -p the CLI
 * would look for the proxy's PID among this host's processes), passing FORWARDED signals on to the
 * command (once each, a group kill too) and exiting with its exit status. With WRAPPER_SHELL_VERB first it
 * runs /bin/sh with the other arguments there instead (`sh -c 'chmod o-w /etc/resolv.conf'`):
 * the form the CLI prints other programs' commands in (shared/fix.ts shellCommand), so a pasted
 * fix changes the sandbox's /etc/resolv.conf, never the host's (sixth walk M2). `nameserver`: the
 * sandbox network's, as $K2S_DNS_SANDBOX_NAMESERVER (a fix asking for a resolver file then names
 * a command that writes one there: shared/fix.ts resolverFileWays); null: none is set. `home`:
 * $HOME for what it runs (sandboxHome), so a program's dot files stay in the sandbox's directory.
 */
export function cliWrapperText(path: string, target: CliWrapperTarget, kubeconfig: string, command: readonly string[], nameserver: string | null, home: string): string {
  const env = `env -u SUDO_USER -u PKEXEC_UID HOME=${q(home)} ${CLI_WRAPPER_ENV}=${q(path)} KUBECONFIG=${q(kubeconfig)} ${SANDBOX_KUBECONFIG_ENV}=${q(kubeconfig)}${nameserver ? ` ${SANDBOX_NAMESERVER_ENV}=${q(nameserver)}` : ''}`;
  const inside = NAMESPACES.map((n) => `[ "$(readlink /proc/self/ns/${n})" = ${q(target.ns[n])} ]`).join(' && ');
  return [
    '#!/bin/sh',
    '# k2s-dns inside the sandbox of npm run sandbox (gone with it)',
    // Entering the sandbox's namespaces takes root (nsenter(1), setns(2): CAP_SYS_ADMIN): said
    // first, with the exit status npm run sandbox gives for it (77), instead of nsenter's error.
    `if [ "$(id -u)" != 0 ]; then echo "$0 needs root: it runs k2s-dns inside the sandbox's namespaces (npm run sandbox runs as root too); run it as root: sudo $0\${*:+ $*}" >&2; exit ${NOT_ROOT_EXIT}; fi`,
    `# \`k2s-dns ${WRAPPER_SHELL_VERB} -c 'COMMAND'\`: a shell command inside the sandbox (the form its fixes name other programs' commands in).`,
    `if [ "$1" = ${WRAPPER_SHELL_VERB} ]; then shift; set -- /bin/sh "$@"; else set -- ${command.map(q).join(' ')} "$@"; fi`,
    '# Already in the sandbox (its root shell): its /proc has no host PID to nsenter, nothing to enter.',
    `if ${inside}; then exec ${env} "$@"; fi`,
    // nsenter -p forks the command and only waits for it: a signal that ended nsenter left the
    // command running, reparented (a new user's finding). So nsenter runs with FORWARDED ignored
    // (a group kill or Ctrl-C leaves it alone), the command in a session of its own (setsid(1):
    // such a signal does not reach it twice) with them at their defaults again (env(1)
    // --default-signal), and the script passes each one on to nsenter's child (proc(5)
    // /proc/PID/task/TID/children; waiting the few ms until nsenter has forked it), waits and
    // exits with nsenter's status: the command's exit status (nsenter cannot re-raise an ignored
    // signal: a command ended by a signal gives 1). fd 3: an asynchronous list's stdin is
    // /dev/null (POSIX sh, "Asynchronous Lists"), the command gets the script's.
    // Traps first; a signal before nsenter has started is passed on once it has.
    'n= p=',
    'kid() { cat /proc/$n/task/$n/children 2>/dev/null; }',
    'live() { [ -e /proc/$n ] && [ "$(cut -d" " -f3 /proc/$n/stat 2>/dev/null)" != Z ]; }',
    'fwd() { [ -n "$n" ] || { p=$1; return; }; c=$(kid); while [ -z "$c" ] && live; do c=$(kid); done; [ -z "$c" ] || kill -s "$1" $c 2>/dev/null; }',
    ...FORWARDED.map((s) => `trap 'fwd ${s}' ${s}`),
    'exec 3<&0',
    `(trap '' ${FORWARDED.join(' ')}; exec nsenter -t ${target.hostPid} -n -m -p -- setsid ${env.replace(/^env /, `env --default-signal=${FORWARDED.join(',')} `)} "$@" <&3 3<&-) &`,
    'n=$! && exec 3<&-',
    '[ -z "$p" ] || fwd "$p"',
    '# wait returns early (status > 128) when a trapped signal arrives: wait again until nsenter is reaped.',
    'while :; do wait $n; st=$?; kill -0 $n 2>/dev/null || break; done',
    'exit $st',
    '',
  ].join('\n');
}

/**
 * Writes cliWrapperText to DIR/k2s-dns (0755), makes its HOME (DIR/home, 0700) and returns its
 * path. DIR (root's) becomes 0711: searchable, not listable, so a user who is not root who runs
 * the printed line gets the wrapper's "run it as root" (exit 77), not the shell's "Permission
 * denied" (126, a new user's finding). What else DIR holds is root's only: ready.json and the
 * stop step 0600, the sockets 0600 (e2e/sandbox-app.ts), HOME 0700.
 */
export async function writeCliWrapper(dir: string, hostPid: number, kubeconfig: string, command: readonly string[], nameserver: string | null = null): Promise<string> {
  const path = cliWrapperPath(dir);
  const home = sandboxHome(dir);
  await mkdir(home, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o711);
  await writeFile(path, cliWrapperText(path, await wrapperTarget(hostPid), kubeconfig, command, nameserver, home), { mode: 0o755 });
  return path;
}
