/**
 * New-user walk 24 #5: `doctor` after K2s's own `k2s stop` the network follower did not finish —
 * the saved original back, k2s-dnsproxy stopped — said k2s-dnsproxy "is not running, and nothing
 * restarts it" with start as the fix, while status says the original is back and to run stop
 * (HostDnsStatus.originalBack, status-original-back.test.ts). Doctor's K2s DNS state now follows
 * status's rule. K2s's restore is simulated as there: the saved bytes written back.
 */
import { describe, expect, it } from 'vitest';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useDoctorHosts } from '../../../e2e/support/doctor-test-host';
import { checkLifecycleState } from './lifecycle-state';

const host = useDoctorHosts();
const ORIGINAL = 'nameserver 192.0.2.53\nsearch corp.example\n';
const FINISHES = "it keeps your file's bytes, ends K2s DNS's companions and forgets the saved state";

describe("doctor after K2s's own `k2s stop` the follower did not finish", () => {
  it('K2s DNS state says the original is back and the proxy stopped as `k2s stop` leaves them; its fix is stop, never start', async () => {
    const h = await host(ORIGINAL);
    await h.start();
    // K2s's restoreResolverState: remove, then write the saved bytes; then it stops the proxy.
    const state = JSON.parse(await readFile(join(h.root, 'var/lib/k2s/dns-resolver-state.json'), 'utf8'));
    await rm(join(h.root, 'etc/resolv.conf'));
    await writeFile(join(h.root, 'etc/resolv.conf'), Buffer.from(state.content, 'base64'), { mode: 0o644 });
    h.services.running = false;
    h.world.systemAnswer = null;
    const f = await checkLifecycleState(await h.ctx());
    expect(f).toEqual({
      id: 'lifecycle-state',
      severity: 'warn',
      title: 'K2s DNS state: its stop has not run',
      meaning: "Your original resolver is back at /etc/resolv.conf and k2s-dnsproxy is stopped, as K2s's own `k2s stop` leaves them, but K2s DNS's saved state and companions are left: K2s DNS's own stop has not run yet.",
      fix: `Run \`sudo npx k2s-dns stop\` (${FINISHES}).`,
      remedy: { action: 'stop', gui: `Press Stop (${FINISHES}).`, cli: 'sudo npx k2s-dns stop' },
      detail: { state: 'degraded', resolverOwner: 'original', pid: null, messages: [], originalBack: true },
    });
  });
});
