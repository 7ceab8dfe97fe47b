/** Waits until a DNS server answers a name (the bench's readiness check for an engine it started). */
import { queryDns } from '../../electron/core/probes/dns-query';

/** Resolves once `server` answers `name` A (any rcode); throws after `timeoutMs`. */
export async function waitForDns(server: string, name: string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await queryDns({ name, type: 'A', server, timeoutMs: 500 });
    if (r.rcode !== 'TIMEOUT' && r.rcode !== 'ERROR') return;
    if (Date.now() > end) throw new Error(`${server} did not answer ${name} within ${timeoutMs} ms: ${r.error ?? r.rcode}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}
