/**
 * Issue 20, H1: Diagnostics called K2s DNS's own new proxy a foreign holder of 127.0.0.1:53 ("Stop
 * dnsproxy (PID 11370) …") because the run read the service as stopped before a CLI `stop; start`
 * passed, and the port check believed that read. Our proxy is recognised by its config argument
 * whatever the service state says, and what it means is read when the holder is found.
 */
import { describe, expect, it } from 'vitest';
import { checkPort53 } from './port53';
import { checkLifecycleState } from './lifecycle-state';
import { useDoctorHosts } from '../../../e2e/support/doctor-test-host';
import { writeJournal } from '../lifecycle/journal';
import { acquireLock } from '../lifecycle/lock';
import { startBlock } from '../../../renderer/src/lib/start-gates';
import { findingsDuringOperation } from '../../../shared/doctor';

const host = useDoctorHosts();

/** No process has this PID (above Linux's PID_MAX_LIMIT, 2^22): /proc never answers for it. */
const PROXY_PID = 5_000_001;
const ADGUARD = '/opt/k2s/bin/dnsproxy --config-path=/etc/k2s/dnsproxy.yaml';
const DNSMASQ = '/usr/sbin/dnsmasq --keep-in-foreground --conf-file=/etc/k2s/dnsmasq.conf --pid-file= --user=root';

describe('port-53: K2s DNS’s own proxy is never a foreign holder', () => {
  it('a proxy on our config that a start bound after the run read "not running": ok, ours (the walk\'s race)', async () => {
    const h = await host();
    // The run's facts are read first (K2s DNS stopped between the CLI's stop and start) …
    const ctx = await h.ctx({ frontEnd: 'gui' });
    expect(ctx.service.running).toBe(false);
    // … then the CLI's start binds the port with a new proxy before the port check looks.
    await h.start();
    h.world.portHolder = { pid: PROXY_PID, command: ADGUARD };
    const f = await checkPort53(ctx);
    expect(f).toMatchObject({ id: 'port-53', severity: 'ok', title: '127.0.0.1:53 is held by k2s-dnsproxy (ours)', fix: null, detail: { proto: 'udp', pid: PROXY_PID, ours: true } });
    expect(startBlock([f])).toBeNull();
    expect(findingsDuringOperation([f])).toBe(false);
  });

  it('during an operation (its journal, its process holding the lifecycle lock): info naming it, no fix', async () => {
    const h = await host();
    const lock = await acquireLock(h.deps.fs);
    try {
      await writeJournal(h.deps.fs, { version: 1, op: 'start', step: 'service', pid: process.pid, startedAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:01.000Z' });
      h.world.portHolder = { pid: PROXY_PID, command: DNSMASQ };
      const gui = await checkPort53(await h.ctx({ frontEnd: 'gui' }));
      expect(gui).toEqual({
        id: 'port-53',
        severity: 'info',
        title: '127.0.0.1:53 is held by k2s-dnsproxy (ours) during a k2s-dns start',
        meaning: `A k2s-dns start (PID ${process.pid}, step "service") is changing K2s DNS right now; K2s DNS's own proxy (${DNSMASQ}, PID ${PROXY_PID}) holds 127.0.0.1:53/udp meanwhile. The checks run again by themselves when it is done.`,
        fix: null,
        detail: { proto: 'udp', pid: PROXY_PID, command: DNSMASQ, ours: true, operation: { op: 'start', step: 'service', pid: process.pid } },
      });
      expect((await checkPort53(await h.ctx())).meaning).toMatch(/ Run `sudo npx k2s-dns doctor` again when it is done\.$|Run `npx k2s-dns doctor` again when it is done\.$/);
      // The same run's state finding says the same, not "stopped".
      const state = await checkLifecycleState(await h.ctx({ frontEnd: 'gui' }));
      expect(state).toMatchObject({
        severity: 'info',
        title: 'K2s DNS state: starting',
        meaning: `A k2s-dns start (PID ${process.pid}, step "service") is changing K2s DNS right now, so these checks see the host halfway through it. The checks run again by themselves when it is done.`,
        fix: null,
      });
      // Each alone marks the result as taken mid-operation: the window checks again when it ends.
      expect(findingsDuringOperation([gui])).toBe(true);
      expect(findingsDuringOperation([state])).toBe(true);
    } finally {
      await lock.release();
    }
  });

  it('left running with no start recorded: warn, it is ours, and the fix is stop (which finds it by its config argument)', async () => {
    const h = await host();
    h.world.portHolder = { pid: PROXY_PID, command: ADGUARD };
    const f = await checkPort53(await h.ctx());
    expect(f).toMatchObject({ severity: 'warn', title: `127.0.0.1:53 is held by K2s DNS's own proxy left running (PID ${PROXY_PID})`, detail: { ours: true, leftOver: true } });
    expect(f.meaning).toBe(`No K2s DNS start is recorded (no saved state), yet K2s DNS's own proxy (${ADGUARD}, PID ${PROXY_PID}) still runs on its config and holds 127.0.0.1:53/udp, e.g. after k2s-dns was killed. Start does not refuse: it restarts that proxy.`);
    expect(f.fix).toBe(`Run \`sudo npx k2s-dns stop\`: it stops K2s DNS's own proxy, found by its config argument, also when no start is recorded (if PID ${PROXY_PID} still runs after that, \`sudo kill ${PROXY_PID}\`). Or start K2s DNS: start restarts it.`);
    expect(f.remedy).toEqual({ action: 'stop', gui: `Press Stop: it stops K2s DNS's own proxy (PID ${PROXY_PID}) also when no start is recorded (or press Start: it restarts that proxy).`, cli: 'sudo npx k2s-dns stop' });
    // Start is not refused for it (lifecycle/preflight.ts: a holder on our config is restarted), so it never gates Start.
    expect(startBlock([f])).toBeNull();
  });

  it('a foreign program is still an error naming it, as before', async () => {
    const h = await host();
    await h.start();
    h.world.portHolder = { pid: 812, command: '/usr/sbin/named -u bind' };
    const f = await checkPort53(await h.ctx());
    expect(f).toMatchObject({ severity: 'error', title: '127.0.0.1:53 is held by named (PID 812)', detail: { ours: false } });
    expect(f.fix).toBe('Stop that process (`sudo kill 812`) or make it listen elsewhere, then start K2s DNS.');
    expect(startBlock([f])).toBe('127.0.0.1:53 held by named (PID 812): stop it, then press Check again.');
  });

  it('another K2s DNS’s proxy (its config under another directory): an error, never "systemctl stop dnsmasq"', async () => {
    const h = await host();
    const command = '/usr/sbin/dnsmasq --keep-in-foreground --conf-file=/var/lib/machines/box/etc/k2s/dnsmasq.conf';
    h.world.portHolder = { pid: PROXY_PID, command };
    const f = await checkPort53(await h.ctx());
    expect(f).toMatchObject({ severity: 'error', title: `127.0.0.1:53 is held by another K2s DNS proxy (dnsmasq, PID ${PROXY_PID})`, detail: { ours: false } });
    expect(f.fix).toBe(`Run \`sudo npx k2s-dns stop\` where it was started (or \`sudo k2s stop\`), or \`sudo kill ${PROXY_PID}\`, then start K2s DNS.`);
    expect(`${f.fix} ${f.remedy?.gui}`).not.toContain('systemctl');
  });

  it('a listener that cannot be named (not root) while our proxy runs now, though the run read "not running": ok, not an error', async () => {
    const h = await host();
    const ctx = await h.ctx();
    await h.start();
    // The test host's TCP probe answers while its service runs.
    const f = await checkPort53(ctx);
    expect(f).toMatchObject({ severity: 'ok', title: '127.0.0.1:53 is held by k2s-dnsproxy (ours)', detail: { proto: 'tcp', pid: 4242, ours: true } });
  });
});
