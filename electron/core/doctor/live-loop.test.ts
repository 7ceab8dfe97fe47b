/**
 * Doctor's `coredns-loop` check when this user may not read the proxy log (root:adm 0640): it says
 * it could not check as this user (info, with the way to check), never that there is no log
 * (new-user walk 23: an OK "No query log … empty or absent" while the file existed).
 */
import { promises as fsp } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setCliName } from '../../../shared/fix';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { checkLiveLoop } from './live-loop';
import { useDoctorHosts } from '../../../e2e/support/doctor-test-host';

const host = useDoctorHosts();
afterEach(() => {
  vi.restoreAllMocks();
  setCliName('npx k2s-dns');
});

/** open(2) of `real` as a user outside root and adm gives EACCES (the tests run as root, which reads any file). */
function denyOpen(real: string): void {
  const open = fsp.open.bind(fsp);
  vi.spyOn(fsp, 'open').mockImplementation(((p: Parameters<typeof fsp.open>[0], ...rest: unknown[]) =>
    String(p) === real
      ? Promise.reject(Object.assign(new Error(`EACCES: permission denied, open '${real}'`), { code: 'EACCES', errno: -13, syscall: 'open', path: real }))
      : (open as (...a: unknown[]) => Promise<unknown>)(p, ...rest)) as typeof fsp.open);
}

describe('coredns-loop when the proxy log is unreadable', () => {
  it('an existing log this user may not read: info "not checked as this user", with doctor as root or the group adm', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    await h.put(K2S_PATHS.log, 'a line\n', 0o640);
    denyOpen(h.deps.fs.real(K2S_PATHS.log));
    h.deps.uid = () => 1000;
    setCliName('k2s-dns');
    const f = await checkLiveLoop(await h.ctx());
    expect(f).toMatchObject({
      id: 'coredns-loop',
      severity: 'info',
      title: 'CoreDNS ↔ proxy loop in the query log: not checked as this user',
      meaning: `${K2S_PATHS.log} exists, but only root and the group adm may read it (root:adm 0640), so the query log could not be read as uid 1000.`,
      fix: "To check it, run as root: `sudo k2s-dns doctor`, or `su -c 'k2s-dns doctor'` where sudo is not installed; or be in the group adm (`sudo usermod -aG adm $USER`, or `su -c \"usermod -aG adm $USER\"` where sudo is not installed, then log out and in again) and run doctor again.",
      remedy: { action: null, cli: 'sudo k2s-dns doctor' },
    });
    // Under the sandbox's wrapper (root by itself, shell commands run inside): its line, no sudo.
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true, '192.0.2.53');
    expect((await checkLiveLoop(await h.ctx())).fix).toBe('To check it, run as root: `/tmp/k2sdns-app-Ab12/k2s-dns doctor`; or be in the group adm where K2s DNS runs and run doctor again.');
  });

  it('an absent or empty log is still OK "No query log to check"', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    expect(await checkLiveLoop(await h.ctx())).toMatchObject({ severity: 'ok', title: 'No query log to check for a CoreDNS loop' });
    await h.put(K2S_PATHS.log, '');
    expect(await checkLiveLoop(await h.ctx())).toMatchObject({ severity: 'ok', title: 'No query log to check for a CoreDNS loop' });
  });
});
