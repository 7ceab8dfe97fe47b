/** Cluster panel: API reachability, version, nodes, CoreDNS pods, kube-dns IP, kubeconfig. */
import type { ClusterStatus } from '../../../shared/types';
import { useCluster, useHealth } from '../stores';

const STATE_LABEL: Record<ClusterStatus['state'], string> = {
  ok: 'Reachable',
  unreachable: 'Unreachable',
  unauthorized: 'Unauthorized',
  'no-kubeconfig': 'No kubeconfig',
  error: 'Error',
};

/** The Cluster panel. */
export function ClusterPanel() {
  const status = useCluster((s) => s.status);
  const error = useCluster((s) => s.error);
  // Pods can report Ready while kube-dns does not answer: the path check has the last word.
  const corednsDown = useHealth((s) => (s.report && (s.report.verdict.cause === 'coredns-down' || s.report.verdict.cause === 'coredns-answer') ? s.report.verdict.summary : null));
  return (
    <section className="panel" data-testid="panel-cluster">
      <h2>Cluster</h2>
      {error && <p className="error-text" role="alert">{error}</p>}
      {!status && !error && <p className="muted">Loading cluster status…</p>}
      {corednsDown && <p className="error-text" role="alert" data-testid="cluster-coredns-down">{corednsDown}</p>}
      {status && (
        <>
          <p>
            <span className={`badge ${status.state === 'ok' ? 'ok' : 'bad'}`} data-testid="cluster-state">
              {STATE_LABEL[status.state]}
            </span>{' '}
            <span data-testid="cluster-message">{status.message}</span>
          </p>
          <dl className="facts">
            <dt>API server</dt>
            <dd>{status.apiServer ?? '—'}</dd>
            <dt>Version</dt>
            <dd data-testid="cluster-version">{status.version ?? '—'}</dd>
            <dt>kube-dns ClusterIP</dt>
            <dd data-testid="cluster-kubedns">{status.kubeDnsIp ?? '—'}</dd>
            <dt>Kubeconfig</dt>
            <dd className="mono">{status.kubeconfigPath ?? '—'}</dd>
            <dt>Context</dt>
            <dd>{status.context ?? '—'}</dd>
          </dl>
          <h3>Nodes ({status.nodes.filter((n) => n.ready).length}/{status.nodes.length} Ready)</h3>
          <table className="table" data-testid="cluster-nodes">
            <thead>
              <tr><th>Node</th><th>Ready</th><th>Kubelet</th></tr>
            </thead>
            <tbody>
              {status.nodes.map((n) => (
                <tr key={n.name}>
                  <td>{n.name}</td>
                  <td><span className={`badge ${n.ready ? 'ok' : 'bad'}`}>{n.ready ? 'Ready' : 'NotReady'}</span></td>
                  <td>{n.kubeletVersion}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3>CoreDNS pods ({status.coreDnsPods.filter((p) => p.ready).length}/{status.coreDnsPods.length} ready)</h3>
          <table className="table" data-testid="cluster-coredns">
            <thead>
              <tr><th>Pod</th><th>Ready</th><th>Restarts</th><th>Node</th></tr>
            </thead>
            <tbody>
              {status.coreDnsPods.map((p) => (
                <tr key={p.name}>
                  <td className="mono">{p.name}</td>
                  <td><span className={`badge ${p.ready ? 'ok' : 'bad'}`}>{p.ready ? 'Ready' : 'Not ready'}</span></td>
                  <td className={p.restarts > 0 ? 'warn-text' : ''}>{p.restarts}</td>
                  <td>{p.node ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
