import { EXIT, type LifecycleEvent } from '../../shared/lifecycle-events';
import { parseHelperArgs, HelperUsageError } from './request';
import { createNodeDeps } from '../lifecycle/node-deps';
import { startDns } from '../lifecycle/start';
import { stopDns, uninstallDns } from '../lifecycle/stop';
import { locateKubeconfig } from '../cluster/kubeconfig';

/**
 * The privileged helper (runs as root via pkexec, sudo-prompt, or directly when already root):
 * fixed verbs, validated arguments, no shell; prints one JSON lifecycle event per line on
 * stdout and exits with the lifecycle's code (0, 1, 2 usage, 3 refused).
 */
export async function helperMain(argv: string[]): Promise<number> {
  const print = (e: LifecycleEvent) => process.stdout.write(`${JSON.stringify(e)}\n`);
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
  const deps = await createNodeDeps();
  if (req.verb === 'start') {
    const found = await locateKubeconfig(req.kubeconfig ? { explicit: req.kubeconfig } : {});
    const r = await startDns(deps, {
      kubeconfigPath: found.path,
      kubeconfigLookup: found,
      ...(req.engine ? { engine: req.engine } : {}),
      ...(req.kubeSwitch ? { kubeSwitch: req.kubeSwitch } : {}),
      ...(req.verifyName ? { verifyExternalName: req.verifyName } : {}),
    }, print);
    return r.exitCode;
  }
  const op = req.verb === 'stop' ? stopDns : uninstallDns;
  return (await op(deps, req.onDrift ? { onDrift: req.onDrift } : {}, print)).exitCode;
}
