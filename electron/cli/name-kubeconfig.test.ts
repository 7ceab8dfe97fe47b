/**
 * Which kubeconfig the CLI's printed command lines name (name-kubeconfig.ts): a user whose own
 * lookup finds none (K2s's admin.conf is root's, 0600) on a host where `sudo k2s-dns start`
 * finds admin.conf by itself gets the bare start line, not `--kubeconfig PATH` (status after stop
 * named PATH there); `PATH` stays for a host where sudo finds none either (the sandbox's).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { asRootStartWays, asRootWays, cliCommand, kubectlCommand, setCliKubeconfig, setCliSuKubeconfig, setKubectlKubeconfig } from '../../shared/fix';
import { kubeconfigForSu } from '../core/cluster/kubeconfig-default';
import { kubeconfigAsked, nameKubeconfig, type NameLookups } from './name-kubeconfig';

afterEach(() => {
  setCliKubeconfig(null);
  setCliSuKubeconfig(null);
  setKubectlKubeconfig(null);
});

const ADMIN = '/etc/kubernetes/admin.conf';
/** Lookups where sudo finds `forSudo`, `toName` names any path but that one, and the user reads only `readable`. */
function lookups(forSudo: string | null, readable: string[] = [], forSu: string | null = forSudo === ADMIN ? ADMIN : null): NameLookups {
  return { forSudo: async () => forSudo, toName: async (p) => (p === null || p === forSudo ? null : p), reads: async (p) => readable.includes(p), forSu: () => forSu };
}

describe('nameKubeconfig', () => {
  it("none found by the user, K2s's root-only admin.conf found by sudo: a bare start, kubectl with sudo and that file", async () => {
    expect(await nameKubeconfig(null, lookups(ADMIN))).toBe(ADMIN);
    expect(cliCommand('start', true)).toBe('sudo npx k2s-dns start');
    expect(cliCommand('doctor', true)).toBe('sudo npx k2s-dns doctor');
    expect(kubectlCommand('get nodes')).toBe(`sudo kubectl --kubeconfig ${ADMIN} get nodes`);
  });

  it("the caller's ~/.kube/config, which sudo finds (SUDO_USER) and su's root does not: both lines of the pair name it (mend30: the sudo line was bare, so the pair read as two commands)", async () => {
    const own = '/home/ada/.kube/config';
    expect(await nameKubeconfig(own, lookups(own, [own], null))).toBe(own);
    expect(asRootWays('start')).toBe(`as root: \`sudo npx k2s-dns start --kubeconfig ${own}\`, or \`su -c 'npx k2s-dns start --kubeconfig ${own}'\` where sudo is not installed`);
    expect(asRootWays('doctor')).toBe(`as root: \`sudo npx k2s-dns doctor --kubeconfig ${own}\`, or \`su -c 'npx k2s-dns doctor --kubeconfig ${own}'\` where sudo is not installed`);
    // A lone sudo line (not the pair) stays bare: sudo finds it by itself.
    expect(cliCommand('doctor', true)).toBe('sudo npx k2s-dns doctor');
    // Found by su's root too (K2s's admin.conf first): neither names it.
    expect(await nameKubeconfig(ADMIN, lookups(ADMIN, [], ADMIN))).toBe(ADMIN);
    expect(asRootWays('start')).toBe("as root: `sudo npx k2s-dns start`, or `su -c 'npx k2s-dns start'` where sudo is not installed");
  });

  it("su's own lookup: admin.conf first, then $KUBECONFIG (su keeps the environment), then root's ~/.kube/config; never a caller's", () => {
    const has = (...paths: string[]) => (p: string) => paths.includes(p);
    expect(kubeconfigForSu({ env: { SUDO_USER: 'ada', KUBECONFIG: '/srv/k.conf' }, exists: has('/srv/k.conf', '/home/ada/.kube/config') })).toBe('/srv/k.conf');
    expect(kubeconfigForSu({ env: { SUDO_USER: 'ada' }, exists: has('/home/ada/.kube/config') })).toBeNull();
    expect(kubeconfigForSu({ env: { KUBECONFIG: '/srv/k.conf' }, exists: has(ADMIN, '/srv/k.conf') })).toBe(ADMIN);
    expect(kubeconfigForSu({ env: {}, exists: has('/root/.kube/config') })).toBe('/root/.kube/config');
  });

  it('none found by the user nor by sudo: `--kubeconfig PATH`, as `k2s-dns --help` writes it, and kubectl names none', async () => {
    expect(await nameKubeconfig(null, lookups(null))).toBeNull();
    expect(cliCommand('start', true)).toBe('sudo npx k2s-dns start --kubeconfig PATH');
    expect(kubectlCommand('get nodes')).toBe('kubectl get nodes');
  });

  it("the user's own kubeconfig, which sudo would not find first: named, and kubectl without sudo", async () => {
    const own = '/home/ada/.kube/config';
    expect(await nameKubeconfig(own, lookups(ADMIN, [own]))).toBe(own);
    expect(cliCommand('start', true)).toBe(`sudo npx k2s-dns start --kubeconfig ${own}`);
    expect(kubectlCommand('get nodes')).toBe(`kubectl --kubeconfig ${own} get nodes`);
  });

  it("an explicit --kubeconfig only root reads (the user's lookup counts it absent): NOT_ROOT's start names that file, shell-quoted, never PATH nor a bare start that reads another", async () => {
    const typed = "/root/k2s/admin's conf";
    const found = { path: null, explicit: true, tried: [typed] };
    // Sudo finds none, or finds K2s's admin.conf (another file): both must still name the typed one.
    for (const forSudo of [null, ADMIN]) {
      expect(await nameKubeconfig(kubeconfigAsked(found), lookups(forSudo))).toBe(typed);
      expect(asRootStartWays([])).toBe(`as root: \`sudo npx k2s-dns start --kubeconfig '/root/k2s/admin'\\''s conf'\`, or \`su -c 'npx k2s-dns start --kubeconfig '\\''/root/k2s/admin'\\''\\'\\'''\\''s conf'\\'''\` where sudo is not installed`);
    }
    // A lookup's own result, and none typed nor found, as before.
    expect(kubeconfigAsked({ path: '/home/ada/.kube/config', explicit: false, tried: [ADMIN, '/home/ada/.kube/config'] })).toBe('/home/ada/.kube/config');
    expect(kubeconfigAsked({ path: null, explicit: false, tried: [ADMIN] })).toBeNull();
  });

  it('$KUBECONFIG names a root-only file (the sandbox wrapper\'s; the user\'s lookup skips it): NOT_ROOT\'s start names it, not `--kubeconfig PATH` (sudo drops $KUBECONFIG)', async () => {
    const sandbox = '/tmp/k2s-sandbox/kubeconfig';
    const found = { path: null, explicit: false, tried: [ADMIN, sandbox, '/home/ada/.kube/config'], unreadable: [{ path: sandbox, rootOwned: true }] };
    expect(kubeconfigAsked(found)).toBe(sandbox);
    expect(await nameKubeconfig(kubeconfigAsked(found), lookups(null))).toBe(sandbox);
    expect(asRootStartWays([])).toBe(`as root: \`sudo npx k2s-dns start --kubeconfig ${sandbox}\`, or \`su -c 'npx k2s-dns start --kubeconfig ${sandbox}'\` where sudo is not installed`);
    // K2s's root-only admin.conf, which sudo finds by itself: still the bare start.
    const admin = { path: null, explicit: false, tried: [ADMIN], unreadable: [{ path: ADMIN, rootOwned: true }] };
    expect(await nameKubeconfig(kubeconfigAsked(admin), lookups(ADMIN))).toBe(ADMIN);
    expect(cliCommand('start', true)).toBe('sudo npx k2s-dns start');
  });
});

