import { EXIT, type LifecycleEvent } from '../../shared/lifecycle-events';
import { parseHelperArgs, HelperUsageError } from './request';
import { createNodeDeps } from '../core/lifecycle/node-deps';
import { FOLLOW_VERB } from '../core/host/follower';
import { CAPTURE_VERB } from '../core/capture/capture-args';
import { internalVerbRefusal } from '../core/host/internal-caller';
import { startDns } from '../core/lifecycle/start';
import { startOptionsOf } from '../core/lifecycle/options';
import { stopDns, uninstallDns } from '../core/lifecycle/stop';
import { ADMIN_KUBECONFIG, locateKubeconfig, type FindKubeconfigResult } from '../core/cluster/kubeconfig';
import { NoKubeconfigError } from '../core/cluster/errors';
import type { KubeconfigFile } from '../core/cluster/kubeconfig-file';
import { CallerEnvError, callerSideExists, callerUid, readKubeconfigAsCaller } from './caller-access';
import { kubeconfigToName } from '../core/cluster/kubeconfig-default';
import { setCliKubeconfig } from '../../shared/fix';

/**
 * Fix texts this run prints name `path` with `--kubeconfig` when `sudo k2s-dns …` typed by the
 * caller (PKEXEC_UID, SUDO_USER) would find another kubeconfig (kubeconfigToName); nothing when
 * no kubeconfig is known (the start then refuses NO_KUBECONFIG).
 */
async function nameKubeconfig(path: string | null): Promise<void> {
  setCliKubeconfig(path === null ? null : await kubeconfigToName(path));
}

/**
 * The privileged helper (runs as root via pkexec, sudo-prompt, or directly when already root):
 * fixed verbs, validated arguments, no shell; prints one JSON lifecycle event per line on
 * stdout and exits with the lifecycle's code (0, 1, 2 usage, 3 refused).
 */
export async function helperMain(argv: string[]): Promise<number> {
  const print = (e: LifecycleEvent) => process.stdout.write(`${JSON.stringify(e)}\n`);
  // The internal verbs are start's own (it runs them with the caller variables dropped): a
  // caller reaching them through the polkit action or sudo got a root tcpdump on ports it chose.
  if (argv[0] === FOLLOW_VERB || argv[0] === CAPTURE_VERB) {
    const refusal = internalVerbRefusal(argv[0]);
    if (refusal !== null) {
      process.stderr.write(refusal);
      return EXIT.refused;
    }
  }
  // The network follower start runs (host/follower.ts): no caller, no arguments, root only.
  if (argv.length === 1 && argv[0] === FOLLOW_VERB) {
    if (process.getuid?.() !== 0) return EXIT.refused;
    return (await import('../core/lifecycle/follow-main')).runFollower(await createNodeDeps('/'));
  }
  // The exact query log's companion (host/capture-companion.ts): root only, its flags parsed by parseCaptureArgs.
  if (argv[0] === CAPTURE_VERB) {
    if (process.getuid?.() !== 0) return EXIT.refused;
    const [{ createHostFs }, { runCapture }] = await Promise.all([import('../core/host/host-fs-node'), import('../core/capture/capture-main')]);
    return runCapture(createHostFs('/'), 0, argv.slice(1), process.argv[1] ?? '');
  }
  let req;
  try {
    req = parseHelperArgs(argv);
  } catch (err) {
    if (!(err instanceof HelperUsageError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return EXIT.usage;
  }
  if (process.getuid?.() !== 0) {
    process.stderr.write('The k2s-dns helper must run as root (through pkexec or sudo).\n');
    return EXIT.refused;
  }
  const op = req.verb;
  // Who asked, from the variable pkexec or sudo set; an environment neither of them makes is
  // refused for every verb before anything runs.
  let uid: number | null;
  try {
    uid = callerUid(process.env);
  } catch (err) {
    if (!(err instanceof CallerEnvError)) throw err;
    print({ type: 'result', op, ok: false, exitCode: EXIT.refused, code: err.code, message: err.message, at: Date.now() });
    return EXIT.refused;
  }
  let kubeconfig: KubeconfigFile | undefined;
  let found: FindKubeconfigResult = { path: null, tried: [], explicit: false };
  if (req.verb === 'start') {
    // Candidates other than admin.conf are checked with the caller's rights: root's existsSync
    // on the caller's ~/.kube/config (a symlink into a 0700 root directory) told the caller
    // whether a root-only path exists.
    found = await locateKubeconfig({ ...(req.kubeconfig ? { explicit: req.kubeconfig } : {}), exists: callerSideExists(uid) });
    // A kubeconfig other than K2s's own admin.conf (root's file at a root-owned path) is read
    // once, with the caller's rights, and only that content is used (a check as the
    // caller then a second open as root let a symlink swap make root read /etc/shadow).
    // One message for missing and unreadable: no size/existence/content oracle.
    const path = req.kubeconfig ?? found.path;
    if (uid !== null && path !== null && path !== ADMIN_KUBECONFIG) {
      try {
        kubeconfig = readKubeconfigAsCaller(path, uid);
      } catch (err) {
        if (!(err instanceof NoKubeconfigError)) throw err;
        print({ type: 'result', op: 'start', ok: false, exitCode: EXIT.refused, code: 'NO_KUBECONFIG', message: err.message, at: Date.now() });
        return EXIT.refused;
      }
      if (found.path === null) found = { ...found, path };
    }
  }
  const deps = await createNodeDeps('/', kubeconfig ? { kubeconfig } : {});
  if (req.verb === 'start') {
    const { verb: _verb, ...input } = req;
    // The fixes this start prints (RESOLV_CONF_WRITABLE's `start`, the watchdog's give-up line)
    // name its kubeconfig when `sudo k2s-dns start` would not find it, as the CLI's do (sixth
    // walk M1: the window's fix said a bare `start`).
    await nameKubeconfig(req.kubeconfig ?? found.path);
    const r = await startDns(deps, startOptionsOf(input, found), print);
    return r.exitCode;
  }
  const teardown = req.verb === 'stop' ? stopDns : uninstallDns;
  return (await teardown(deps, { ...(req.onDrift ? { onDrift: req.onDrift } : {}), ...(req.restore ? { restore: req.restore } : {}) }, print)).exitCode;
}
