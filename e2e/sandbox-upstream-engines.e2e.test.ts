/**
 * What `npm run sandbox:ctl -- upstream down` says an uncached name outside the cluster gets,
 * checked against each engine K2s DNS runs (the sandbox's README use: a new user tried it with
 * dnsmasq and got a TIMEOUT where the message said SERVFAIL). K2s DNS started on the real bed,
 * the control's own runControl stops the upstream, and the app's own query (the one `k2s-dns
 * query --server proxy` sends, 2 s) asks the proxy a name it never cached.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryDns } from '../electron/core/probes/dns-query';
import { engineArgs, engineMissing, PROXY_ENGINES } from './bed/engines';
import type { Testbed } from './bed/testbed';
import { k2sDns } from './cli';
import { runControl, UPSTREAM_DOWN_UNCACHED } from './sandbox-control';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: sandbox-upstream-engines e2e runs only inside e2e/bed/sandbox.sh (as root)');
const dnsproxyMissing = inSandbox ? await engineMissing('dnsproxy') : null;
if (dnsproxyMissing) console.warn(`skipped for adguard: ${dnsproxyMissing}`);

/** What the message says each engine gives, as the query reports it. */
const SAID = { adguard: 'SERVFAIL', dnsmasq: 'TIMEOUT' } as const;

describe.skipIf(!inSandbox)('sandbox:ctl -- upstream down: what an uncached name gets, per engine', () => {
  let tb: Testbed;
  beforeAll(async () => {
    const { startTestbed } = await import('./bed/testbed');
    tb = await startTestbed();
  }, 120_000);
  afterAll(async () => {
    await k2sDns(['stop', '--on-drift', 'restore']);
    await tb?.stop();
  }, 60_000);

  it('the message names both engines\' answers', () => {
    expect(UPSTREAM_DOWN_UNCACHED).toContain(`${SAID.adguard} with AdGuard dnsproxy`);
    expect(UPSTREAM_DOWN_UNCACHED).toContain(`no answer with dnsmasq (the query times out: k2s-dns query says ${SAID.dnsmasq} after 2 s)`);
  });

  for (const engine of PROXY_ENGINES) {
    it.skipIf(engine === 'adguard' && dnsproxyMissing !== null)(`${engine}: ${SAID[engine]}, as the message says`, async () => {
      const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs(engine), '--verify-name', 'www.example.test', '--json']);
      expect(start.code, start.stderr).toBe(0);
      try {
        const down = await runControl(tb, 'upstream down');
        expect(down).toBe(`ok: the upstream (dnsmasq, the sandbox network's nameserver ${tb.addresses.upstream}:53) stopped: ${UPSTREAM_DOWN_UNCACHED}; cached ones (www.example.test once asked through this run of the proxy: a fresh start begins with an empty cache) still answer from its cache while it lasts; cluster names still resolve`);
        // A name never asked before (not in the proxy's cache), and a cluster name that still resolves.
        const r = await queryDns({ name: `never-asked-${engine}.example.test`, type: 'A', server: '127.0.0.1:53' });
        expect(r.rcode).toBe(SAID[engine]);
        expect((await queryDns({ name: 'kubernetes.default.svc.cluster.local', type: 'A', server: '127.0.0.1:53' })).rcode).toBe('NOERROR');
      } finally {
        await runControl(tb, 'upstream up');
        const stop = await k2sDns(['stop', '--on-drift', 'restore', '--json']);
        expect(stop.code, stop.stdout).toBe(0);
      }
    }, 120_000);
  }
});
