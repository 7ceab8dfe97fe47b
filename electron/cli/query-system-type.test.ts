import { describe, expect, it } from 'vitest';
import { runMain as run } from './run-main.fixture';

describe('k2s-dns query --type T through the system resolver (new-user walk: SRV exited 1, "nothing answered")', () => {
  const said = (type: string) =>
    new RegExp(`^The system resolver \\(getaddrinfo\\) answers only A/AAAA, and PTR for an IP; ask ${type} through the K2s proxy, CoreDNS or an upstream: --server proxy, --server coredns or --server IP\\[:PORT\\]\\. Run (?:npx )?k2s-dns query --help for usage\\.\\n$`);

  it('a type getaddrinfo cannot ask is a usage error (exit 2, as `help query` says), naming the --server to use', async () => {
    for (const type of ['SRV', 'TXT', 'MX', 'NS', 'SOA', 'CNAME']) {
      const r = await run(['query', 'kubernetes.default.svc.cluster.local', '--type', type]);
      expect(r, type).toMatchObject({ code: 2, stdout: '' });
      expect(r.stderr, type).toMatch(said(type));
      // --server system given is the same mistake as the default.
      expect((await run(['query', 'web', '--type', type, '--server', 'system'])).code, type).toBe(2);
    }
  });

  it('--json: nothing on stdout (no half object), the usage error on stderr, exit 2', async () => {
    const r = await run(['query', '_http._tcp.web.default.svc.cluster.local', '--type', 'SRV', '--json']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(said('SRV'));
  });
});
