/**
 * status's fixes that run the CLI as root name `su -c '…'` beside `sudo …` (a minimal Debian has
 * no sudo), through shared/fix.ts asRootWays as diff and doctor do; under a wrapper that runs as
 * root by itself, just its lines.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { dnsStatus } from './status';
import { startDns } from './start';
import { asRootWays, setCliName } from '../../../shared/fix';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();

/** A started host whose proxy is down, as a status of `restart` from systemd says. */
async function downHost(restart: { attempt: number; gaveUp: boolean }) {
  const h = await newHost('nameserver 192.0.2.53\n');
  expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
  h.services.running = false;
  h.services.status = async () => ({ running: false, pid: null, restart: { ...restart, lastExit: 'exited with status 1', reason: null } });
  return h;
}

afterEach(() => setCliName('npx k2s-dns'));

describe("status's root fixes: sudo, or su -c where sudo is not installed", () => {
  it('several commands in turn: each with sudo, one su -c joining them with &&', () => {
    expect(asRootWays(['stop', 'start'])).toBe("as root: `sudo npx k2s-dns stop`, then `sudo npx k2s-dns start`, or `su -c 'npx k2s-dns stop && npx k2s-dns start'` where sudo is not installed");
    setCliName('/tmp/sb/k2s-dns', false);
    expect(asRootWays(['stop', 'start'])).toBe('as root: `/tmp/sb/k2s-dns stop`, then `/tmp/sb/k2s-dns start`');
  });

  it('systemd gave up on the proxy: stop, then start, with sudo or one su -c', async () => {
    const h = await downHost({ attempt: 10, gaveUp: true });
    const s = await dnsStatus(h.deps);
    expect(s.messages.filter((m) => m.startsWith('systemd restarted'))).toEqual([
      "systemd restarted k2s-dnsproxy 10 times and stopped (its start limit); the last run exited with status 1 (/var/log/dnsproxy/dnsproxy.log). Fix that cause, then run as root: `sudo npx k2s-dns stop`, then `sudo npx k2s-dns start --verify-name www.example.test`, or `su -c 'npx k2s-dns stop && npx k2s-dns start --verify-name www.example.test'` where sudo is not installed.",
    ]);
  });

  it('the proxy down after a start: start as root, either way; the window still says Start', async () => {
    const h = await downHost({ attempt: 0, gaveUp: false });
    h.services.status = async () => ({ running: false, pid: null });
    const cli = await dnsStatus(h.deps);
    expect(cli.messages).toContain("k2s-dnsproxy is not running although K2s DNS was started: to start k2s-dnsproxy again (your saved original is kept), run as root: `sudo npx k2s-dns start --verify-name www.example.test`, or `su -c 'npx k2s-dns start --verify-name www.example.test'` where sudo is not installed.");
    // No note offers sudo alone.
    expect(cli.messages.filter((m) => m.includes('sudo npx k2s-dns') && !m.includes('su -c'))).toEqual([]);
    const gui = await dnsStatus(h.deps, 'gui');
    expect(gui.messages).toContain('k2s-dnsproxy is not running although K2s DNS was started: press Start: it starts k2s-dnsproxy again and keeps your saved original.');
  });
});
