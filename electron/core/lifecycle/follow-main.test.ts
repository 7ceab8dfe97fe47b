/**
 * Sixth walk M1: the follower starts the proxy again after a follow (follow.ts) with a new
 * watchdog, whose give-up line is built in the follower's process — which knows neither the
 * start's `--kubeconfig` nor its caller. It names the kubeconfig the running start used.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cliCommand, setCliKubeconfig } from '../../../shared/fix';
import { startDns } from './start';
import { nameStartedKubeconfig } from './follow-main';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();
afterEach(() => setCliKubeconfig(null));

describe('the follower names the running start\'s kubeconfig', () => {
  const exec = { run: async () => ({ code: 0, stdout: '', stderr: '' }) } as never;
  it('one `sudo k2s-dns start` would not find: named; one it finds: not; no start recorded: none', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    await nameStartedKubeconfig(h.deps.fs, { uid: 0, user: 'root', env: {}, exists: () => false, exec });
    expect(cliCommand('start', true)).toBe('sudo npx k2s-dns start');
    const kubeconfig = '/tmp/k2sdns-kubeconfig-yQHd0B/k2s-test.kubeconfig';
    expect((await startDns(h.deps, { ...TEST_START_OPTS, kubeconfigPath: kubeconfig }, () => undefined)).ok).toBe(true);
    await nameStartedKubeconfig(h.deps.fs, { uid: 0, user: 'root', env: {}, exists: () => false, exec });
    expect(cliCommand('start', true)).toBe(`sudo npx k2s-dns start --kubeconfig ${kubeconfig}`);
    // K2s's admin.conf, which root's lookup finds first: the bare start.
    const k2s = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(k2s.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    await nameStartedKubeconfig(k2s.deps.fs, { uid: 0, user: 'root', env: {}, exists: (p) => p === '/etc/kubernetes/admin.conf', exec });
    expect(cliCommand('start', true)).toBe('sudo npx k2s-dns start');
  });
});
