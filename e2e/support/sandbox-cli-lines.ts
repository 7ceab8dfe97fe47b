/**
 * The ready-to-paste CLI lines `npm run sandbox` prints (e2e/sandbox-app.ts) for the sandbox's own
 * `k2s-dns` (e2e/sandbox-cli-wrapper.ts). They are built as the CLI builds its fixes
 * (shared/fix.ts cliCommand, with the wrapper as the CLI's name, no `sudo`, and the sandbox's
 * kubeconfig): the `start` line is the one status's and doctor's fixes name there (new user: the
 * banner's start added `--engine adguard --verify-name www.example.test`, the fix `--kubeconfig`
 * only). Neither flag is needed there: Automatic picks AdGuard when the sandbox offers it
 * (e2e/sandbox-dnsproxy.ts), and the sandbox's nameserver serves `kubernetes.io`, start's default
 * external check name (e2e/bed/testbed.ts UPSTREAM_RECORDS).
 */
import { cliCommand, setCliKubeconfig, setCliName, setCliRunningStart } from '../../shared/fix';

/**
 * `status`, `zones`, `start` and `stop` lines (two spaces in front) for the wrapper `cli` and the
 * sandbox's `kubeconfig`. Sets shared/fix.ts's CLI name and kubeconfig in this process to those
 * (the outer side of npm run sandbox prints no other fix).
 */
export function sandboxCliLines(cli: string, kubeconfig: string): string[] {
  setCliName(cli, false, true);
  setCliKubeconfig(kubeconfig);
  setCliRunningStart(null);
  return [cliCommand('status'), cliCommand('zones'), cliCommand('start', true), cliCommand('stop', true)].map((l) => `  ${l}`);
}
