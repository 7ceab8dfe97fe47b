/**
 * Sixth walk M1: the window's Start runs in the helper, whose RESOLV_CONF_WRITABLE fix said a bare
 * `start` — no `--kubeconfig` for the sandbox's kubeconfig, which `sudo k2s-dns start` does not
 * find. The helper names the start's kubeconfig for its fix texts as the CLI does. The lifecycle
 * and the kubeconfig lookup are mocked at the edge: nothing here touches the host.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const seen = vi.hoisted(() => ({ startLine: [] as string[] }));
vi.mock('../core/lifecycle/node-deps', () => ({ createNodeDeps: async () => ({}) }));
vi.mock('../core/lifecycle/start', async () => {
  const { cliCommand } = await import('../../shared/fix');
  return {
    startDns: async () => {
      // What every `start` the lifecycle prints is built with.
      seen.startLine.push(cliCommand('start', true));
      return { exitCode: 0 };
    },
  };
});
// `sudo k2s-dns start` as root finds nothing by itself (no admin.conf, no caller's ~/.kube/config).
vi.mock('../core/cluster/kubeconfig', () => ({ ADMIN_KUBECONFIG: '/etc/kubernetes/admin.conf', locateKubeconfig: async (o: { explicit?: string }) => ({ path: o.explicit ?? null, tried: [], explicit: o.explicit !== undefined }) }));

import { helperMain } from './main';
import { setCliKubeconfig } from '../../shared/fix';

const KEYS = ['PKEXEC_UID', 'SUDO_UID', 'SUDO_USER'] as const;
let saved: Record<string, string | undefined>;
beforeEach(() => {
  saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
  for (const k of KEYS) delete process.env[k];
  seen.startLine.length = 0;
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process, 'getuid').mockReturnValue(0);
});
afterEach(() => {
  for (const k of KEYS) if (saved[k] === undefined) delete process.env[k];
  else process.env[k] = saved[k];
  setCliKubeconfig(null);
  vi.restoreAllMocks();
});

describe('the helper\'s start names its kubeconfig in its fixes', () => {
  it('a kubeconfig the lookup would not find: `start … --kubeconfig PATH`', async () => {
    expect(await helperMain(['start', '--kubeconfig', '/tmp/k2sdns-kubeconfig-yQHd0B/k2s-test.kubeconfig'])).toBe(0);
    expect(seen.startLine).toEqual(['sudo npx k2s-dns start --kubeconfig /tmp/k2sdns-kubeconfig-yQHd0B/k2s-test.kubeconfig']);
  });
});
