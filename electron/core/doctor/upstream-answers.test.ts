import { describe, expect, it } from 'vitest';
import { checkUpstreamsAnswer } from './nameservers';
import { useDoctorHosts } from '../../../e2e/support/doctor-test-host';
import type { QueryResult } from '../../../shared/types';
import { setCliName } from '../../../shared/fix';

const host = useDoctorHosts();

/** A query stub: servers in `silent` time out, others answer NXDOMAIN (alive). */
function answers(silent: string[], asked: string[]) {
  return async ({ name, server }: { name: string; server: string }): Promise<QueryResult> => {
    asked.push(server);
    const rcode = silent.includes(server) ? 'TIMEOUT' : 'NXDOMAIN';
    return { name, type: 'A', server, transport: 'udp', rcode, answers: [], latencyMs: 3 };
  };
}

describe('upstream-answers', () => {
  it('warn, never ok, when an upstream answers NXDOMAIN (the Topology marks it amber: shared/health.ts hopMark)', async () => {
    const h = await host('nameserver 192.0.2.53\nnameserver 127.0.0.1\n');
    const asked: string[] = [];
    h.deps.query = answers([], asked);
    const f = await checkUpstreamsAnswer(await h.ctx());
    expect(f).toMatchObject({ severity: 'warn', title: 'Original upstreams answer, but not NOERROR', detail: { upstreams: ['192.0.2.53'], silent: [], rcodes: { '192.0.2.53': 'NXDOMAIN' } } });
    expect(f.meaning).toBe('192.0.2.53 answered NXDOMAIN for kubernetes.io A: reachable, yet it may not resolve Internet names through K2s DNS (192.0.2.53: NXDOMAIN).');
    expect(asked).toEqual(['192.0.2.53']); // 127.0.0.1 is our own listener: never probed
    // Walk 7 M4: the check names the nameserver that answered so, the start none (no `@SERVER`, no `--upstream IP`).
    expect(f.fix).toBe('Check that the nameserver resolves Internet names (e.g. `npx k2s-dns query kubernetes.io --server 192.0.2.53`); if it only serves a local zone, start with `sudo npx k2s-dns start --upstream <IP>` (replace <IP> with the IP address of one that does).');
    expect(f.remedy?.gui).toBe('Check that the nameserver resolves Internet names (e.g. `npx k2s-dns query kubernetes.io --server 192.0.2.53` in a terminal); if it only serves a local zone, enter a nameserver that resolves Internet names under Start options → Upstreams, then Start (Stop first while K2s DNS runs).');
  });

  it('ok when every original upstream answers NOERROR', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    h.deps.query = async ({ name, server }) => ({ name, type: 'A', server, transport: 'udp', rcode: 'NOERROR', answers: [{ name, type: 'A', ttl: 60, data: '147.75.40.150' }], latencyMs: 3 });
    const f = await checkUpstreamsAnswer(await h.ctx());
    expect(f).toMatchObject({ severity: 'ok', meaning: 'Every original upstream answers (192.0.2.53: NOERROR).' });
  });

  it('warn when some, error when none of the saved upstreams answers while K2s runs', async () => {
    const h = await host('nameserver 192.0.2.53\nnameserver 192.0.2.54\n');
    await h.start();
    h.deps.query = answers(['192.0.2.54'], []);
    const some = await checkUpstreamsAnswer(await h.ctx());
    expect(some).toMatchObject({ severity: 'warn', title: '1 of 2 original upstreams do not answer', detail: { silent: ['192.0.2.54'] } });
    h.deps.query = answers(['192.0.2.53', '192.0.2.54'], []);
    const none = await checkUpstreamsAnswer(await h.ctx());
    expect(none).toMatchObject({ severity: 'error', title: 'No original upstream answers' });
    expect(none.meaning).toBe('192.0.2.53: no reply within 2 s; 192.0.2.54: no reply within 2 s; so every name outside the cluster fails through K2s DNS (cluster names still resolve).');
    // The running start follows the network (the default): the fix is the network's, not Upstreams.
    expect(none.remedy?.gui).toMatch(/^The network's nameserver does not answer: check the network connection or VPN/);
    expect(none.remedy?.gui).toContain('overrides it only with Network changes: keep');
    // New-user walk: the override names stop first (a start while K2s DNS runs is refused,
    // RUNNING_OTHER_OPTIONS), and its start carries the running start's options (this host's
    // start: --engine dnsmasq, --verify-name) as every other start fix does.
    expect(none.fix).toBe("The network's nameserver does not answer: check the network connection or VPN (e.g. `npx k2s-dns query kubernetes.io --server 192.0.2.53`). K2s DNS follows the network's resolver and switches when the network writes a working one; an override, which holds only while the network is not followed: `sudo npx k2s-dns stop`, then `sudo npx k2s-dns start --engine dnsmasq --verify-name www.example.test --on-network-change keep --upstream <IP>` (replace <IP> with the IP address of a nameserver that answers).");
  });

  it('in the sandbox: the start names its network\'s nameserver unless that is the one that does not answer (walk 7 M4)', async () => {
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true, '192.0.2.53');
    try {
      const h = await host('nameserver 10.99.0.1\n');
      h.deps.query = answers(['10.99.0.1'], []);
      const f = await checkUpstreamsAnswer(await h.ctx());
      expect(f.fix).toBe('Check the network link and the nameserver (e.g. `/tmp/k2sdns-app-Ab12/k2s-dns query kubernetes.io --server 10.99.0.1`); if the original resolver lists a server that is gone, fix it or start with `/tmp/k2sdns-app-Ab12/k2s-dns start --upstream 192.0.2.53` (the sandbox network\'s nameserver).');
      const own = await host('nameserver 192.0.2.53\n');
      own.deps.query = answers(['192.0.2.53'], []);
      expect((await checkUpstreamsAnswer(await own.ctx())).fix).toBe('Check the network link and the nameserver (e.g. `/tmp/k2sdns-app-Ab12/k2s-dns query kubernetes.io --server 192.0.2.53`); if the original resolver lists a server that is gone, fix it or start with `/tmp/k2sdns-app-Ab12/k2s-dns start --upstream <IP>` (replace <IP> with the IP address of a nameserver that answers).');
    } finally {
      setCliName('npx k2s-dns');
    }
  });

  it('an unreachable network says so (ENETUNREACH at once), never "no reply in 2 s"; stopped: the fix names the original resolver', async () => {
    const h = await host('nameserver 10.99.0.1\n');
    h.deps.query = async ({ name, server }) => ({ name, type: 'A', server, transport: 'udp', rcode: 'ERROR', answers: [], latencyMs: 0.3, error: `send ENETUNREACH ${server}:53` });
    const f = await checkUpstreamsAnswer(await h.ctx());
    expect(f).toMatchObject({ severity: 'error', detail: { following: false } });
    expect(f.meaning).toBe('10.99.0.1: network unreachable (ENETUNREACH: this host has no route to it); so every name outside the cluster fails through K2s DNS (cluster names still resolve).');
    expect(f.remedy?.gui).toContain('Start options → Upstreams');
  });

  it('no upstream to probe: says why and names the loop finding by its title, not its id', async () => {
    const h = await host('nameserver 127.0.0.1\n');
    const f = await checkUpstreamsAnswer(await h.ctx());
    expect(f).toMatchObject({ severity: 'info', title: 'No original upstream to probe' });
    expect(f.meaning).toBe('The original resolver lists only 127.0.0.1, where the K2s DNS proxy itself listens, so there is none to probe; see “Original nameservers point at the proxy (loop)”.');
    expect(f.meaning).not.toContain('nameserver-loop');
  });
});
