/**
 * The `for the app: …` clause of a kubeconfig hint only where it applies (new user, session 30:
 * root in the try-package host ran `k2s-dns start` without --kubeconfig and was told how to start
 * the app with one, while ada's app had found its own): a CLI command run as root names no app
 * line; the app's own verbs (`ui`, `app`) and a user's CLI still do.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NoKubeconfigError } from './errors';
import { setAppVerb, setCliAsRoot, setCliName } from '../../../shared/fix';

afterEach(() => {
  setCliAsRoot(false);
  setAppVerb(null);
  setCliName('npx k2s-dns');
});

const TRIED = ['/etc/kubernetes/admin.conf', '/root/.kube/config'];

describe('kubeconfig hints as root', () => {
  it('a root CLI command: no app line, missing or mistyped', () => {
    setCliName('k2s-dns');
    setCliAsRoot(true);
    expect(NoKubeconfigError.fromLookup({ tried: TRIED, explicit: false }).message).toBe(
      "No kubeconfig found (tried /etc/kubernetes/admin.conf, /root/.kube/config); pass --kubeconfig PATH or set KUBECONFIG to the cluster's admin kubeconfig.",
    );
    expect(NoKubeconfigError.fromLookup({ tried: ['/x/typo'], explicit: true }).message).toBe('The kubeconfig /x/typo does not exist; check the path (--kubeconfig).');
  });

  it('the app started as root (`k2s-dns ui`) and a user\'s CLI keep it', () => {
    setCliName('k2s-dns');
    setCliAsRoot(true);
    setAppVerb('ui');
    expect(new NoKubeconfigError(TRIED).message).toContain('(for the app: k2s-dns ui --kubeconfig PATH)');
    setAppVerb(null);
    setCliAsRoot(false);
    expect(new NoKubeconfigError(TRIED).message).toContain('(for the app: k2s-dns app --kubeconfig PATH)');
  });
});
