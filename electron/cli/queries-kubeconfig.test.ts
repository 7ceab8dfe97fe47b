/**
 * New-user walk 24 #2: the `start` lines `queries` prints — the way to log queries again under
 * `--no-log-queries`, and "run it … start" when no start wrote the exact log (after an uninstall)
 * — dropped `--kubeconfig PATH` where the kubeconfig in use is one `sudo k2s-dns start` would not
 * find by itself; status's fixes name it (shared/fix.ts setCliKubeconfig). The saved state, the
 * kubeconfig lookup and the exact log are stand-ins; the printing is main's.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runMain } from './run-main.fixture';
import { setCliKubeconfig, setKubectlKubeconfig } from '../../shared/fix';
import { EXACT_LOG_NOT_YET } from '../core/capture/exact-log';
import type { ResolverStateFile } from '../../shared/state-file';

/** The kubeconfig in use: in no place `sudo k2s-dns start` looks by itself (the sandbox's is such). */
const KC = '/tmp/k2s-dns-walk24/kubeconfig';
const state: { now: Partial<ResolverStateFile> | null } = { now: null };

vi.mock('../core/cluster/kubeconfig-default', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../core/cluster/kubeconfig-default')>()),
  kubeconfigOrStarted: async () => ({ path: KC, tried: [KC], explicit: false }),
}));
vi.mock('../core/host/state-store', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../core/host/state-store')>()),
  readState: async () => state.now,
}));
vi.mock('../core/capture/exact-log', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../core/capture/exact-log')>()),
  exactQueryLog: async () => ({ available: false, reason: EXACT_LOG_NOT_YET, rows: [] }),
}));

afterEach(() => {
  setCliKubeconfig(null);
  setKubectlKubeconfig(null);
  state.now = null;
});

/** stderr of `k2s-dns ARGS` run through main, and its exit status. */
const run = async (args: string[]): Promise<{ code: number; stderr: string }> => {
  const { code, stderr } = await runMain(args);
  return { code, stderr };
};

describe('queries: its start lines name the kubeconfig sudo would not find', () => {
  it('after an uninstall (no state, no rows file): "run it … start --kubeconfig KC", exit 1', async () => {
    expect(await run(['queries', '--no-wait'])).toEqual({
      code: 1,
      stderr: `No exact query log to read: /var/log/dnsproxy/queries.jsonl does not exist: no start of K2s DNS has run its capture on this host (a start with --no-log-queries runs none), or uninstall removed it. A start writes it from then on (tcpdump is installed); run it as root: \`sudo npx k2s-dns start --kubeconfig ${KC}\`, or \`su -c 'npx k2s-dns start --kubeconfig ${KC}'\` where sudo is not installed.\n`,
    });
  });

  it('running with --no-log-queries: the stop && start way ends with --kubeconfig KC', async () => {
    state.now = { engine: 'dnsmasq', listeners: [{ address: '127.0.0.1', port: 53 }], skippedListeners: [], allowedZones: [], onNetworkChange: 'keep', startedWith: { engine: 'dnsmasq', logQueries: false, verifyName: 'www.example.test' } };
    expect(await run(['queries', '--no-wait'])).toEqual({
      code: 1,
      stderr: `No exact query log to read: /var/log/dnsproxy/queries.jsonl does not exist. The running K2s DNS was started with --no-log-queries: it logs no query. To log queries, stop it, then start it without --no-log-queries: \`sudo npx k2s-dns stop && sudo npx k2s-dns start --engine dnsmasq --verify-name www.example.test --on-network-change keep --kubeconfig ${KC}\`.\n`,
    });
  });
});
