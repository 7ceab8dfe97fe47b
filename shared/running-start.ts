/**
 * The start flags that start K2s DNS again as the running one was started (fourth walk M2: a
 * printed `stop … && start` brought AdGuard back where dnsmasq ran). Read from its state file;
 * shared/fix.ts setCliRunningStart appends them to a printed bare `start`. Pure module.
 */
import type { ResolverStateFile } from './state-file';
import { ENGINE_NAMES } from './engines/table';
import { K2S_DEFAULTS } from './k2s-paths';
import type { StartFlag } from './start-flag';

/** The external name start's verify resolves when no `--verify-name` is given. */
export const DEFAULT_VERIFY_NAME = 'kubernetes.io';

/** The reason preflight's planListeners gives the KubeSwitch listener of a `--kubeswitch none` start. */
export const KUBESWITCH_NONE_REASON = 'disabled with --kubeswitch none';

/**
 * The flags of `k2s-dns start`, each with its value (StartFlag; unquoted: shared/fix.ts quotes
 * them), that make a start like the one `state` records, in `k2s-dns --help` order; only those a bare start would
 * not pick by itself, so the common case stays `[]`:
 * - `--engine E` for an engine the start asked for (`--engine`, the window's Engine select), the
 *   engine table's first too: a bare start picks that one only where it is installed, and else
 *   the next one without a word (sixth walk M1: a start asked for adguard, the give-up line named
 *   none); Automatic gets none. State files of earlier versions (no `startedWith`): the running
 *   engine, when not the first (whether it was asked for is not recorded).
 * - `--kubeswitch A|none` for an address other than K2s's default (earlier versions: read from
 *   the listeners); `--upstream IP` each for upstreams the start was given (earlier versions: not
 *   recorded, none); `--verify-name N` for a name other than DEFAULT_VERIFY_NAME.
 * - `--no-log-queries`, `--allow-zone Z` for each zone allowed past the zone policy,
 *   `--on-network-change keep`, `--dnsproxy PATH`.
 */
export function runningStartFlags(state: Pick<ResolverStateFile, 'engine' | 'listeners' | 'skippedListeners' | 'allowedZones' | 'onNetworkChange' | 'startedWith'>): StartFlag[] {
  const w = state.startedWith;
  const flags: StartFlag[] = [];
  const engine = w ? w.engine : state.engine !== ENGINE_NAMES[0] ? (state.engine ?? undefined) : undefined;
  if (engine !== undefined) flags.push(['--engine', engine]);
  const kubeSwitch = w ? w.kubeSwitch : kubeSwitchOfListeners(state);
  if (kubeSwitch !== undefined && kubeSwitch !== K2S_DEFAULTS.kubeSwitchAddress) flags.push(['--kubeswitch', kubeSwitch]);
  for (const u of w?.upstreams ?? []) flags.push(['--upstream', u]);
  if (w?.verifyName !== undefined && w.verifyName !== DEFAULT_VERIFY_NAME) flags.push(['--verify-name', w.verifyName]);
  if (w?.logQueries === false) flags.push(['--no-log-queries']);
  for (const z of state.allowedZones ?? []) flags.push(['--allow-zone', z]);
  if (state.onNetworkChange === 'keep') flags.push(['--on-network-change', 'keep']);
  if (w?.dnsproxyPath !== undefined) flags.push(['--dnsproxy', w.dnsproxyPath]);
  return flags;
}

/**
 * The KubeSwitch choice read from what a start listens on: `none` (its listener skipped with
 * KUBESWITCH_NONE_REASON), the address other than 127.0.0.1 it listens on, else undefined (no
 * KubeSwitch listener). For state files without `startedWith`, and the window's running options.
 */
export function kubeSwitchOfListeners(state: Pick<ResolverStateFile, 'listeners' | 'skippedListeners'>): string | undefined {
  if (state.skippedListeners.some((s) => s.address === 'KubeSwitch' && s.reason === KUBESWITCH_NONE_REASON)) return 'none';
  return state.listeners.find((l) => l.address !== '127.0.0.1')?.address;
}
