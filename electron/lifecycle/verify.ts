import type { LifecycleDeps } from './deps';
import type { ClusterDiscovery, QueryResult } from '../../shared/types';
import { failed } from './errors';

/** Answer class of a result: `answer`, `nodata`, `nxdomain`, or the rcode (RFC 2308 terms). */
export function answerClass(r: QueryResult): string {
  if (r.rcode === 'NOERROR') return r.answers.length > 0 ? 'answer' : 'nodata';
  return r.rcode === 'NXDOMAIN' ? 'nxdomain' : r.rcode;
}

/**
 * Verify step (issue #2): the proxy and the system resolver both resolve
 * `kubernetes.default.svc.<domain>` to the kubernetes Service ClusterIP; an external name gets
 * the same answer class through the proxy as from the first upstream directly. An upstream
 * that does not answer (offline host) skips the external check. Throws VERIFY_* failures.
 */
export async function verifyDns(deps: LifecycleDeps, d: ClusterDiscovery, upstreams: string[], externalName: string) {
  const name = `kubernetes.default.svc.${d.clusterDomain}`;
  const want = d.kubernetesServiceIp;
  const proxy = await deps.query({ name, type: 'A', server: '127.0.0.1:53', timeoutMs: 2000 });
  if (!proxy.answers.some((a) => a.data === want)) {
    throw failed('VERIFY_PROXY', `The proxy answered ${name} with ${proxy.rcode} ${proxy.answers.map((a) => a.data).join(', ') || '(no address)'}, not ${want}; is CoreDNS at ${d.kubeDnsIp} reachable from this host?`);
  }
  const system = await deps.systemLookup(name);
  if (!system.answers.some((a) => a.data === want)) {
    throw failed('VERIFY_SYSTEM', `The system resolver (getaddrinfo) answered ${name} with ${system.rcode} ${system.answers.map((a) => a.data).join(', ') || '(no address)'}, not ${want}; check the hosts line of /etc/nsswitch.conf.`);
  }
  const upstream = upstreams[0]!;
  const direct = await deps.query({ name: externalName, type: 'A', server: upstream, timeoutMs: 2000 });
  let external = 'skipped (the upstream did not answer: offline host?)';
  if (direct.rcode !== 'TIMEOUT' && direct.rcode !== 'ERROR') {
    const via = await deps.query({ name: externalName, type: 'A', server: '127.0.0.1:53', timeoutMs: 3000 });
    if (answerClass(via) !== answerClass(direct)) {
      throw failed('VERIFY_EXTERNAL', `${externalName} gives ${answerClass(direct)} from ${upstream} but ${answerClass(via)} through the proxy; check the upstream rules in the proxy config.`);
    }
    external = `${answerClass(via)} as from ${upstream}`;
  }
  return {
    summary: `${name} → ${want} through the proxy and getaddrinfo; ${externalName}: ${external}`,
    detail: { proxyMs: proxy.latencyMs, systemMs: system.latencyMs, external },
  };
}
