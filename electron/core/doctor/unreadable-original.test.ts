/**
 * Doctor as a user while K2s DNS runs: the saved original is in the root-only state file, so the
 * nameserver checks say they could not be made as this user (with `sudo k2s-dns doctor`), never
 * that there is no original or that it lists 0 nameservers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setCliName } from '../../../shared/fix';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { checkNameserverCount, checkNameserverLoop, checkUpstreamsAnswer } from './nameservers';
import { useDoctorHosts } from '../../../e2e/support/doctor-test-host';

const host = useDoctorHosts();
afterEach(() => setCliName('npx k2s-dns'));

/** What lstat(2) of a path below another user's 0700 directory gives. */
const eacces = (path: string) => Object.assign(new Error(`EACCES: permission denied, lstat '${path}'`), { code: 'EACCES', errno: -13, syscall: 'lstat', path });

async function runningAsUser() {
  const h = await host('nameserver 192.0.2.53\nnameserver 192.0.2.54\n');
  await h.start();
  const lstat = h.deps.fs.lstat.bind(h.deps.fs);
  h.deps.fs.lstat = async (p: string) => (p.startsWith(`${K2S_PATHS.stateDir}/`) ? Promise.reject(eacces(p)) : lstat(p));
  h.deps.uid = () => 1000;
  setCliName('k2s-dns');
  return h;
}

describe('nameserver checks when the saved original is root-only', () => {
  it('loop, count and upstream checks say "not checked as this user" and name sudo k2s-dns doctor', async () => {
    const h = await runningAsUser();
    const ctx = await h.ctx();
    expect(ctx.stateUnreadable).toBe(true);
    const meaning = `K2s DNS owns /etc/resolv.conf and the saved original is in ${K2S_PATHS.stateFile}, which only root can read (its directory ${K2S_PATHS.stateDir} is 0700), so this check could not be made as uid 1000.`;
    const loop = await checkNameserverLoop(ctx);
    expect(loop).toMatchObject({ id: 'nameserver-loop', severity: 'info', title: 'Original nameservers vs. the proxy: not checked as this user', meaning, fix: "To check the saved original, run as root: `sudo k2s-dns doctor`, or `su -c 'k2s-dns doctor'` where sudo is not installed." });
    const count = checkNameserverCount(ctx);
    expect(count).toMatchObject({ id: 'nameserver-count', severity: 'info', title: 'Number of original nameservers: not checked as this user', meaning });
    expect(count.meaning).not.toContain('lists 0');
    expect(await checkUpstreamsAnswer(ctx)).toMatchObject({ id: 'upstream-answers', severity: 'info', title: 'Original upstreams: not checked as this user' });
  });

  // Walk 10 M3 as the window's user: during drift to a NUL file the root-only state hides the
  // saved original, yet a start is recorded (the proxy runs): no start-shaped NOT_RESOLVER_FILE error.
  it('during drift to a file start would refuse: not checked as this user, never "start refuses"', async () => {
    const h = await runningAsUser();
    await h.put('/etc/resolv.conf', 'abc\0\0def\n');
    const ctx = await h.ctx();
    expect(ctx).toMatchObject({ stateUnreadable: true, originalIsCurrent: false });
    const loop = await checkNameserverLoop(ctx);
    expect(loop).toMatchObject({ severity: 'info', title: 'Original nameservers vs. the proxy: not checked as this user' });
    expect(loop.meaning).toBe(`k2s-dnsproxy runs with a saved original (the file in /etc/resolv.conf now is another program's) and the saved original is in ${K2S_PATHS.stateFile}, which only root can read (its directory ${K2S_PATHS.stateDir} is 0700), so this check could not be made as uid 1000.`);
    expect(checkNameserverCount(ctx).severity).toBe('info');
  });

  it('as root the same host is checked (the saved original lists 2 nameservers)', async () => {
    const h = await host('nameserver 192.0.2.53\nnameserver 192.0.2.54\n');
    await h.start();
    const ctx = await h.ctx();
    expect(ctx.stateUnreadable).toBe(false);
    expect(checkNameserverCount(ctx)).toMatchObject({ severity: 'ok', meaning: 'The original lists 2 nameservers; glibc uses up to 3.' });
    expect(await checkNameserverLoop(ctx)).toMatchObject({ severity: 'ok', detail: { nameservers: ['192.0.2.53', '192.0.2.54'] } });
  });
});
