/** Host DNS panel: state, engine, listeners (and skipped ones), resolver owner, upstreams, controls. */
import { useDns } from '../stores';
import { LifecycleControls } from './LifecycleControls';
import { TimelineView } from './TimelineView';

/** The Host DNS panel. */
export function HostDnsPanel() {
  const status = useDns((s) => s.status);
  const error = useDns((s) => s.error);
  return (
    <section className="panel" data-testid="panel-hostdns">
      <h2>Host DNS</h2>
      {error && <p className="error-text" role="alert" data-testid="dns-error">{error}</p>}
      {status && (
        <>
          <p>
            <span className={`badge ${status.state === 'running' ? 'ok' : status.state === 'degraded' ? 'warn' : 'neutral'}`} data-testid="dns-state">
              {status.state}
            </span>{' '}
            {status.engine && <span data-testid="dns-engine">{status.engine} {status.engineVersion ?? ''}</span>}
          </p>
          <dl className="facts">
            <dt>Resolver owner</dt>
            <dd data-testid="dns-owner">{status.resolverOwner}</dd>
            <dt>Listeners</dt>
            <dd data-testid="dns-listeners">{status.listeners.length ? status.listeners.map((l) => `${l.address}:${l.port}`).join(', ') : 'none'}</dd>
            {status.skippedListeners.length > 0 && (
              <>
                <dt>Skipped</dt>
                <dd data-testid="dns-skipped">
                  {status.skippedListeners.map((s) => (
                    <div key={s.address}>
                      <span className="mono">{s.address}</span> — {s.reason}
                    </div>
                  ))}
                </dd>
              </>
            )}
            <dt>Upstreams</dt>
            <dd data-testid="dns-upstreams">{status.upstreams.join(', ') || '—'}</dd>
            <dt>Cluster domain</dt>
            <dd>{status.clusterDomain ?? '—'}</dd>
            <dt>Saved original</dt>
            <dd data-testid="dns-saved">{status.savedAt ? `${new Date(status.savedAt).toLocaleString()} by ${status.savedBy ?? '?'}` : 'nothing saved'}</dd>
          </dl>
          {status.messages.map((m) => (
            <p key={m} className="note">{m}</p>
          ))}
        </>
      )}
      <LifecycleControls />
      <TimelineView />
    </section>
  );
}
