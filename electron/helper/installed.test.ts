import { describe, expect, it } from 'vitest';
import { findInstallGap, INSTALLED_HELPER, INSTALLED_HELPER_BUNDLE, INSTALLED_POLICY, PKEXEC_PATH, type FileFacts } from './installed';
import { notInstalledResult, runHelper, type LauncherOptions } from './launcher';
import type { LifecycleEvent } from '../../shared/lifecycle-events';

const DIR = '/usr/lib/k2s-dns';
const root = (kind: FileFacts['kind'], mode: number): FileFacts => ({ kind, uid: 0, mode });
/** A host where everything the privileged path needs is in place. */
const complete: Record<string, FileFacts> = {
  [DIR]: root('dir', 0o755),
  [INSTALLED_HELPER]: root('file', 0o755),
  [INSTALLED_HELPER_BUNDLE]: root('file', 0o644),
  [PKEXEC_PATH]: root('file', 0o4755),
  [INSTALLED_POLICY]: root('file', 0o644),
};
const host = (changes: Record<string, FileFacts | null>) => (p: string) => (p in changes ? changes[p]! : (complete[p] ?? null));

describe('the privileged path, looked for at each call', () => {
  it('complete: no gap', () => {
    expect(findInstallGap(host({}))).toBeNull();
  });

  it.each([
    ['no helper directory', { [DIR]: null }, 'HELPER_NOT_INSTALLED', `${INSTALLED_HELPER} is missing`],
    ['no launcher', { [INSTALLED_HELPER]: null }, 'HELPER_NOT_INSTALLED', `${INSTALLED_HELPER} is missing`],
    ['no bundle', { [INSTALLED_HELPER_BUNDLE]: null }, 'HELPER_NOT_INSTALLED', `${INSTALLED_HELPER_BUNDLE} is missing`],
    ['launcher owned by a user', { [INSTALLED_HELPER]: { kind: 'file', uid: 1000, mode: 0o755 } }, 'HELPER_NOT_INSTALLED', `${INSTALLED_HELPER} is owned by uid 1000, not root`],
    ['bundle group-writable', { [INSTALLED_HELPER_BUNDLE]: root('file', 0o664) }, 'HELPER_NOT_INSTALLED', `${INSTALLED_HELPER_BUNDLE} is writable by its group (mode 0664)`],
    ['directory world-writable', { [DIR]: root('dir', 0o777) }, 'HELPER_NOT_INSTALLED', `${DIR} is writable by every user (mode 0777)`],
    ['launcher is a symlink', { [INSTALLED_HELPER]: root('other', 0o777) }, 'HELPER_NOT_INSTALLED', `${INSTALLED_HELPER} is not a regular file`],
    ['no pkexec', { [PKEXEC_PATH]: null }, 'PKEXEC_MISSING', 'sudo apt-get install pkexec'],
    ['no polkit action', { [INSTALLED_POLICY]: null }, 'POLICY_MISSING', `is not installed (${INSTALLED_POLICY})`],
    ['polkit action writable by a user', { [INSTALLED_POLICY]: { kind: 'file', uid: 1000, mode: 0o644 } }, 'POLICY_MISSING', 'owned by uid 1000'],
  ] as const)('%s: %s', (_what, changes, code, text) => {
    const gap = findInstallGap(host(changes));
    expect(gap?.code).toBe(code);
    expect(gap?.message).toContain(text);
  });

  it('each missing piece names its own fix', () => {
    // Walk 7 M4: the package file's name (its version) in prose, no `<version>` to paste into a shell.
    expect(findInstallGap(host({ [INSTALLED_HELPER]: null }))!.message).toContain("install the k2s-dns package (`sudo apt-get install` followed by the .deb file's path, starting with ./ or /; or `sudo rpm -i` followed by the .rpm file's)");
    expect(findInstallGap(host({ [INSTALLED_POLICY]: null }))!.message).toContain("(rpm: `sudo rpm -U --replacepkgs` followed by the .rpm file's path)");
    for (const gap of [host({ [INSTALLED_HELPER]: null }), host({ [INSTALLED_POLICY]: null })]) expect(findInstallGap(gap)!.message).not.toContain('<');
    expect(findInstallGap(host({ [INSTALLED_HELPER]: null }))!.message).toContain('sudo bash scripts/install-helper.sh');
    expect(findInstallGap(host({ [INSTALLED_POLICY]: null }))!.message).toContain('sudo apt-get install --reinstall k2s-dns');
    // The helper first: a host missing everything is told to install the package (which brings the rest).
    expect(findInstallGap(() => null)!.code).toBe('HELPER_NOT_INSTALLED');
  });

  it('a refusal is exit 3 for the verb asked, ends with "Nothing changed.", and nothing is spawned', async () => {
    let looks = 0;
    let state: Record<string, FileFacts | null> = { [PKEXEC_PATH]: null };
    const o: LauncherOptions = { uid: 1000, nodePath: '/nonexistent/node', helperScript: '/nonexistent/h.mjs', installedHelper: INSTALLED_HELPER, pkexec: '/nonexistent/pkexec-must-not-run', installGap: () => (looks++, findInstallGap(host(state))) };
    const events: LifecycleEvent[] = [];
    const r = await runHelper(o, { verb: 'stop' }, (e) => events.push(e));
    expect(r).toMatchObject({ op: 'stop', ok: false, exitCode: 3, code: 'PKEXEC_MISSING' });
    expect(r.message).toMatch(/^Stop runs the K2s DNS helper through pkexec, which is not installed \(\/usr\/bin\/pkexec\): sudo apt-get install pkexec .* Nothing changed\.$/);
    expect(events).toEqual([r]);
    // Installed meanwhile: the next call looks again (no restart of the app) and gets further, to the next gap.
    state = { [INSTALLED_POLICY]: null };
    expect((await runHelper(o, { verb: 'uninstall' }, () => undefined)).code).toBe('POLICY_MISSING');
    expect(looks).toBe(2);
    expect(notInstalledResult({ code: 'POLICY_MISSING', message: 'm.' }, { verb: 'start' }).message).toBe('Start m. Nothing changed.');
  });

  it('a piece removed between the look and the run is still its refusal, not HELPER_FAILED', async () => {
    let first = true;
    const o: LauncherOptions = {
      uid: 1000,
      nodePath: '/nonexistent/node',
      helperScript: '/nonexistent/h.mjs',
      installedHelper: INSTALLED_HELPER,
      // pkexec "exists" for the first look; spawning it fails (ENOENT), the second look sees it gone.
      pkexec: '/nonexistent/pkexec',
      installGap: () => (first ? ((first = false), null) : findInstallGap(host({ [PKEXEC_PATH]: null }))),
    };
    const r = await runHelper(o, { verb: 'start' }, () => undefined);
    expect(r).toMatchObject({ exitCode: 3, code: 'PKEXEC_MISSING' });
  });
});
