/**
 * The kube-dns hop's "no kubeconfig", in `k2s-dns doctor` and the app's health view, for a user
 * on a K2s host while stopped: their own lookup skips K2s's root-only admin.conf, yet
 * `sudo k2s-dns start` reads it by itself (kubeconfigForSudo), so the hop says start reads the
 * address from the cluster, as status does (status-as-user); "no kubeconfig" stays for a host
 * where sudo finds none either. On a temp root: admin.conf there is the one sudo's lookup sees.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_KUBECONFIG } from '../cluster/kubeconfig';
import type { SudoLookupHost } from '../cluster/kubeconfig-default';
import { createRealBackend, ROOT_LOOKUP_AGAIN_MS } from '../backend-real';
import { setCliKubeconfig, setKubectlKubeconfig } from '../../../shared/fix';
import { useDoctorHosts, type DoctorTestHost } from '../../../e2e/support/doctor-test-host';
import { checkHealthPath } from './health';
import { checkCluster } from './cluster';

const host = useDoctorHosts();
const home = mkdtempSync(join(tmpdir(), 'k2s-dns-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
afterEach(() => {
  vi.unstubAllEnvs();
  setCliKubeconfig(null);
  setKubectlKubeconfig(null);
});

const STOPPED_FOUND = "CoreDNS (kube-dns 172.21.0.10:53, K2s's default: not read while stopped — start reads it from the cluster): not in use: K2s DNS is stopped";
const STOPPED_NONE = "CoreDNS (kube-dns 172.21.0.10:53, K2s's default: not discovered — no kubeconfig): not in use: K2s DNS is stopped";

/** uid 1000 `ada` typing `sudo k2s-dns …` on `h`: files exist as under its temp root, getent names her home. */
function ada(h: DoctorTestHost): SudoLookupHost {
  const exec = { run: async () => ({ code: 0, stdout: 'ada:x:1000:1000::/home/ada:/bin/bash\n', stderr: '' }) } as never;
  return { uid: 1000, user: 'ada', env: {}, exists: (p) => existsSync(h.deps.fs.real(p)), exec };
}

/** A stopped host with K2s's admin.conf, root's and 0600, under its root. */
async function k2sHost(): Promise<DoctorTestHost> {
  const h = await host('nameserver 192.0.2.53\n');
  await h.put(ADMIN_KUBECONFIG, 'apiVersion: v1\nkind: Config\n', 0o600);
  return h;
}

describe('doctor as a user who has no kubeconfig', () => {
  it("K2s's root-only admin.conf, which sudo k2s-dns start reads: the hop says start reads the address from the cluster, not \"no kubeconfig\"", async () => {
    const h = await k2sHost();
    const f = await checkHealthPath(await h.ctx({ kubeconfigPath: null, sudoLookup: ada(h) }));
    expect(f.meaning.split('\n')).toContain(`– ${STOPPED_FOUND}`);
    expect(f.meaning).not.toContain('no kubeconfig');
  });

  it("K2s's root-only admin.conf: the cluster check says start reads it as root and how to check the cluster, not \"No kubeconfig\"", async () => {
    const h = await k2sHost();
    const f = await checkCluster(await h.ctx({ kubeconfigPath: null, sudoLookup: ada(h) }));
    expect(f).toMatchObject({ id: 'cluster', severity: 'info', title: 'Cluster not checked: only root reads the kubeconfig', detail: { state: 'no-kubeconfig', startKubeconfig: '/etc/kubernetes/admin.conf' } });
    expect(f.meaning).toBe("`sudo npx k2s-dns start` (and the app's Start) reads the kubeconfig `/etc/kubernetes/admin.conf` as root; this user cannot read it, so the cluster was not checked.");
    expect(f.fix).toBe("To check the cluster, run doctor as root: `sudo npx k2s-dns doctor`, or `su -c 'npx k2s-dns doctor'` where sudo is not installed.");
    expect(f.remedy?.gui).toBe('Start works as it is; to see the cluster here, restart the app with a kubeconfig you can read (npm start -- --kubeconfig PATH).');
    // None anywhere: the finding as before.
    const bare = await host('nameserver 192.0.2.53\n');
    const none = await checkCluster(await bare.ctx({ kubeconfigPath: null, sudoLookup: ada(bare) }));
    expect(none).toMatchObject({ severity: 'info', title: 'No kubeconfig: cluster not checked' });
  });

  it('no admin.conf and none of her own: sudo finds none either, so "no kubeconfig"', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    const f = await checkHealthPath(await h.ctx({ kubeconfigPath: null, sudoLookup: ada(h) }));
    expect(f.meaning.split('\n')).toContain(`– ${STOPPED_NONE}`);
  });
});

// The app's own lookup runs on this machine (not the temp root): a real admin.conf would be found by it.
describe.skipIf(existsSync(ADMIN_KUBECONFIG))("the app's health view as a user who has no kubeconfig", () => {
  /** The hop line of the app's health check on `h`, with no kubeconfig of this process's own ($HOME empty, no $KUBECONFIG, no caller). */
  async function appHop(h: DoctorTestHost): Promise<{ source: string; why: string | null } | undefined> {
    vi.stubEnv('HOME', home);
    vi.stubEnv('KUBECONFIG', undefined);
    vi.stubEnv('SUDO_USER', undefined);
    vi.stubEnv('PKEXEC_UID', undefined);
    const backend = createRealBackend({ deps: h.deps, sudoLookup: ada(h) });
    expect((await backend.clusterStatus({})).state).toBe('no-kubeconfig');
    return (await backend.healthCheck({})).hops.find((x) => x.kind === 'kube-dns')?.addressFrom;
  }

  it("K2s's root-only admin.conf: the cluster status names it as the file Start reads as root (Start stays on for it); none anywhere: no such file", async () => {
    vi.stubEnv('HOME', home);
    vi.stubEnv('KUBECONFIG', undefined);
    vi.stubEnv('SUDO_USER', undefined);
    vi.stubEnv('PKEXEC_UID', undefined);
    const h = await k2sHost();
    const s = await createRealBackend({ deps: h.deps, sudoLookup: ada(h) }).clusterStatus({});
    expect(s).toMatchObject({ state: 'no-kubeconfig', kubeconfigPath: null, startKubeconfig: '/etc/kubernetes/admin.conf' });
    expect(s.message).toBe('Only root reads the kubeconfig `/etc/kubernetes/admin.conf`: Start reads it as root, but this window cannot show the cluster as this user; to see it here, restart the app with a kubeconfig you can read (npm start -- --kubeconfig PATH).');
    const bare = await host('nameserver 192.0.2.53\n');
    const none = await createRealBackend({ deps: bare.deps, sudoLookup: ada(bare) }).clusterStatus({});
    expect(none.state).toBe('no-kubeconfig');
    expect(none.startKubeconfig).toBeUndefined();
    expect(none.message).toMatch(/^No kubeconfig found \(tried /);
  });

  it('admin.conf written while the window is open (K2s installed): the next cluster status after ROOT_LOOKUP_AGAIN_MS names it, not one before', async () => {
    vi.stubEnv('HOME', home);
    vi.stubEnv('KUBECONFIG', undefined);
    vi.stubEnv('SUDO_USER', undefined);
    vi.stubEnv('PKEXEC_UID', undefined);
    const h = await host('nameserver 192.0.2.53\n');
    let clock = 1_000_000;
    const backend = createRealBackend({ deps: { ...h.deps, now: () => clock }, sudoLookup: ada(h) });
    expect((await backend.clusterStatus({})).startKubeconfig).toBeUndefined();
    await h.put(ADMIN_KUBECONFIG, 'apiVersion: v1\nkind: Config\n', 0o600);
    clock += ROOT_LOOKUP_AGAIN_MS - 1;
    expect((await backend.clusterStatus({})).startKubeconfig).toBeUndefined();
    clock += 1;
    expect((await backend.clusterStatus({})).startKubeconfig).toBe(ADMIN_KUBECONFIG);
  });

  it("K2s's root-only admin.conf: start reads it from the cluster; none anywhere: no kubeconfig", async () => {
    expect(await appHop(await k2sHost())).toEqual({ source: 'default', why: 'start reads it from the cluster' });
    expect(await appHop(await host('nameserver 192.0.2.53\n'))).toEqual({ source: 'default', why: 'no kubeconfig' });
  });
});
