import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ADMIN_KUBECONFIG, findKubeconfig, homeFromPasswdLine, locateKubeconfig } from './kubeconfig';
import { NoKubeconfigError } from './errors';
import { loadFailure } from './kube-client';
import type { Exec } from '../host/exec';
import { setCliName } from '../../../shared/fix';

const existing = (...paths: string[]) => (p: string) => paths.includes(p);
const homes: Record<string, string> = { alice: '/home/alice' };
const base = { env: {}, homeOf: (u: string) => homes[u] ?? null, home: '/root' };

describe('findKubeconfig', () => {
  it('uses --kubeconfig alone, and does not fall through when it is missing', () => {
    expect(findKubeconfig({ ...base, explicit: '/x/kc', exists: existing('/x/kc', ADMIN_KUBECONFIG) })).toEqual({
      path: '/x/kc',
      tried: ['/x/kc'],
      explicit: true,
    });
    expect(findKubeconfig({ ...base, explicit: '/x/typo', exists: existing(ADMIN_KUBECONFIG) })).toEqual({
      path: null,
      tried: ['/x/typo'],
      explicit: true,
    });
  });

  it('names a missing --kubeconfig as such, and lists what was tried otherwise', () => {
    expect(NoKubeconfigError.fromLookup({ tried: ['/x/typo'], explicit: true }).message).toBe(
      'The kubeconfig /x/typo does not exist; check the path (--kubeconfig; for the app: npm start -- --kubeconfig PATH).',
    );
    expect(NoKubeconfigError.fromLookup({ tried: [ADMIN_KUBECONFIG, '/root/.kube/config'], explicit: false }).message).toMatch(
      /^No kubeconfig found \(tried \/etc\/kubernetes\/admin.conf, \/root\/.kube\/config\); pass --kubeconfig PATH/,
    );
  });

  it('names the app as the user starts it: `k2s-dns app` where the package is installed, `npm start --` in a checkout', () => {
    // New-user walk 20: the installed CLI said `npm start -- --kubeconfig PATH`, which exists only in a checkout.
    setCliName('k2s-dns');
    try {
      expect(NoKubeconfigError.fromLookup({ tried: [ADMIN_KUBECONFIG, '/root/.kube/config'], explicit: false }).message).toBe(
        "No kubeconfig found (tried /etc/kubernetes/admin.conf, /root/.kube/config); pass --kubeconfig PATH (for the app: k2s-dns app --kubeconfig PATH) or set KUBECONFIG to the cluster's admin kubeconfig.",
      );
      expect(NoKubeconfigError.fromLookup({ tried: ['/x/typo'], explicit: true }).message).toBe(
        'The kubeconfig /x/typo does not exist; check the path (--kubeconfig; for the app: k2s-dns app --kubeconfig PATH).',
      );
    } finally {
      setCliName('npx k2s-dns');
    }
    expect(new NoKubeconfigError([]).message).toBe(
      "No kubeconfig found; pass --kubeconfig PATH (for the app: npm start -- --kubeconfig PATH) or set KUBECONFIG to the cluster's admin kubeconfig.",
    );
  });

  it('a tried file this user may not read is named as such for a CLI command, with that command as root (breaker finding 1)', () => {
    const rootOnly = [{ path: ADMIN_KUBECONFIG, rootOwned: true }];
    expect(NoKubeconfigError.fromLookup({ tried: [ADMIN_KUBECONFIG], explicit: true, unreadable: rootOnly }, 'zones').message).toBe(
      "The kubeconfig /etc/kubernetes/admin.conf exists, but only root can read it; run zones as root: `sudo npx k2s-dns zones --kubeconfig /etc/kubernetes/admin.conf`, or `su -c 'npx k2s-dns zones --kubeconfig /etc/kubernetes/admin.conf'` where sudo is not installed.",
    );
    // $KUBECONFIG naming it: not "No kubeconfig found … or set KUBECONFIG", which it is set to.
    expect(NoKubeconfigError.fromLookup({ tried: [ADMIN_KUBECONFIG, '/.kube/config'], explicit: false, unreadable: rootOnly }, 'zones').message).toBe(
      "No kubeconfig this user can read (tried /etc/kubernetes/admin.conf, /.kube/config): /etc/kubernetes/admin.conf exists, but only root can read it; run zones as root: `sudo npx k2s-dns zones --kubeconfig /etc/kubernetes/admin.conf`, or `su -c 'npx k2s-dns zones --kubeconfig /etc/kubernetes/admin.conf'` where sudo is not installed, or pass --kubeconfig with one you can read.",
    );
    expect(NoKubeconfigError.fromLookup({ tried: ['/home/bo/kc'], explicit: true, unreadable: [{ path: '/home/bo/kc', rootOwned: false }] }, 'zones').message).toMatch(/^The kubeconfig \/home\/bo\/kc exists, but this user may not read it; run zones as root: /);
    // Without a verb (the window: its Start reads a root-only admin.conf as root) the message is as before.
    expect(NoKubeconfigError.fromLookup({ tried: [ADMIN_KUBECONFIG, '/.kube/config'], explicit: false, unreadable: rootOnly }).message).toMatch(/^No kubeconfig found \(tried /);
  });

  it('loadFailure: client-node\'s field messages as they are, a duplicate without its name, anything else by class only', () => {
    expect(loadFailure(new Error('clusters[0].name is missing'))).toBe('clusters[0].name is missing');
    expect(loadFailure(new Error('contexts[3].context.cluster is missing'))).toBe('contexts[3].context.cluster is missing');
    expect(loadFailure(new Error('Duplicate user: secret-name'))).toBe('two users have the same name');
    expect(loadFailure(new TypeError('Cannot read properties of undefined (reading "token: abc")'))).toBe('TypeError');
    expect(loadFailure('x')).toBe('error');
  });

  it('under a wrapper (the sandbox) no hint names `npm start`, which runs the app on the host (breaker finding 3)', () => {
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true, '192.0.2.53');
    try {
      expect(NoKubeconfigError.fromLookup({ tried: ['/x/typo'], explicit: true }).message).toBe('The kubeconfig /x/typo does not exist; check the path (--kubeconfig).');
      expect(new NoKubeconfigError(['/a']).message).toBe("No kubeconfig found (tried /a); pass --kubeconfig PATH or set KUBECONFIG to the cluster's admin kubeconfig.");
    } finally {
      setCliName('npx k2s-dns');
    }
  });

  it('prefers /etc/kubernetes/admin.conf over the sudo user, $KUBECONFIG and ~/.kube/config', () => {
    const env = { SUDO_USER: 'alice', KUBECONFIG: '/k/a:/k/b' };
    const all = existing(ADMIN_KUBECONFIG, '/home/alice/.kube/config', '/k/a', '/root/.kube/config');
    expect(findKubeconfig({ ...base, env, exists: all })).toEqual({ path: ADMIN_KUBECONFIG, tried: [ADMIN_KUBECONFIG], explicit: false });
  });

  it("takes the sudo user's ~/.kube/config (home from getent) before $KUBECONFIG", () => {
    const env = { SUDO_USER: 'alice', KUBECONFIG: '/k/a' };
    expect(findKubeconfig({ ...base, env, exists: existing('/home/alice/.kube/config', '/k/a') })).toEqual({
      path: '/home/alice/.kube/config',
      tried: [ADMIN_KUBECONFIG, '/home/alice/.kube/config'],
      explicit: false,
    });
  });

  it('takes the first existing entry of the $KUBECONFIG colon list, skipping empty entries', () => {
    const env = { KUBECONFIG: '/k/missing::/k/b:/k/c' };
    expect(findKubeconfig({ ...base, env, exists: existing('/k/b', '/k/c', '/root/.kube/config') })).toEqual({
      path: '/k/b',
      tried: [ADMIN_KUBECONFIG, '/k/missing', '/k/b'],
      explicit: false,
    });
  });

  it('ends with ~/.kube/config and reports every path tried, without duplicates', () => {
    const env = { SUDO_USER: 'root', KUBECONFIG: '/root/.kube/config' };
    expect(findKubeconfig({ ...base, env, exists: existing() })).toEqual({
      path: null,
      tried: [ADMIN_KUBECONFIG, '/root/.kube/config'],
      explicit: false,
    });
    expect(findKubeconfig({ ...base, env: { SUDO_USER: 'bob' }, exists: existing('/root/.kube/config') })).toEqual({
      path: '/root/.kube/config',
      tried: [ADMIN_KUBECONFIG, '/root/.kube/config'],
      explicit: false,
    });
  });
});

describe('homeFromPasswdLine', () => {
  it('reads the 6th field of a getent passwd line', () => {
    expect(homeFromPasswdLine('alice:x:1000:1000:Alice,,,:/home/alice:/bin/bash\n')).toBe('/home/alice');
    expect(homeFromPasswdLine('garbage')).toBeNull();
  });
});

describe('locateKubeconfig', () => {
  // skipped: this machine has a real admin.conf, which would win before the sudo user's path.
  it.skipIf(existsSync(ADMIN_KUBECONFIG))("asks getent passwd for $SUDO_USER's home with an argv array", async () => {
    const calls: string[][] = [];
    const exec: Exec = {
      async run(file, args) {
        calls.push([file, ...args]);
        return { code: 0, stdout: 'nobody-here:x:4242:4242::/nonexistent-k2s-test-home:/bin/false\n', stderr: '' };
      },
    };
    const found = await locateKubeconfig({ env: { SUDO_USER: 'nobody-here', KUBECONFIG: '' }, exec });
    expect(calls).toEqual([['getent', 'passwd', 'nobody-here']]);
    expect(found.tried).toContain('/nonexistent-k2s-test-home/.kube/config');
    expect(found.tried[0]).toBe(ADMIN_KUBECONFIG);
  });
});
