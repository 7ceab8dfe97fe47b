/**
 * Host DNS panel: state, engine, listeners (and skipped ones), resolver owner, upstreams, controls.
 * For a user who cannot read root's saved state, listeners and upstreams as the running proxy's
 * config names them (HostDnsStatus.configFacts), marked so.
 */
import { displayState } from '../lib/display-state';
import { timeText, windowTimes } from '../lib/last-known';
import { useDns } from '../stores';
import { LifecycleControls } from './LifecycleControls';
import { RichText } from './RichText';
import { TimelineView } from './TimelineView';
import { describeNetworkChange, networkChangeOutcomeWords, writerPhrase } from '../../../shared/network-writer';
import { engineInfo, isEngineName } from '../../../shared/engines/table';
import { followedCopy, savedOriginalWords } from '../../../shared/saved-copy';
import { missingResolverWords } from '../../../shared/resolver-missing';

/**
 * Who owns /etc/resolv.conf, in words: `original` means "not K2s's", which after Keep their file
 * is the other program's file, not the one saved at start (new-user pass) — so not "original".
 */
const OWNER_LABEL: Record<'original' | 'k2s' | 'foreign', string> = {
  original: 'this host (not K2s DNS)',
  k2s: 'K2s DNS (nameserver 127.0.0.1)',
  foreign: 'another program, since K2s DNS started',
};

/** The mark of a row read from the running proxy's config (HostDnsStatus.configFacts), not from root's saved state. */
function fromConfig(file: string) {
  return <span className="muted" data-testid="dns-from-config"> — read from the proxy's config {file} (the saved state is root-only)</span>;
}

/** The Host DNS panel. */
export function HostDnsPanel() {
  const status = useDns((s) => s.status);
  const error = useDns((s) => s.error);
  const busy = useDns((s) => s.busy);
  const lost = useDns((s) => s.lost);
  const networkChanges = useDns((s) => s.networkChanges);
  return (
    <section className="panel" data-testid="panel-hostdns">
      <h2>Host DNS</h2>
      {error && <p className="error-text" role="alert" data-testid="dns-error"><RichText text={error} /></p>}
      {status && (
        <>
          <p>
            {/* The backend gone (the app or the sandbox stopped): the last state read is not the host's now (issue 20 low: it kept saying "starting"). */}
            {lost ? (
              <>
                <span className="badge bad" data-testid="dns-state" data-lost="true">disconnected</span>{' '}
                <span className="muted" data-testid="dns-last-known">the app backend does not answer; last known: {displayState(status.state, busy)}</span>{' '}
              </>
            ) : (
              <>
                <span className={`badge ${status.state === 'running' && !busy ? 'ok' : status.state === 'degraded' ? 'warn' : 'neutral'}`} data-testid="dns-state">
                  {displayState(status.state, busy)}
                </span>{' '}
              </>
            )}
            {status.engine && <span data-testid="dns-engine" data-engine={status.engine}>{isEngineName(status.engine) ? engineInfo(status.engine).label : status.engine} {status.engineVersion ?? ''}</span>}
            {/* The proxy's PID, whoever started it (the window, the CLI): the one `kill`, ps and the timeline name (third walk). */}
            {status.pid !== null && <span className="muted" data-testid="dns-pid"> · k2s-dnsproxy PID {status.pid}</span>}
          </p>
          <dl className="facts">
            <dt>Resolver owner</dt>
            <dd data-testid="dns-owner" data-owner={status.resolverOwner}>
              {/* Deleted (or a dangling link): nobody's file is there (walk 7 L5: "another program" after an rm). */}
              {/* No file while stopped: said as missing, not "this host" (walk 10 M5). */}
              {status.resolverOwner === 'foreign' && status.driftGone ? `none: /etc/resolv.conf was ${status.driftGone} since K2s DNS started` : status.resolverOwner === 'original' && status.resolverMissing ? `none: /etc/resolv.conf ${missingResolverWords(status.resolverMissing)}` : OWNER_LABEL[status.resolverOwner]}
              {/* K2s DNS's own file made writable in place (sixth walk L1): the note below has the fix. */}
              {status.liveResolverWritable && <span className="warn-text" data-testid="dns-owner-writable"> — the file is now {status.liveResolverWritable}: a user can redirect host DNS (see the note below)</span>}
            </dd>
            {/* Stopped, nothing listens and nothing is forwarded: known without the state file. */}
            <dt>Listeners</dt>
            <dd data-testid="dns-listeners">
              {status.listeners.length
                ? status.listeners.map((l, i) => {
                    // The kernel's socket table (backend: /proc/<pid>/net/udp{,6}) says whether anything is bound there.
                    const bound = status.listenerSockets?.find((s) => s.address === l.address && s.port === l.port)?.bound ?? null;
                    return (
                      <span key={`${l.address}:${l.port}`} data-testid="dns-listener" data-bound={String(bound)} className={bound === false ? 'error-text' : undefined}>
                        {i > 0 ? ', ' : ''}
                        {l.address}:{l.port}
                        {bound === false ? ' — not bound: nothing listens there (kernel socket table)' : ''}
                      </span>
                    );
                  })
                : status.configFacts && status.configFacts.listeners.length > 0
                  ? <>{status.configFacts.listeners.map((l) => `${l.address}:${l.port}`).join(', ')}{fromConfig(status.configFacts.file)}</>
                  : status.stateUnreadable && status.state !== 'stopped'
                    ? 'not known to this app (the saved state is root-only)'
                    : 'none'}
            </dd>
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
            <dd data-testid="dns-upstreams">{status.upstreams.join(', ') || (status.configFacts && status.configFacts.upstreams.length > 0 ? <>{status.configFacts.upstreams.join(', ')}{fromConfig(status.configFacts.file)}</> : null) || (status.stateUnreadable && status.state !== 'stopped' ? 'not known to this app (the saved state is root-only)' : '—')}</dd>
            <dt>Cluster domain</dt>
            {/* Read from the saved state: while stopped there is none in use; a user who cannot read root's state is told so, not shown "—" (new-user walk). */}
            <dd data-testid="dns-cluster-domain">{status.clusterDomain ?? (status.state === 'stopped' ? 'none in use: Start reads it from the cluster' : status.stateUnreadable ? 'not known to this app (the saved state is root-only)' : '—')}</dd>
            <dt>Saved original</dt>
            <dd data-testid="dns-saved">
              {status.savedAt
                ? savedOriginalWords(status.savedAt, status.savedBy, followedCopy([status.networkChange, status.followedChange, ...(networkChanges ?? [])], status.savedAt), timeText)
                : status.stateUnreadable
                  ? `cannot be read: ${status.stateUnreadable}`
                  : 'nothing saved'}
              {/* Kept while it holds, not only in the start's one-time warning (sixth walk M3). */}
              {status.savedOriginalWritable && <span className="warn-text" data-testid="dns-saved-writable"> — {status.savedOriginalWritable}: stop puts it back so (see the note below)</span>}
            </dd>
            {status.onNetworkChange && (
              <>
                <dt>Network changes</dt>
                <dd data-testid="dns-network-policy" data-policy={status.onNetworkChange} data-follower={status.follower ? (status.follower.running ? 'running' : 'down') : undefined} className={status.follower?.running === false ? 'error-text' : undefined}>
                  {/* The follower died (kill -9, OOM): "follow" is not in effect; status's note below says how to fix it (walk5 M3). */}
                  {/* Where the policy was chosen (window or CLI) is recorded nowhere: not said (walk 24: "chosen in Start options" after a CLI start). */}
                  {status.onNetworkChange === 'follow' && status.follower?.running === false ? 'follow, but the network follower is not running: a new resolver file from the network is not followed and shows as drift (Start restarts it)' : status.onNetworkChange === 'follow' ? 'follow: when the network writes a new resolver file, its nameservers become the upstreams and it becomes the saved original' : 'keep: when the network writes a new resolver file, it stays as drift and you choose in the banner'}
                </dd>
              </>
            )}
            {status.networkChange && (
              <>
                <dt>Last network change</dt>
                <dd data-testid="dns-network-change" data-outcome={status.networkChange.outcome} data-ended={status.networkChange.ended ? 'true' : undefined}>
                  {/* An unknown writer in the one phrase every view uses (writerPhrase), never its first comment as a name. */}
                  {timeText(Date.parse(status.networkChange.at))}: {status.networkChange.writer === 'an unknown program' ? writerPhrase(status.networkChange) : status.networkChange.writer}
                  {status.networkChange.writer !== 'an unknown program' && status.networkChange.evidence ? <span className="mono"> ({status.networkChange.evidence})</span> : null} — {status.networkChange.how};{' '}
                  {networkChangeOutcomeWords(status.networkChange, (iso) => timeText(Date.parse(iso)))}
                </dd>
              </>
            )}
          </dl>
          {/* One message per fact: the verdict line above the cards already says the health verdict (applyHealth's first message); the network change has its row. */}
          {status.messages.filter((m) => !(status.health && m.startsWith(status.health.verdict.summary)) && !(status.networkChange && m === describeNetworkChange(status.networkChange))).map((m) => (
            <p key={m} className="note"><RichText text={windowTimes(m)} /></p>
          ))}
        </>
      )}
      <LifecycleControls />
      <TimelineView />
    </section>
  );
}
