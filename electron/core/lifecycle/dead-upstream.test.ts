/**
 * A dead `--upstream` (nothing listens at 127.0.0.2) ended "running"
 * on main, because verify skipped the external check whenever the upstream was silent. Named
 * upstreams must answer or the start rolls back; a silent discovered upstream (offline host)
 * still starts, with a warning in the result instead of a green.
 */
import { describe, expect, it } from 'vitest';
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { QueryResult } from '../../../shared/types';
import { startDns } from './start';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();
const ORIGINAL = 'nameserver 192.0.2.53\nsearch corp.example\n';
const opts = TEST_START_OPTS;

/** A test host where `dead` upstreams never answer (ECONNREFUSED on loopback, as a real socket reports). */
async function hostWithDead(dead: string[], error = 'connect ECONNREFUSED') {
  const h = await newHost(ORIGINAL);
  const query = h.deps.query;
  const asked: string[] = [];
  let clock = 0;
  h.deps.now = () => clock;
  h.deps.sleep = async (ms) => void (clock += ms);
  h.deps.query = async (q): Promise<QueryResult> => {
    asked.push(q.server);
    if (dead.includes(q.server)) {
      clock += 1; // every attempt costs time, so the deadline ends the retries
      return { name: q.name, type: q.type, server: q.server, transport: 'udp', rcode: 'ERROR', answers: [], latencyMs: 1, error };
    }
    return query(q);
  };
  return { ...h, asked };
}

describe('verify with a dead upstream', () => {
  it('--upstream 127.0.0.2 with nothing listening: VERIFY_UPSTREAM names it and the fix, rolled back to the original', async () => {
    const h = await hostWithDead(['127.0.0.2']);
    const r = await startDns(h.deps, { ...opts, cliDoor: true, upstreams: ['127.0.0.2'] }, () => undefined);
    expect(r).toMatchObject({ ok: false, exitCode: 1, code: 'VERIFY_UPSTREAM' });
    expect(r.message).toContain('The --upstream you named does not resolve www.example.test: 127.0.0.2 gave no answer: refused (nothing listens on its port) (no answer within the verify deadline of 15000 ms)');
    expect(r.message).toContain('Check the address (npx k2s-dns query www.example.test --server 127.0.0.2)');
    expect(r.message).toContain('Every change was rolled back');
    // Retried until the deadline, not judged on one lost datagram.
    expect(h.asked.filter((s) => s === '127.0.0.2').length).toBeGreaterThan(1);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    expect(h.services.running).toBe(false);
    await expect(lstat(join(h.root, 'var/lib/k2s/dns-resolver-state.json'))).rejects.toThrow(/ENOENT/);
  });

  it('one live and one dead --upstream: still refused, naming only the dead one', async () => {
    const h = await hostWithDead(['198.51.100.99']);
    const r = await startDns(h.deps, { ...opts, cliDoor: true, upstreams: ['192.0.2.53', '198.51.100.99'] }, () => undefined);
    expect(r.code).toBe('VERIFY_UPSTREAM');
    expect(r.message).toContain('One of the --upstream you named does not resolve www.example.test: 198.51.100.99 gave no answer');
    expect(r.message).not.toContain('192.0.2.53 gave');
    // Never the false "every non-cluster name would fail": the other one answers.
    expect(r.message).not.toContain('every non-cluster name would fail');
    expect(r.message).toContain('the other answers (192.0.2.53), but every --upstream you name must answer: remove it or correct the address');
  });

  it('walk 24: the same failures from the window (its helper: no cliDoor) name the Start options field, never the --upstream flag', async () => {
    const h = await hostWithDead(['127.0.0.2']);
    const r = await startDns(h.deps, { ...opts, upstreams: ['127.0.0.2'] }, () => undefined);
    expect(r.code).toBe('VERIFY_UPSTREAM');
    expect(r.message).toContain('The upstream you entered in Start options → Upstreams does not resolve www.example.test: 127.0.0.2 gave no answer');
    expect(r.message).toContain('or clear Upstreams in Start options and start again to use the nameservers of your /etc/resolv.conf.');
    expect(r.message).not.toContain('--upstream');
    const h2 = await hostWithDead(['198.51.100.99']);
    const r2 = await startDns(h2.deps, { ...opts, upstreams: ['192.0.2.53', '198.51.100.99'] }, () => undefined);
    expect(r2.message).toContain('One of the upstreams you entered in Start options → Upstreams does not resolve www.example.test: 198.51.100.99 gave no answer');
    expect(r2.message).toContain('the other answers (192.0.2.53), but every upstream entered there must answer: remove it or correct the address');
    expect(r2.message).not.toContain('--upstream');
  });

  it('a silent discovered upstream (offline host) still starts, but the result carries UPSTREAM_UNVERIFIED, naming the socket\'s cause, not "(ERROR)" (walk 7 L8)', async () => {
    const h = await hostWithDead(['192.0.2.53']);
    const r = await startDns(h.deps, opts, () => undefined);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(r.warnings).toEqual([
      {
        code: 'UPSTREAM_UNVERIFIED',
        message: 'Your nameserver 192.0.2.53 did not answer www.example.test: refused (nothing listens on its port), so names outside the cluster were not checked and may not resolve; if this host is online, check it with npx k2s-dns query www.example.test --server 192.0.2.53, or start again with `sudo npx k2s-dns start --upstream <IP>` (replace <IP> with the IP address of a nameserver that answers).',
      },
    ]);
    expect(r.message).toContain('Warning: Your nameserver 192.0.2.53 did not answer');
  });

  it('an upstream on a network this host has no route to: the warning says "network unreachable", the cause status names (walk 7 L8)', async () => {
    const h = await hostWithDead(['192.0.2.53'], 'send ENETUNREACH 192.0.2.53:53');
    const r = await startDns(h.deps, opts, () => undefined);
    expect(r.warnings?.[0]?.message).toMatch(/^Your nameserver 192\.0\.2\.53 did not answer www\.example\.test: network unreachable \(ENETUNREACH: this host has no route to it\), so names outside the cluster were not checked/);
  });

  it('a live --upstream: running, no warning', async () => {
    const h = await hostWithDead([]);
    const r = await startDns(h.deps, { ...opts, upstreams: ['192.0.2.53'] }, () => undefined);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(r.warnings).toBeUndefined();
  });
});
