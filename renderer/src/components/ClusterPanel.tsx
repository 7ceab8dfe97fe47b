/** Cluster panel: API reachability, version, nodes, CoreDNS pods, kube-dns IP, kubeconfig. */
import { RichText } from './RichText';
import type { ClusterStatus } from '../../../shared/types';
import { CADENCE_MS } from '../../../shared/cadence';
import { lastKnownText } from '../lib/last-known';
import { usePoll } from '../lib/use-poll';
import { useCluster, useDns, useHealth } from '../stores';

/** Why the counts are not known while the card has no answer of the API to show (no last-known data). */
const NOT_KNOWN: Record<ClusterStatus['state'], string> = {
  ok: 'not known',
  unreachable: 'not known: the API server does not answer',
  unauthorized: 'not known: the API server refuses this kubeconfig',
  'no-kubeconfig': 'not known: no kubeconfig this user can read',
  error: 'not known: the API server did not answer as expected',
};

const STATE_LABEL: Record<ClusterStatus['state'], string> = {
  ok: 'Reachable',
  unreachable: 'Unreachable',
  unauthorized: 'Unauthorized',
  'no-kubeconfig': 'No kubeconfig',
  error: 'Error',
};

/**
 * The Cluster panel: follows the API while on screen (CADENCE_MS.cluster); nodes and pods say
 * "last known at" while it does not answer, or "not known" when this window never read them.
 */
export function ClusterPanel() {
  const status = useCluster((s) => s.status);
  const error = useCluster((s) => s.error);
  const lastReachable = useCluster((s) => s.lastReachable);
  const refresh = useCluster((s) => s.refresh);
  // Opened with an answer older than the cadence (another tab was on screen): ask at once. Every
  // tick asks, even while a request to an API that stopped answering waits for its timeout, so
  // "asks again every 3 s" holds and the card says Reachable one request after the API answers
  // again (stores/cluster.ts keeps the newest answer).
  const answeredAt = useCluster((s) => s.answeredAt);
  const loading = useCluster((s) => s.loading);
  const stale = !loading && (answeredAt === null || Date.now() - answeredAt > CADENCE_MS.cluster);
  usePoll(refresh, CADENCE_MS.cluster, { overlap: true, atStart: stale });
  // While the API does not answer (or the backend does not), the facts below are the last known ones.
  const down = error !== null || (status !== null && status.state !== 'ok');
  const facts = down && lastReachable ? lastReachable.status : status;
  const lastKnown = down && lastReachable ? lastKnownText(lastReachable.at) : null;
  // Never read since the window opened (opened while the API is down): nodes and pods are not
  // known — never "0/0" — and kube-dns is the address the running proxy forwards to (its saved state).
  const unknown = down && !lastReachable ? NOT_KNOWN[status?.state ?? 'unreachable'] : null;
  const proxyKubeDns = useDns((s) => (s.status && s.status.state !== 'stopped' ? s.status.kubeDnsIp : null));
  // Pods can report Ready while kube-dns does not answer: the path check has the last word.
  // One message per fact: the verdict line above says the whole of it (with its fix); here only which part.
  const corednsDown = useHealth((s) => (s.report && (s.report.verdict.cause === 'coredns-down' || s.report.verdict.cause === 'coredns-answer') ? 'CoreDNS does not answer the probe although its pods may be Ready: see the verdict above.' : null));
  return (
    <section className="panel" data-testid="panel-cluster">
      <h2>Cluster</h2>
      {error && <p className="error-text" role="alert"><RichText text={error} /></p>}
      {!status && !error && <p className="muted">Loading cluster status…</p>}
      {corednsDown && <p className="error-text" role="alert" data-testid="cluster-coredns-down">{corednsDown}</p>}
      {status && facts && (
        <>
          <p>
            <span className={`badge ${status.state === 'ok' ? 'ok' : 'bad'}`} data-testid="cluster-state">
              {status.startKubeconfig ? 'Root-only kubeconfig' : STATE_LABEL[status.state]}
            </span>{' '}
            <span data-testid="cluster-message"><RichText text={status.message} /></span>
          </p>
          {lastKnown && (
            <p className="warn-text" data-testid="cluster-last-known">
              The facts below are {lastKnown}, when the API last answered; this card asks again every {CADENCE_MS.cluster / 1000} s.
            </p>
          )}
          <dl className="facts">
            <dt>API server</dt>
            <dd>{facts.apiServer ?? '—'}</dd>
            <dt>Version</dt>
            <dd data-testid="cluster-version">{facts.version ?? '—'}</dd>
            <dt>kube-dns ClusterIP</dt>
            <dd data-testid="cluster-kubedns">{facts.kubeDnsIp ?? (unknown && proxyKubeDns ? `${proxyKubeDns} (the address the running proxy forwards to; the API does not answer)` : unknown ?? '—')}</dd>
            <dt>Kubeconfig</dt>
            <dd className="mono">{facts.kubeconfigPath ?? '—'}</dd>
            <dt>Context</dt>
            <dd>{facts.context ?? '—'}</dd>
          </dl>
          <h3 data-testid="cluster-nodes-heading">Nodes ({unknown ?? `${facts.nodes.filter((n) => n.ready).length}/${facts.nodes.length} Ready`}){lastKnown ? ` — ${lastKnown}` : ''}</h3>
          {!unknown && <table className="table" data-testid="cluster-nodes">
            <thead>
              <tr><th>Node</th><th>Ready</th><th>Kubelet</th></tr>
            </thead>
            <tbody>
              {facts.nodes.map((n) => (
                <tr key={n.name}>
                  <td>{n.name}</td>
                  <td><span className={`badge ${n.ready ? 'ok' : 'bad'}`}>{n.ready ? 'Ready' : 'NotReady'}</span></td>
                  <td>{n.kubeletVersion}</td>
                </tr>
              ))}
            </tbody>
          </table>}
          <h3 data-testid="cluster-coredns-heading">CoreDNS pods ({unknown ?? `${facts.coreDnsPods.filter((p) => p.ready).length}/${facts.coreDnsPods.length} ready`}){lastKnown ? ` — ${lastKnown}` : ''}</h3>
          {!unknown && <table className="table" data-testid="cluster-coredns">
            <thead>
              <tr><th>Pod</th><th>Ready</th><th>Restarts</th><th>Node</th></tr>
            </thead>
            <tbody>
              {facts.coreDnsPods.map((p) => (
                <tr key={p.name}>
                  <td className="mono">{p.name}</td>
                  <td><span className={`badge ${p.ready ? 'ok' : 'bad'}`}>{p.ready ? 'Ready' : 'Not ready'}</span></td>
                  <td className={p.restarts > 0 ? 'warn-text' : ''}>{p.restarts}</td>
                  <td>{p.node ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>}
        </>
      )}
    </section>
  );
}
