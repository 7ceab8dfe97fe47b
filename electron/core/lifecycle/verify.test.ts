import { describe, expect, it } from 'vitest';
import type { LifecycleDeps } from './deps';
import type { QueryResult } from '../../../shared/types';
import { FIXTURE_DISCOVERY } from '../../../e2e/support/test-deps';
import { verifyDns, WAITING_AFTER_MS } from './verify';

const CLUSTER = 'kubernetes.default.svc.cluster.local';

function answer(name: string, server: string, rcode: string, data: string[]): QueryResult {
  return { name, type: 'A', server, transport: 'udp', rcode, answers: data.map((d) => ({ name, type: 'A', ttl: 30, data: d })), latencyMs: 1 };
}

/**
 * Deps with a fake clock: a query that times out costs its whole timeoutMs, sleep advances the
 * clock. `proxyTimeouts` = how many proxy attempts time out before it answers (Infinity: never).
 */
function fakeDeps(o: { proxyTimeouts?: number; proxyRcode?: string; upstreamOffline?: boolean; barrier?: number; upstreamErrors?: Array<string | 'TIMEOUT'> }) {
  let upstreamAttempts = 0;
  let clock = 1_000_000;
  let proxyAttempts = 0;
  let started = 0;
  let release: () => void = () => undefined;
  const allStarted = new Promise<void>((r) => (release = r));
  const arrive = async () => {
    started += 1;
    if (o.barrier && started >= o.barrier) release();
    if (o.barrier) await allStarted;
  };
  const deps = {
    now: () => clock,
    sleep: async (ms: number) => {
      clock += ms;
    },
    query: async ({ name, server, timeoutMs }: { name: string; server: string; timeoutMs?: number }) => {
      await arrive();
      if (server === '127.0.0.1:53' && name === CLUSTER) {
        proxyAttempts += 1;
        if (proxyAttempts <= (o.proxyTimeouts ?? 0)) {
          clock += o.proxyRcode ? 1000 : (timeoutMs ?? 2000);
          return answer(name, server, o.proxyRcode ?? 'TIMEOUT', []);
        }
        return answer(name, server, 'NOERROR', ['172.21.0.1']);
      }
      if ((server === '192.0.2.53' || server === 'fd00::53') && o.upstreamErrors) {
        // The socket's error for each try in turn (the last one repeats): at once (1 ms), or a TIMEOUT after the whole attempt.
        const e = o.upstreamErrors[Math.min(upstreamAttempts++, o.upstreamErrors.length - 1)]!;
        const ms = e === 'TIMEOUT' ? (timeoutMs ?? 2000) : 1;
        clock += ms;
        return { ...answer(name, server, e === 'TIMEOUT' ? 'TIMEOUT' : 'ERROR', []), latencyMs: ms, ...(e === 'TIMEOUT' ? {} : { error: e }) };
      }
      if (server === '192.0.2.53' && o.upstreamOffline) {
        clock += timeoutMs ?? 2000;
        return answer(name, server, 'TIMEOUT', []);
      }
      return answer(name, server, 'NOERROR', ['198.51.100.7']);
    },
    systemLookup: async (name: string) => {
      await arrive();
      return { ...answer(name, 'system', 'NOERROR', ['172.21.0.1']), transport: 'getaddrinfo' as const };
    },
  } as unknown as LifecycleDeps;
  return { deps, elapsed: () => clock - 1_000_000, attempts: () => proxyAttempts, upstreamAttempts: () => upstreamAttempts };
}

describe('verifyDns', () => {
  it('asks the proxy, getaddrinfo and the upstream at the same time (a sequential verify would wait here forever)', async () => {
    const f = fakeDeps({ barrier: 3 });
    const v = await verifyDns(f.deps, FIXTURE_DISCOVERY, ['192.0.2.53'], 'www.example.test');
    expect(v.summary).toBe(`${CLUSTER} → 172.21.0.1 through the proxy and getaddrinfo; www.example.test: answer as from 192.0.2.53`);
  });

  it('asks the proxy, getaddrinfo and the upstream while the host\'s other lookup paths are still read (paths as a promise); then asks those too', async () => {
    // The barrier lets each check answer once all three are asked; the list of paths comes only after that.
    const f = fakeDeps({ barrier: 3 });
    let asked = 0;
    let giveList: (l: import('./host-paths').HostPath[]) => void = () => undefined;
    const paths = new Promise<import('./host-paths').HostPath[]>((r) => (giveList = r));
    const verifying = verifyDns(f.deps, FIXTURE_DISCOVERY, ['192.0.2.53'], 'www.example.test', undefined, false, paths);
    // The three checks are under way before the list is there.
    for (let i = 0; i < 20; i++) await Promise.resolve();
    giveList([{ label: 'nss dns (getent -s dns hosts, as nsswitch.conf lists it)', ask: async (name) => (asked++, answer(name, 'nss:dns', 'NOERROR', ['172.21.0.1'])) }]);
    const v = await verifying;
    expect(asked).toBe(1);
    expect(v.summary).toBe(`${CLUSTER} → 172.21.0.1 through the proxy and getaddrinfo and 1 more path (nss:dns); www.example.test: answer as from 192.0.2.53`);
  });

  it('a rejected list of lookup paths fails verify with its error', async () => {
    const f = fakeDeps({});
    await expect(verifyDns(f.deps, FIXTURE_DISCOVERY, ['192.0.2.53'], 'www.example.test', undefined, false, Promise.reject(new Error('nsswitch.conf: EIO')))).rejects.toThrow('nsswitch.conf: EIO');
  });

  it('retries a proxy that does not answer yet, within the one deadline', async () => {
    const f = fakeDeps({ proxyTimeouts: 3 });
    const v = await verifyDns(f.deps, FIXTURE_DISCOVERY, ['192.0.2.53'], 'www.example.test');
    expect(f.attempts()).toBe(4);
    expect(v.detail.external).toBe('answer as from 192.0.2.53');
    expect(f.elapsed()).toBe(3 * 2000 + 3 * 50);
  });

  it("left28 #2: says what it asked and when — the cluster name and the external name, from before its first query to after its last answer (the query log marks those rows as start's checks)", async () => {
    const f = fakeDeps({ proxyTimeouts: 3 });
    const asked: unknown[] = [];
    await verifyDns(f.deps, FIXTURE_DISCOVERY, ['192.0.2.53'], 'www.example.test', undefined, false, [], 'cli', (c) => asked.push(c));
    // The proxy's three timeouts and pauses are inside the window.
    expect(asked).toEqual([{ names: [CLUSTER, 'www.example.test'], fromMs: 1_000_000, toMs: 1_000_000 + 3 * 2000 + 3 * 50 }]);
  });

  it("left28 #2: a failing verify says what it asked too (its rows are in the log all the same)", async () => {
    const f = fakeDeps({ proxyTimeouts: Infinity });
    const asked: { toMs: number }[] = [];
    await expect(verifyDns(f.deps, FIXTURE_DISCOVERY, ['192.0.2.53'], 'www.example.test', 5000, false, [], 'cli', (c) => asked.push(c))).rejects.toThrow('The proxy answered');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.toMs).toBe(1_000_000 + f.elapsed());
  });

  it('a proxy that answers SERVFAIL until the deadline: the message says it answered, still so at the deadline (not "no answer")', async () => {
    const f = fakeDeps({ proxyTimeouts: Infinity, proxyRcode: 'SERVFAIL' });
    await expect(verifyDns(f.deps, FIXTURE_DISCOVERY, ['192.0.2.53'], 'www.example.test', 5000)).rejects.toThrow(
      `The proxy answered ${CLUSTER} with SERVFAIL (no address), not 172.21.0.1 (still so when the verify deadline of 5000 ms ran out: asked again until then); is CoreDNS at 172.21.0.10 reachable from this host?`,
    );
  });

  it('gives up at the deadline and says that the deadline ran out', async () => {
    const f = fakeDeps({ proxyTimeouts: Infinity });
    await expect(verifyDns(f.deps, FIXTURE_DISCOVERY, ['192.0.2.53'], 'www.example.test', 5000)).rejects.toThrow(
      `The proxy answered ${CLUSTER} with TIMEOUT (no address), not 172.21.0.1 (no answer within the verify deadline of 5000 ms); is CoreDNS at 172.21.0.10 reachable from this host?`,
    );
    expect(f.elapsed()).toBeGreaterThanOrEqual(5000);
    expect(f.elapsed()).toBeLessThan(5000 + 2000);
  });

  it('skips the external check after one attempt when the upstream is offline', async () => {
    const f = fakeDeps({ upstreamOffline: true });
    const v = await verifyDns(f.deps, FIXTURE_DISCOVERY, ['192.0.2.53'], 'www.example.test');
    expect(v.detail.external).toBe('skipped (the upstream did not answer: offline host?)');
    expect(f.elapsed()).toBe(2000);
  });
});

describe('verifyDns with a dead first nameserver', () => {
  it('asks the next nameserver, as glibc does, instead of skipping the external check', async () => {
    const f = fakeDeps({ upstreamOffline: true });
    const v = await verifyDns(f.deps, FIXTURE_DISCOVERY, ['192.0.2.53', '198.51.100.53'], 'www.example.test');
    expect(v.warning).toBeNull();
    expect(v.detail.external).toBe('answer as from 198.51.100.53 (asked after 192.0.2.53 (TIMEOUT), as glibc does)');
  });
  it('warns naming every nameserver when none answers', async () => {
    const f = fakeDeps({ upstreamOffline: true });
    const v = await verifyDns(f.deps, FIXTURE_DISCOVERY, ['192.0.2.53', '192.0.2.53'], 'www.example.test');
    expect(v.detail.external).toBe('skipped (no upstream answered: offline host?)');
    expect(v.warning).toContain('Your nameservers 192.0.2.53, 192.0.2.53 did not answer www.example.test (TIMEOUT)');
    expect(f.elapsed()).toBe(4000); // one 2 s attempt each
  });
});

describe('verifyDns with an --upstream this host cannot send to (tidy29: `--upstream fe80::1%lo` was asked again for the whole 15 s)', () => {
  it('every try refused at once (connect ENETUNREACH, as a link-local upstream without its interface gets): stops after 3 tries with the reason', async () => {
    const f = fakeDeps({ upstreamErrors: ['connect ENETUNREACH 192.0.2.53:53'] });
    await expect(verifyDns(f.deps, FIXTURE_DISCOVERY, ['192.0.2.53'], 'www.example.test', 15_000, true)).rejects.toThrow(
      'The --upstream you named does not resolve www.example.test: 192.0.2.53 gave no answer: network unreachable (ENETUNREACH: this host has no route to it) (at once on each of 3 tries: this host cannot send to it, so it was not asked again until the verify deadline); every non-cluster name would fail through the proxy.',
    );
    expect(f.upstreamAttempts()).toBe(3);
    expect(f.elapsed()).toBe(3 * 1 + 2 * 50);
  });

  it('mend30: EADDRNOTAVAIL (no IPv6 address up) in words with its fix, and the server as [addr]:port, not Node\'s raw `fd00::53:53`', async () => {
    const f = fakeDeps({ upstreamErrors: ['connect EADDRNOTAVAIL [fd00::53]:53'] });
    await expect(verifyDns(f.deps, FIXTURE_DISCOVERY, ['fd00::53'], 'www.example.test', 15_000, true)).rejects.toThrow(
      'fd00::53 gave no answer: no address to send from (EADDRNOTAVAIL: this host has no address of that family up, e.g. no IPv6 address; use a nameserver it can reach or bring the interface up) (at once on each of 3 tries',
    );
  });

  it('EINVAL (a scope the host does not have) stops early too', async () => {
    const f = fakeDeps({ upstreamErrors: ['connect EINVAL 192.0.2.53:53'] });
    await expect(verifyDns(f.deps, FIXTURE_DISCOVERY, ['192.0.2.53'], 'www.example.test', 15_000, true)).rejects.toThrow('(at once on each of 3 tries: this host cannot send to it');
    expect(f.upstreamAttempts()).toBe(3);
  });

  it('a timeout among its answers, or a refusal by the server (ECONNREFUSED): asked again until the deadline, as before', async () => {
    const slow = fakeDeps({ upstreamErrors: ['TIMEOUT', 'connect ENETUNREACH 192.0.2.53:53'] });
    await expect(verifyDns(slow.deps, FIXTURE_DISCOVERY, ['192.0.2.53'], 'www.example.test', 15_000, true)).rejects.toThrow('(no answer within the verify deadline of 15000 ms)');
    expect(slow.elapsed()).toBeGreaterThanOrEqual(15_000 - 50);
    const refused = fakeDeps({ upstreamErrors: ['connect ECONNREFUSED 192.0.2.53:53'] });
    await expect(verifyDns(refused.deps, FIXTURE_DISCOVERY, ['192.0.2.53'], 'www.example.test', 15_000, true)).rejects.toThrow('(no answer within the verify deadline of 15000 ms)');
    expect(refused.elapsed()).toBeGreaterThanOrEqual(15_000 - 50);
  });
});

describe('verify says once, about 2 s in, which check it keeps asking (new user: a failed start\'s verify took ~15.9 s with no line)', () => {
  it('a proxy that never answers: one progress sentence at the first retry past WAITING_AFTER_MS, naming the check and the deadline', async () => {
    const f = fakeDeps({ proxyTimeouts: Infinity });
    const said: { text: string; at: number }[] = [];
    await expect(verifyDns(f.deps, FIXTURE_DISCOVERY, ['192.0.2.53'], 'www.example.test', 15_000, false, [], 'cli', undefined, (text) => said.push({ text, at: f.elapsed() }))).rejects.toThrow(/no answer within the verify deadline of 15000 ms/);
    expect(said.map((s) => s.text)).toEqual([`${CLUSTER} through the proxy not answered yet (TIMEOUT); asking again until the verify deadline, 15 s after it began …`]);
    expect(said[0]!.at).toBeGreaterThanOrEqual(WAITING_AFTER_MS);
    expect(said[0]!.at).toBeLessThan(WAITING_AFTER_MS + 2_000);
  });

  it('SERVFAIL so far is said as answered, not as no answer', async () => {
    const f = fakeDeps({ proxyTimeouts: Infinity, proxyRcode: 'SERVFAIL' });
    const said: string[] = [];
    await expect(verifyDns(f.deps, FIXTURE_DISCOVERY, ['192.0.2.53'], 'www.example.test', 5000, false, [], 'cli', undefined, (t) => said.push(t))).rejects.toThrow(/SERVFAIL/);
    expect(said).toEqual([`${CLUSTER} through the proxy answered SERVFAIL so far; asking again until the verify deadline, 5 s after it began …`]);
  });

  it('a check answered after a retry within 2 s says nothing', async () => {
    const f = fakeDeps({ proxyTimeouts: 1, proxyRcode: 'SERVFAIL' });
    const said: string[] = [];
    await verifyDns(f.deps, FIXTURE_DISCOVERY, ['192.0.2.53'], 'www.example.test', 15_000, false, [], 'cli', undefined, (t) => said.push(t));
    expect(said).toEqual([]);
  });
});

