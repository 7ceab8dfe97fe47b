/**
 * A network follower killed outright (kill -9, OOM) is said by status, and a start while K2s
 * DNS runs restarts it (breaker finding 4: it was never noticed, later changes were silent drift).
 */
import { describe, expect, it } from 'vitest';
import { startDns } from './start';
import { dnsStatus } from './status';
import { stopDns } from './stop';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();
const FOLLOWER_ARGV = ['/usr/bin/node', '/usr/lib/k2s-dns/k2s-dns.mjs', 'follow-watch'];

describe('status and start: a dead network follower', () => {
  it('status says it is not running and how to fix it; start restarts it; then status says nothing of it', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    let alive = false;
    const starts: string[][] = [];
    h.deps.follower = {
      argv: FOLLOWER_ARGV,
      manager: {
        start: async (argv) => void (starts.push(argv), (alive = true)),
        stop: async () => void (alive = false),
        running: async () => alive,
      },
    };
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    expect(starts).toEqual([FOLLOWER_ARGV]);
    const said = (s: { messages: string[] }) => s.messages.filter((m) => m.startsWith('The network follower'));
    expect(said(await dnsStatus(h.deps))).toEqual([]);
    alive = false; // kill -9: the pidfile stays, the process is gone
    const s = await dnsStatus(h.deps);
    expect(s.onNetworkChange).toBe('follow');
    expect(said(s)).toEqual([expect.stringMatching(/^The network follower is not running \(onNetworkChange follow\): a new resolver file from the network is not followed and shows as drift; to restart it, run as root: `sudo .*start.*`, or `su -c '.*start.*'` where sudo is not installed\.$/)]);
    const again = await startDns(h.deps, TEST_START_OPTS, () => undefined);
    expect(again).toMatchObject({ ok: true, message: 'K2s DNS is already running; the network follower was restarted.' });
    expect(starts).toEqual([FOLLOWER_ARGV, FOLLOWER_ARGV]);
    expect(said(await dnsStatus(h.deps))).toEqual([]);
    // A start while it runs changes nothing.
    expect(await startDns(h.deps, TEST_START_OPTS, () => undefined)).toMatchObject({ ok: true, message: 'K2s DNS is already running; nothing changed.' });
    expect(starts).toHaveLength(2);
  });

  it('the app\'s backend (no follower to start, only followerWatch) says it too, in the window\'s words, with its PID while it runs (walk5 M3)', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    let alive = true;
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    h.deps.followerWatch = { running: async () => alive, pid: async () => (alive ? 5150 : null) };
    const up = await dnsStatus(h.deps, 'gui');
    expect(up.follower).toEqual({ running: true, pid: 5150 });
    expect(up.messages.filter((m) => m.startsWith('The network follower'))).toEqual([]);
    alive = false;
    const down = await dnsStatus(h.deps, 'gui');
    expect(down.follower).toEqual({ running: false, pid: null });
    expect(down.messages.filter((m) => m.startsWith('The network follower'))).toEqual(['The network follower is not running (onNetworkChange follow): a new resolver file from the network is not followed and shows as drift; press Start to restart it.']);
  });

  it('while a stop or start runs, a follower it ended or has not started yet is no fault: not said (walk 11 L7)', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    let alive = false;
    const seen: { during: string; follower: unknown; notes: string[] }[] = [];
    const look = async (during: string) => {
      const s = await dnsStatus(h.deps, 'gui');
      seen.push({ during, follower: s.follower ?? null, notes: s.messages.filter((m) => m.startsWith('The network follower')) });
    };
    h.deps.follower = {
      argv: FOLLOWER_ARGV,
      manager: {
        // start: the state is written and the proxy runs, the follower not yet (its journal is live).
        start: async () => void (await look('start'), (alive = true)),
        // stop: the lock is held, the follower just ended, no journal written yet.
        stop: async () => void ((alive = false), await look('stop')),
        running: async () => alive,
      },
    };
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    expect((await stopDns(h.deps, {}, () => undefined)).ok).toBe(true);
    expect(seen).toEqual([
      { during: 'start', follower: null, notes: [] },
      { during: 'stop', follower: null, notes: [] },
    ]);
  });
});
