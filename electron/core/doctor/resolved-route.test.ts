import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Exec } from '../host/exec';
import { createHostFs } from '../host/host-fs-node';
import { writeJournal } from '../lifecycle/journal';
import { acquireLock } from '../lifecycle/lock';
import type { DoctorContext } from './context';
import { checkResolvedRoute, routeDifferences } from './resolved-route';
import { checkNetworkManagerKubeSwitch } from './networkmanager';

const ROUTE = { link: 'k2s-proxy0', address: '172.19.1.1', domains: ['~cluster.local', '~21.172.in-addr.arpa'] };

/** A context whose resolvectl answers as systemd 257 does for `link` (null: resolved does not know it). */
function ctx(link: { dns: string; domain: string; route: string } | null, route: typeof ROUTE | null = ROUTE, unitInstalled = true, running = true, resolvedRuns = true): DoctorContext {
  const exec: Exec = {
    async run(file, args) {
      if (file === 'systemctl' && args[1] === 'systemd-resolved.service') return resolvedRuns ? { code: 0, stdout: 'active\n', stderr: '' } : { code: 3, stdout: 'inactive\n', stderr: '' };
      if (file === 'systemctl') return { code: 3, stdout: 'inactive\n', stderr: '' };
      if (file !== 'resolvectl' || link === null) return { code: 1, stdout: '', stderr: 'Failed to resolve interface "k2s-proxy0": No such device' };
      const v = args[0] === 'dns' ? link.dns : args[0] === 'domain' ? link.domain : link.route;
      return { code: 0, stdout: `Link 7 (k2s-proxy0): ${v}\n`, stderr: '' };
    },
  };
  const fs = { lstat: async (p: string) => (p === '/etc/systemd/system/k2s-dnsproxy-resolved.service' && unitInstalled ? { kind: 'file' } : null) };
  return { deps: { exec, services: { kind: 'systemd' }, fs }, state: route ? { resolvedRoute: route } : null, service: { running, pid: running ? 4242 : null } } as unknown as DoctorContext;
}

describe('doctor resolved-route', () => {
  it('ok when resolved has exactly the saved route on the link', async () => {
    const f = await checkResolvedRoute(ctx({ dns: '172.19.1.1', domain: '~cluster.local ~21.172.in-addr.arpa', route: 'no' }));
    expect(f).toMatchObject({ id: 'resolved-route', severity: 'ok', title: 'systemd-resolved sends ~cluster.local ~21.172.in-addr.arpa to 172.19.1.1 on k2s-proxy0', fix: null });
  });
  it('error with the fix when the link came back without it (K2s re-created k2s-proxy0), naming what is missing and the unit state', async () => {
    const f = await checkResolvedRoute(ctx({ dns: '', domain: '', route: 'yes' }));
    expect(f.severity).toBe('error');
    expect(f.title).toBe('systemd-resolved route on k2s-proxy0 missing');
    expect(f.meaning).toBe('On k2s-proxy0 its DNS servers are none, not 172.19.1.1; it lacks the routing domains ~cluster.local ~21.172.in-addr.arpa; it is a default route for every name, not routing-only (k2s-dnsproxy-resolved.service is inactive), so cluster names asked through systemd-resolved (nss-resolve, the 127.0.0.53 stub, resolvectl query) fail or go to the other nameservers.');
    expect(f.fix).toContain('systemctl restart k2s-dnsproxy-resolved');
    expect(f.fix).toContain('sudo npx k2s-dns stop');
  });
  it('a K2s DNS started by a version without k2s-dnsproxy-resolved.service: the fix is start (it installs the unit), not a restart of a unit that is not there', async () => {
    const f = await checkResolvedRoute(ctx({ dns: '', domain: '', route: 'yes' }, ROUTE, false));
    expect(f.severity).toBe('error');
    expect(f.meaning).toContain('(k2s-dnsproxy-resolved.service is not installed: this K2s DNS was started by a version without it)');
    expect(f.fix).toBe('Run `sudo npx k2s-dns start`: K2s DNS keeps running, and start installs k2s-dnsproxy-resolved.service, which applies the route again from the saved state.');
  });
  it('error when resolved does not know the link at all; info when K2s holds no route', async () => {
    expect((await checkResolvedRoute(ctx(null))).meaning).toMatch(/^On k2s-proxy0 systemd-resolved does not know the link k2s-proxy0 /);
    expect(await checkResolvedRoute(ctx(null, null, true, false))).toMatchObject({ severity: 'info', title: 'No systemd-resolved route in use', meaning: 'K2s DNS is not running, so it holds no systemd-resolved route.', fix: null });
  });
  it('no route while K2s DNS runs: worded for the running state, never "it is not running" (issue 20 low)', async () => {
    const off = await checkResolvedRoute(ctx(null, null, true, true, false));
    expect(off).toMatchObject({ severity: 'info', title: 'K2s DNS runs without a systemd-resolved route', fix: null });
    expect(off.meaning).toBe('systemd-resolved did not run when K2s DNS started and does not run now, so K2s DNS needs no route there: programs that read /etc/resolv.conf ask the proxy directly.');
    const late = await checkResolvedRoute(ctx(null, null, true, true, true));
    expect(late).toMatchObject({ severity: 'info', title: 'K2s DNS runs without a systemd-resolved route' });
    expect(late.meaning).toContain('systemd-resolved runs now but did not when K2s DNS started');
    expect(late.meaning).toContain('Stop and Start K2s DNS');
    for (const f of [off, late]) expect(f.meaning).not.toMatch(/not running/);
  });
  it('during an operation (a CLI stop taking the route down while the checks run): info naming it, never a route to repair (issue 20 H1)', async () => {
    const root = await mkdtemp(join(tmpdir(), 'k2s-route-op-'));
    const fs = createHostFs(root);
    const lock = await acquireLock(fs);
    try {
      await writeJournal(fs, { version: 1, op: 'stop', step: 'restore', pid: process.pid, startedAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:01.000Z' });
      const c = ctx({ dns: '', domain: '', route: 'yes' });
      const f = await checkResolvedRoute({ ...c, deps: { ...c.deps, fs }, opts: { kubeconfigPath: null, frontEnd: 'gui' } });
      expect(f).toEqual({
        id: 'resolved-route',
        severity: 'info',
        title: 'systemd-resolved route checked during a k2s-dns stop',
        meaning: `A k2s-dns stop (PID ${process.pid}, step "restore") is changing K2s DNS right now, so the route may be halfway set up or taken down. The checks run again by themselves when it is done.`,
        fix: null,
        detail: { operation: { op: 'stop', step: 'restore', pid: process.pid } },
      });
    } finally {
      await lock.release();
      await rm(root, { recursive: true, force: true });
    }
  });
  it('a stop that ended after the run read "running": judged on the state now (no route), not the route it took down', async () => {
    const c = ctx({ dns: '', domain: '', route: 'yes' });
    const stopped = { ...c, deps: { ...c.deps, services: { kind: 'systemd', status: async () => ({ running: false, pid: null }) } } } as DoctorContext;
    expect(await checkResolvedRoute(stopped)).toMatchObject({ severity: 'info', title: 'No systemd-resolved route in use', fix: null });
  });
  it('routeDifferences: a second server or a default route is a difference, extra domains of someone else are not', () => {
    expect(routeDifferences(ROUTE, { servers: ['172.19.1.1', '192.0.2.53'], domains: [...ROUTE.domains, 'corp.example'], defaultRoute: false })).toEqual(['its DNS servers are 172.19.1.1 192.0.2.53, not 172.19.1.1']);
    expect(routeDifferences(ROUTE, { servers: ['172.19.1.1'], domains: ROUTE.domains, defaultRoute: true })).toEqual(['it is a default route for every name, not routing-only']);
  });
});

describe('doctor networkmanager-kubeswitch', () => {
  /** nmcli answering as NetworkManager 1.52 did on the Debian 13 bed. */
  function nmCtx(device: string | null, method = 'auto'): DoctorContext {
    const exec: Exec = {
      async run(file, args) {
        if (file !== 'nmcli' || device === null) return { code: 8, stdout: '', stderr: 'Error: NetworkManager is not running.' };
        if (args.includes('device')) return { code: 0, stdout: device, stderr: '' };
        return { code: 0, stdout: `${method}\n`, stderr: '' };
      },
    };
    return { deps: { exec }, state: { resolvedRoute: ROUTE } } as unknown as DoctorContext;
  }
  it('warns with the fix when NM runs its DHCP connection on the KubeSwitch link (it removes 172.19.1.1 when DHCP gives up)', async () => {
    const f = await checkNetworkManagerKubeSwitch(nmCtx('70 (connecting (getting IP configuration))\nWired connection 3\n'));
    expect(f).toMatchObject({ severity: 'warn', title: 'NetworkManager runs DHCP on k2s-proxy0 (connection "Wired connection 3")' });
    expect(f.fix).toContain('nmcli device set k2s-proxy0 managed no');
    expect(f.fix).toContain('never changes NetworkManager settings');
  });
  it('ok (no INFO line on every run, new user) when NM keeps the link as external (its own connection named after it), leaves it unmanaged or does not run; ok for a static profile', async () => {
    expect(await checkNetworkManagerKubeSwitch(nmCtx('100 (connected (externally))\nk2s-proxy0\n'))).toMatchObject({ severity: 'ok', title: 'NetworkManager leaves k2s-proxy0 alone (100 (connected (externally)))' });
    expect(await checkNetworkManagerKubeSwitch(nmCtx('10 (unmanaged)\n\n'))).toMatchObject({ severity: 'ok' });
    const none = await checkNetworkManagerKubeSwitch(nmCtx(null));
    expect(none).toMatchObject({ severity: 'ok', title: 'NetworkManager does not manage k2s-proxy0' });
    // Its one line says what the link is and why it matters.
    expect(none.meaning).toBe("NetworkManager does not run here, or does not know k2s-proxy0, K2s's KubeSwitch link (it holds 172.19.1.1): it cannot remove that address.");
    expect(await checkNetworkManagerKubeSwitch(nmCtx('100 (connected)\nk2s-switch\n', 'manual'))).toMatchObject({ severity: 'ok' });
  });
});
