import { createHash } from 'node:crypto';
import { managedFileId } from './managed-file-id';
import type { LifecycleDeps } from './deps';
import { askedStartLine, startedWithOf, startLineOf, type StartOptions } from './options';
import type { ResultEvent, ResultWarning } from '../../../shared/lifecycle-events';
import type { ClusterDiscovery, EngineName, ProxyPlan } from '../../../shared/types';
import type { ResolverStateFile } from '../../../shared/state-file';
import { EXIT, START_STEPS } from '../../../shared/lifecycle-events';
import { engineRuntime } from '../engines/table';
import { ENGINE_NAMES } from '../../../shared/engines/table';
import { K2S_DEFAULTS, K2S_PATHS } from '../../../shared/k2s-paths';
import { MANAGED_RESOLV_CONF_MODE } from '../../../shared/writable-resolver';
import { renderManagedResolvConf } from '../../../shared/resolv-conf';
import { routingDomains, routingDomainsRefusal, type ResolvedRoute } from '../../../shared/resolved-link';
import { renderRouteFile, ROUTE_UNIT_NAME } from '../../../shared/resolved-route-unit';
import { clientOptions, upstreamPolicy } from '../../../shared/upstream-policy';
import { readResolverText, readState, restoreResolver, writeState, removeState } from '../host/resolver-state';
import { removeStartCopy } from '../host/start-copy';
import { ensureRootDirs, NotRootOwnedError } from '../host/root-dirs';
import { ROOT_WRITTEN_DIRS } from '../../../shared/root-dir-check';
import { clusterIpRefusal, preflight, resolverWritableWarning, type Preflight } from './preflight';
import { LifecycleError, failed, refused, messageOf } from './errors';
import { StepReporter, type EventSink } from './reporter';
import { journaledReporter } from './teardown';
import { clearJournal, clearRecovery } from './journal';
import { recoverInterrupted } from './recover';
import { writeProxyConfig, proxyArgv, lateListenersFor, selfDropFor, configPathFor } from './proxy-config';
import type { ServiceSpec } from '../host/service-manager';
import type { SelfDrop } from '../engines/runtime';
import { waitForListeners } from './service-ready';
import { captureArgvFor } from './capture-argv';
import { captureStopFacts } from './capture-restart';
import { captureWaitWords } from '../../../shared/capture-unit-state';
import { unusedAllows } from '../../../shared/allow-zones';
import type { HeldCompanion } from '../host/capture-companion';
import type { HeldProcess } from '../host/pidfile-process';
import { verifyDns } from './verify';
import { markStartRolledBack, writeStartChecks, type StartWindow } from '../capture/start-checks';
import { kubeDnsLoop, sameServerKey } from '../host/upstreams';
import { cidrRefusal } from '../../../shared/cidr-policy';
import { applyRoute, restartResolved, revertRoute } from './resolved';
import { acquireLock, LOCK_PATH } from './lock';
import { lockAfterFollowerLook } from './companions';
import { isNoRoomError, noRoomMessage } from '../host/mounts';
import { DEFAULT_VERIFY_NAME, kubeSwitchOfListeners } from '../../../shared/running-start';
import { cliCommand } from '../../../shared/fix';
import { proxyRestarting, restartingRefusal } from './proxy-restarting';

/** Default deadline for the proxy to answer on every listener, ms: sized for a busy host. */
export const READY_TIMEOUT_MS = 20_000;

/** One host change done so far, with how to take it back. */
interface Undo {
  what: string;
  run: () => Promise<void>;
}

/**
 * Starts K2s DNS: preflight → save → discover → config → service → activate → verify → ready.
 * Any failure after save undoes every change in reverse order (rollback) and
 * returns exit 1; a failed precondition returns exit 3 with nothing changed. Never throws.
 */
export async function startDns(deps: LifecycleDeps, opts: StartOptions, sink: EventSink): Promise<ResultEvent> {
  const r = journaledReporter(deps, 'start', sink);
  const undo: Undo[] = [];
  const warnings: ResultWarning[] = [];
  let release: (() => Promise<void>) | null = null;
  let recovered: string | null = null;
  // The capture companion's process, begun held under the lock (below), let go after save.
  let held: Promise<HeldCompanion | null> | null = null;
  // The network follower's process, spawned held while the service step waits for the proxy, let go alongside verify.
  let heldFollower = null as Promise<HeldProcess | null> | null;
  // The manager's reload of the changed links, asked for alongside verify (below). Never rejects.
  let settling: Promise<void> | null = null;
  // The record of what verify asked (capture/start-checks.ts) and its write, once verify has asked.
  let checksWritten: Promise<void> | undefined;
  let checksAsked: StartWindow | undefined;
  // True once the start is past its last failure point (nothing is rolled back from then on).
  let committed = false;
  try {
    if (deps.uid() === 0) {
      // Before root writes anything: every directory it writes into is root's alone (a 0777
      // /etc/k2s let another user swap the config the watchdog restarted from).
      await ensureRootDirs(deps.fs).catch((err: unknown) => {
        throw err instanceof NotRootOwnedError ? refused('NOT_ROOT_OWNED', `${err.message}`) : err;
      });
      // One operation at a time, and never on top of a half-done one.
      release = (
        await lockAfterFollowerLook(deps, () => acquireLock(deps.fs)).catch(async (err: unknown) => {
          if (!isNoRoomError(err)) throw err;
          throw refused('NO_SPACE', `${noRoomMessage(LOCK_PATH, deps.fs.real(LOCK_PATH), (err as NodeJS.ErrnoException).code, await deps.mountinfo().catch(() => ''), 'start again')} Nothing was changed.`);
        })
      ).release;
      recovered = await recoverInterrupted(deps, sink);
      // The exact query log's companion, when it will start right after save: its process
      // begins now, held before it does anything (host/capture-companion.ts prepare), so its
      // Node start-up — most of what the service step waited for — runs alongside preflight,
      // save and discover. A refusal, or a start with nothing to do, drops it (finally below).
      // Not while K2s DNS may run (its state file there; systemd's prepare refuses that too): one
      // dropped unused ends, and its keeper then ends the children the running companion records
      // (host/capture-keeper.ts end_children), which stopped a running exact log at every start.
      const c = deps.capture;
      if (c?.manager.prepare && c.tcpdump !== null && opts.logQueries !== false && (await deps.fs.lstat(K2S_PATHS.stateFile).catch(() => null)) === null) held = c.manager.prepare(c.argv).catch(() => null);
    }
    // With a held companion the Kubernetes client's module loads now, on this thread: after the
    // companion's process began (its Node start-up then runs alongside the load, on the other
    // core), before preflight's kubeconfig check needs it. Without one, preflight's kubeconfig
    // check loads it, once the service manager's reads have begun (their processes run meanwhile).
    // A module that fails to load fails there, as before.
    if (held) await held;
    // systemd: the reload question for every K2s unit, with the proxy's state and whether
    // systemd-resolved runs (ServiceManager.askUnits: one `systemctl show` that preflight's
    // status() and resolvedActive() then read), not waited for here: its process runs while this
    // thread loads the Kubernetes client and preflight checks, and its
    // answer is kept for the capture's start, the service step and the follower. After the held
    // capture's restart was spawned (its Node start-up is what the service step waits for).
    if (deps.uid() === 0) deps.services.askUnits?.();
    if (held) await deps.loadClusterClient?.().catch(() => undefined);
    const pre = await r.run('preflight', 'Checking root, engine, kubeconfig, resolver and port 53', async () => {
      // The proxy being restarted (watchdog or systemd): a start now would stop the watchdog
      // mid-restart and start over. Refused first, as the window's Start waits (proxy-restarting.ts).
      const restart = await proxyRestarting(deps, (await deps.fs.lstat(K2S_PATHS.stateFile).catch(() => null)) !== null);
      if (restart) throw refused('PROXY_RESTARTING', restartingRefusal(restart));
      const p = await preflight(deps, opts).catch(async (err: unknown) => {
        // No engine at the asked path (`--dnsproxy /nonexistent`) while K2s DNS runs: that it
        // already runs with other options is the first fact, not the missing binary (left28 #1).
        if (err instanceof LifecycleError && err.code === 'NO_ENGINE') {
          const other = await runningOtherOptions(deps, opts);
          if (other && other.length > 0) throw runningOtherRefusal(opts, other);
          // The same options, the running engine's binary gone since its start: that it runs is
          // the first fact; the missing binary matters for the proxy's next restart.
          if (other) throw refused('NO_ENGINE', `K2s DNS is already running; nothing changed. But its engine is gone: ${err.message} The running proxy keeps answering; its next restart (the watchdog, systemd, a network change, a start after a stop) needs the binary back.`);
        }
        throw err;
      });
      // Options that differ from the running ones are not applied by a running start: saying
      // "nothing changed" with exit 0 read as done (second walk high). Refused, with the way — as
      // the preflight step's failure, so its line is no ✓ before REFUSED (walk 6 L7).
      const other = p.alreadyRunning ? otherOptions(opts, p.existing, p.engine) : [];
      if (other.length > 0) throw runningOtherRefusal(opts, other);
      // Already running: the line says what runs, not the plan a fresh start would make (walk 24 #3).
      if (p.alreadyRunning && p.existing) return { value: p, message: runningText(p.existing) };
      return {
        value: p,
        // Every dropped nameserver with its reason in the plain output too (a `%2` scope id).
        message: `${p.engine.engine} at ${p.engine.binary}; upstreams ${p.upstreams.join(', ')}${p.droppedUpstreams.length ? ` (left out: ${p.droppedUpstreams.map((d) => `${d.server}: ${d.reason}`).join('; ')})` : ''}; listeners ${p.listeners.map((l) => `${l.address}:${l.port}`).join(', ')}${p.droppedTokens.length ? `; left out of the K2s-owned resolv.conf: ${p.droppedTokens.join(', ')}` : ''}${p.ignoredLine ? `; your /etc/resolv.conf is saved as is, though its ${p.ignoredLine} (glibc ignores that line)` : ''}${p.originalMissing ? `; warning: /etc/resolv.conf ${p.originalMissing}, and K2s saves that as your original: stop puts back no file, glibc then asks 127.0.0.1 (resolv.conf(5)), where nothing answers once k2s-dnsproxy is stopped, and no name resolves on this host until a resolver file is there` : p.noNameserver ? `; warning: your /etc/resolv.conf names no nameserver glibc can use (${p.noNameserver}), and it is saved as is: after stop, when it is put back, glibc asks 127.0.0.1 and no name resolves on this host until the file names your nameserver` : ''}`,
        detail: { engine: p.engine.engine, upstreams: p.upstreams, dropped: p.droppedUpstreams, skippedListeners: p.skippedListeners },
      };
    });
    if (pre.alreadyRunning) {
      // Not journaled: a journal says "start", and recovery rolls a start back — a start killed
      // while it installs the unit for a running K2s DNS must not take that K2s DNS down, nor
      // leave a journal behind that the next command (status) rolls back.
      const installed = await installMissingRouteUnit(deps, pre, new StepReporter('start', sink, () => deps.now()));
      // Said as skipped, each: a window following this start must not show them as done.
      for (const step of START_STEPS.slice(START_STEPS.indexOf('save'), START_STEPS.indexOf('ready'))) {
        if (!(installed && step === 'service')) r.emit(step, 'skipped', 'K2s DNS is already running: nothing to do.');
      }
      // A follower that died (kill -9) and an exact query log that stopped where nothing else
      // restarts it (capture-restart.ts, the rule status advises start by) are the parts a running
      // start restarts: cheap, and status tells the user to run start for them.
      const f = deps.follower;
      const followerDown = f?.manager.running && (pre.existing?.onNetworkChange ?? 'follow') === 'follow' && !(await f.manager.running().catch(() => true));
      const c = deps.capture;
      const plan = pre.existing?.plan;
      // Never for a start without the log (--no-log-queries) or without tcpdump.
      const captureDown = c && c.tcpdump !== null && plan && pre.existing ? (await captureStopFacts(deps, pre.existing)).restartBy === 'start' : false;
      const restarts: { what: string; ok: boolean }[] = [];
      if (f && followerDown) {
        const ok = await f.manager.start(f.argv).then(
          () => true,
          (err: unknown) => (warnings.push({ code: 'FOLLOW_NOT_STARTED', message: `The network follower did not start (${messageOf(err)}); a new resolver file from the network stays drift until the next start.` }), false),
        );
        restarts.push({ what: 'the network follower', ok });
      }
      if (c && plan && captureDown) {
        // As a followed network restarts it (follow.ts): the running plan's argv, waited for until its capture opened.
        const ok = await c.manager.start(captureArgvFor(c.argv, plan)).then(
          () => true,
          (err: unknown) => (warnings.push({ code: 'CAPTURE_NOT_STARTED', message: `The exact query log did not start (${messageOf(err)}); K2s DNS keeps running without it (the engine logs no queries either): fix the cause, then start again.` }), false),
        );
        restarts.push({ what: 'the exact query log', ok });
      }
      if (restarts.length > 0) {
        const words = restartWords(restarts);
        r.emit('ready', 'done', `K2s DNS is already running; ${words.ready}.`);
        return finish(r, true, EXIT.ok, `K2s DNS is already running; ${words.result}.`, undefined, warnings);
      }
      r.emit('ready', 'done', 'K2s DNS is already running; the saved original resolver was kept.');
      return finish(r, true, EXIT.ok, 'K2s DNS is already running; nothing changed.');
    }

    // When this run began, before its capture opens: the exact log's readers mark its rows' start from it (capture/start-checks.ts).
    const startedMs = deps.now();
    const state = await r.run('save', 'Saving the exact /etc/resolv.conf', () => save(deps, pre, opts, undo));
    // The `start` this start's own texts print: it starts K2s DNS again as this one runs (sixth walk M1).
    const startLine = startLineOf(opts, pre.existing);
    // A saved file a user could write (preflight.ts resolverWritableWarning: warned, not refused).
    const writable = pre.writableOwner ? resolverWritableWarning(pre.writableOwner, startLine) : null;
    if (writable) warnings.push({ code: 'RESOLV_CONF_WRITABLE', message: writable });
    // The exact query log (packets, capture/) replaces the engine's own: with it on, the engine
    // logs no query (its own lines stay in its log), which is what keeps the proxy's throughput
    // (docs/security.md "Query log"). Without tcpdump the engine's query log is the fallback.
    const capture = deps.capture && opts.logQueries !== false ? (deps.capture.tcpdump !== null ? 'on' : 'missing') : 'off';
    if (capture === 'missing') warnings.push({ code: 'CAPTURE_UNAVAILABLE', message: 'The exact query log is unavailable: tcpdump is not installed (apt-get install tcpdump); the Logs panel shows the engine\'s own query log.' });
    // The companion's own Node start-up and tcpdump's open are most of the service step's wait:
    // it needs nothing of the proxy (tcpdump reads the ports whether they listen yet or not), so it
    // starts now, with the ports preflight knows (listeners, upstreams), and that start-up runs
    // alongside discover, config and the proxy's start (on 2 cores they do not wait for each
    // other). After save: a refusal before it still changes nothing, and a failed discover rolls
    // it back like every change after save.
    // Aborted by rollback: the capture's starts stop waiting for it to open (it is stopped anyway).
    const captureRollback = new AbortController();
    const onNetworkChange = opts.onNetworkChange ?? pre.existing?.onNetworkChange ?? 'follow';
    // The capture's start below reloads the manager when it writes its unit (the first start
    // after install: no held one then). The proxy's unit files are written first, where their
    // bytes changed (ServiceManager.writeUnits), so that one reload reads them too and the
    // service step finds them written: one reload on start's path, not two. A held capture
    // reloads for nothing (its unit is there), and a steady start rewrites nothing: no call then.
    // A failure here leaves the service step to write them, and fail, as before.
    if (capture === 'on' && !(held && (await held)) && deps.services.writeUnits) {
      const { spec } = await serviceSpecOf(deps, pre, opts.logQueries ?? false, configPathFor(pre.engine.engine), startLine, onNetworkChange);
      await deps.services.writeUnits(spec).catch(() => undefined);
    }
    const early = capture === 'on' && deps.capture ? startCapture(deps.capture, captureArgvFor(deps.capture.argv, { listeners: pre.listeners, upstreams: pre.upstreams, zones: [] }), undo, warnings, captureRollback, undefined, held) : null;
    early?.begin();
    // A held companion is let go before discover: the few file writes that record it (its
    // pidfile) would otherwise each wait for discover's parsing on this thread, and its capture
    // then opened only after discover had ended (measured: the go line 40–85 ms after save).
    if (early && held) await early.sent();
    // The service manager's reads that need no spec (systemd: a failed unit's reset; its reload
    // question was asked by preflight) run alongside discover, off the service step;
    // after save, so a refusal changes nothing, and after the held capture's go (a spawn holds
    // this thread for a few ms).
    void deps.services.prepareStart?.().catch(() => undefined);
    const discovery = await r.run('discover', `Reading kube-dns and the Corefile through ${pre.kubeconfigPath}`, async () => {
      const d = await deps.discover(pre.kubeconfigPath, { searchDomains: pre.search, nameservers: pre.upstreams, proxyListeners: pre.listeners.map((l) => l.address), allowZones: [...new Set([...(opts.allowZones ?? []), ...(pre.existing?.allowedZones ?? [])])] }).catch((err: unknown) => {
        throw failed('DISCOVERY_FAILED', messageOf(err));
      });
      // Zone-upstream loop check by address semantics.
      // Only service CIDRs the zone policy accepts may excuse a host address (kube-ipvs0): a
      // cluster-supplied serviceSubnet 0.0.0.0/1 must not make this host's own address "a ClusterIP".
      // Up front, not at the end of verify's 15 s: a ClusterIP no packet can reach (fe80::1).
      const unroutable = clusterIpRefusal(d.kubeDnsIp);
      if (unroutable) throw failed('DISCOVERY_FAILED', unroutable);
      const loop = kubeDnsLoop(d.kubeDnsIp, pre.listeners, await deps.hostAddresses(), d.serviceCidrs.filter((c) => cidrRefusal(c) === null));
      if (loop) throw failed('DISCOVERY_FAILED', loop);
      // On a resolved host every zone becomes a `~zone` of one link: refused here, before the
      // proxy starts, instead of resolvectl failing at activate (E2BIG past 256).
      const tooMany = pre.resolved ? routingDomainsRefusal(d.zones.map((z) => z.zone), pre.resolved.link) : null;
      if (tooMany) throw failed('DISCOVERY_FAILED', tooMany);
      return {
        value: d,
        // The API server is named: a user-owned kubeconfig decides which cluster a root start trusts.
        message: `kube-dns ${d.kubeDnsIp}, cluster domain ${d.clusterDomain}, ${d.zones.length} zone${d.zones.length === 1 ? '' : 's'}${d.refusedZones?.length ? `, ${d.refusedZones.length} refused by the zone policy` : ''} (API server ${d.apiServer}, context ${d.context})`,
        detail: { kubeDnsIp: d.kubeDnsIp, clusterDomain: d.clusterDomain, zones: d.zones.map((z) => z.zone), refusedZones: (d.refusedZones ?? []).slice(0, 100).map((z) => ({ zone: z.zone, why: z.why })), apiServer: d.apiServer, warnings: d.warnings },
      };
    });
    // An --allow-zone of this start that forwarded nothing (a typo, a zone the cluster does not
    // serve) is said, not silently kept (shared/corefile.ts unusedAllows).
    const unusedAllow = unusedAllows((opts.allowZones ?? []).map((z) => z.toLowerCase().replace(/\.$/, '')), discovery.allowedZones ?? []);
    if (unusedAllow) warnings.push({ code: 'ALLOW_ZONE_UNUSED', message: unusedAllow });
    const policy = upstreamPolicy({ options: pre.options });
    const plan: ProxyPlan = {
      engine: pre.engine.engine,
      listeners: pre.listeners,
      zones: discovery.zones,
      upstreams: pre.upstreams,
      clusterCidrs: [...discovery.serviceCidrs, ...discovery.podCidrs],
      logFile: K2S_PATHS.log,
      // glibc's wait for one nameserver and its order (resolv.conf(5) timeout:, rotate).
      timeoutMs: policy.timeoutMs,
      order: policy.order,
      verbose: opts.logQueries ?? capture !== 'on',
    };
    // The exact query log's companion reads every port of the plan: the one started after save
    // is kept when the zones' upstreams add no port, else restarted with them once its start has
    // settled (the restart begins now too). The service step waits for it. Rollback waits for a
    // start in flight before stopping it, so a failed start never leaves it behind.
    const captureArgv = deps.capture ? captureArgvFor(deps.capture.argv, plan) : [];
    let captureStart: CaptureStart | null = null;
    if (capture === 'on' && deps.capture) {
      captureStart = early && sameArgv(early.argv, captureArgv) ? early : startCapture(deps.capture, captureArgv, undo, warnings, captureRollback, early?.begin());
      captureStart.begin();
    }
    const configPath = await r.run('config', 'Writing the proxy config', async () => {
      // A plan the engine's renderer refuses (e.g. a zone AdGuard dnsproxy would exit on) is a
      // named failure with its fix, not INTERNAL; I/O errors keep their own handling (ENOSPC).
      const written = await writeProxyConfig(deps.fs, plan).catch((err: unknown) => {
        throw (err as NodeJS.ErrnoException).code === undefined ? failed('PROXY_CONFIG', messageOf(err)) : err;
      });
      undo.push({ what: `restore ${written.path}`, run: written.undo });
      return { value: written.path, message: `Wrote ${written.path}`, detail: { path: written.path } };
    });
    await r.run('service', 'Starting k2s-dnsproxy', async () => {
      const { spec, drop } = await serviceSpecOf(deps, pre, plan.verbose, configPath, startLine, onNetworkChange);
      // dnsmasq drops to its own system user; said once here when the host has none (docs/security.md).
      if (drop?.warning) warnings.push({ code: 'SHARED_PROXY_ACCOUNT', message: drop.warning });
      // Registered before start: a start that fails half-way still gets stopped by rollback.
      undo.push({ what: 'stop k2s-dnsproxy', run: () => deps.services.stop() });
      const starting = deps.services.start(spec);
      // verify's first getaddrinfo costs this thread ~4 ms (probes/gai-lookup.ts warmLookup): paid
      // now, while the manager or the watchdog starts the proxy and this thread only waits.
      deps.warmLookup?.();
      const started = await starting;
      // The follower's spawn blocks this thread until its child has exec'd (a few ms, more on a
      // busy host): paid now, while the proxy starts, instead of before ready. Held until then.
      const f = deps.follower;
      if (f?.manager.prepare && onNetworkChange === 'follow') heldFollower = f.manager.prepare(f.argv).catch(() => null);
      const { pid } = started;
      await waitForListeners(deps, plan, opts.readyTimeoutMs ?? READY_TIMEOUT_MS, started);
      // The last run's companion still stopping (its unit deactivating as preflight asked: a drain,
      // or one hung on SIGTERM): its restart below waits for it, up to the unit's TimeoutStopSec=.
      const waitWords = captureStart ? captureWaitWords(pre.captureUnit) : null;
      if (waitWords) r.emit('service', 'running', waitWords, { waiting: true });
      // The query log is open before the host points at the proxy: every query from then on is in it.
      if (captureStart) await captureStart.run();
      else if (deps.capture) await deps.capture.manager.stop().catch(() => undefined);
      return { value: pid, message: `k2s-dnsproxy (${plan.engine}${pid ? `, PID ${pid}` : ''}) answers on ${plan.listeners.map((l) => `${l.address}:${l.port}`).join(', ')}${captureStart ? '; the exact query log reads its packets' : ''}`, detail: { pid } };
    });
    const follow = { plan, engineBinary: pre.engine.binary, onNetworkChange };
    await r.run('activate', 'Pointing the host at 127.0.0.1', () => activate(deps, pre, state, discovery, undo, follow));
    // The follower once the host points at the proxy (it follows from there): its start alongside
    // verify, where a `systemctl restart` (~15 ms on a booted Debian 13 host) then costs start
    // nothing; a held process (hosts without systemd) is let go after verify instead: the let-go
    // is a pidfile write, and its Node start-up (the CLI's, ~100 ms of CPU) then no longer competes
    // with verify's queries and the proxy answering them (measured on the test bed: verify 15 ms
    // with it alongside, 7 without a follower). Its first look waits for the lifecycle lock this
    // start holds (companions.ts), so it sees the host as start leaves it. Rollback stops it, once
    // its start has settled (a held one not let go yet is dropped, finally below). One that cannot
    // start leaves K2s DNS running as before (drift is reported, not followed).
    // systemd: the manager reads the links this start changed (systemd-reload.ts settle) once the
    // follower's start, start's last call to it, is done: the `systemd-run` that asks for it
    // (~10 ms) then runs alongside verify instead of after the result.
    const follower = followerAroundVerify(heldFollower !== null, () => {
      const started = startFollower(deps, follow.onNetworkChange, heldFollower, undo, warnings);
      settling = started.then(() => deps.services.reload?.settle());
      return started;
    });
    await r.run('verify', `Resolving kubernetes.default.svc.${discovery.clusterDomain} and an external name`, async () => {
      // The host's other lookup paths are read (resolv.conf, nsswitch.conf) while the proxy and
      // getaddrinfo are asked already: verifyDns takes them as a promise.
      const lookupPaths = deps.lookupPaths;
      const paths = lookupPaths ? readResolverText(deps.fs).then((text) => lookupPaths({ resolved: pre.resolved !== null, resolvConfText: text ?? '', skip: ['127.0.0.1'], name: `kubernetes.default.svc.${discovery.clusterDomain}` })) : [];
      // What verify asked, and when, is written beside the exact query log (capture/start-checks.ts)
      // so its readers mark those rows as start's checks; written alongside what follows verify,
      // waited for in `finally`. A failed write only leaves the rows unmarked (start's outcome
      // does not depend on the query log's view). Without the exact query log (--no-log-queries,
      // no tcpdump) there are no rows to mark: not written (two fsyncs saved). A check still
      // unanswered ~2 s in is said once, as a second `running` event of the step with
      // detail.waiting (the CLI prints it on stderr, the window's timeline shows it as the step's
      // message), not 15 s of silence.
      const v = await verifyDns(deps, discovery, pre.upstreams, opts.verifyExternalName ?? DEFAULT_VERIFY_NAME, undefined, (opts.upstreams?.length ?? 0) > 0, paths, opts.cliDoor ? 'cli' : 'gui', capture !== 'on' ? undefined : (checks) => {
        checksAsked = { ...checks, startedMs: Math.min(startedMs, checks.fromMs) };
        checksWritten = writeStartChecks(deps.fs, checksAsked, deps.uid() === 0).catch(() => undefined);
      }, (text) => r.emit('verify', 'running', text, { waiting: true }));
      if (v.warning) warnings.push({ code: v.warningCode ?? 'UPSTREAM_UNVERIFIED', message: v.warning });
      return { value: v, message: v.summary, detail: v.detail };
    });
    // The last step's journal write (not waited for by its step, teardown.ts) has landed, or its
    // error fails the start here, before anything says ready.
    await r.journalWritten();
    await follower.afterVerify();
    r.emit('ready', 'done', `Host DNS goes through k2s-dnsproxy; ${discovery.clusterDomain} resolves${follow.onNetworkChange === 'follow' ? '; a new network resolver file is followed' : '; a new network resolver file is kept as drift (--on-network-change keep)'}.`);
    undo.length = 0;
    committed = true;
    await clearJournal(deps.fs);
    await clearRecovery(deps.fs);
    return finish(r, true, EXIT.ok, `K2s DNS is running: ${discovery.clusterDomain}${discovery.zones.length > 1 ? ` and ${discovery.zones.length - 1} more zone${discovery.zones.length === 2 ? '' : 's'}` : ''} go${discovery.zones.length > 1 ? '' : 'es'} to CoreDNS at ${discovery.kubeDnsIp}, everything else to ${pre.upstreams.join(', ')}.${warnings.map((w) => ` Warning: ${w.message}`).join('')}`, undefined, warnings);
  } catch (err) {
    let le = err instanceof LifecycleError ? err : failed('INTERNAL', messageOf(err));
    if ((err as NodeJS.ErrnoException).code === 'ENOSPC' && undo.length === 0) {
      le = refused('NO_SPACE', `No space left to save the resolver state in ${K2S_PATHS.stateDir}; free some space there and start again. Nothing was changed.`);
    }
    // A journal write still in flight lands before the journal is cleared (teardown.ts).
    await r.journalWritten().catch(() => undefined);
    if (undo.length === 0) {
      await clearJournal(deps.fs).catch(() => undefined);
      return finish(r, false, le.exitCode, (recovered ? `${recovered} ` : '') + le.message, le.code);
    }
    const problems = await rollback(r, undo);
    // Rolled back completely: nothing left to recover. A partial rollback keeps the journal.
    if (problems.length === 0) await clearJournal(deps.fs).catch(() => undefined);
    // Its verify's rows are a failed start's run, not a K2s DNS that served the host: the record
    // says so (`k2s-dns queries`: `— K2s DNS start … failed and was rolled back —`). After a
    // partial rollback the proxy may still answer: its run is left as started.
    const asked = checksAsked;
    if (problems.length === 0 && asked && checksWritten) checksWritten = checksWritten.then(() => markStartRolledBack(deps.fs, asked, deps.uid() === 0)).catch(() => undefined);
    const tail = problems.length ? ` Rollback could not finish: ${problems.join('; ')}.` : ' Every change was rolled back; the host resolver is as before.';
    return finish(r, false, EXIT.failedRolledBack, `${le.message}${tail}`, le.code);
  } finally {
    // Not let go (a refusal, nothing to do, a failure before save): it exits having done nothing.
    void held?.then((h) => h?.process.drop());
    void heldFollower?.then((h) => h?.drop());
    // systemd: the manager reads the links this start changed, not waited for (systemd-reload.ts);
    // asked here unless the early ask covered them (a rollback after it changes links again).
    await checksWritten;
    await settling;
    if (!settling || !committed) await deps.services.reload?.settle();
    if (release) await (release as () => Promise<void>)();
  }
}

/**
 * The proxy's ServiceSpec for this start (what its unit files say), from preflight's engine,
 * listeners and resolved link, the engine's query-log verbosity `verbose` (ProxyPlan.verbose),
 * its config file `configPath` (configPathFor the engine: writeProxyConfig writes it there) and
 * the network-change policy; with the engine's own drop of root (selfDropFor), whose warning the
 * caller says.
 */
async function serviceSpecOf(deps: LifecycleDeps, pre: Preflight, verbose: boolean, configPath: string, startLine: string, onNetworkChange: 'follow' | 'keep'): Promise<{ spec: ServiceSpec; drop: SelfDrop | null }> {
  const engine = pre.engine.engine;
  const drop = await selfDropFor(deps.fs, engine);
  const argv = proxyArgv(deps.fs, pre.engine.binary, engine, configPath, verbose, pre.listeners, drop);
  // dnsproxy cannot drop root itself (docs/engines.md "dnsproxy privileges"): the service manager does; dnsmasq drops by --user (websec).
  // On systemd the KubeSwitch listener runs in its own unit that waits for the address (reboots).
  const lateListeners = lateListenersFor(engine, argv, pre.listeners);
  const { runAs } = engineRuntime(engine);
  const linkFollower = deps.follower !== undefined && onNetworkChange === 'follow';
  // On resolved hosts a companion unit re-applies the route whenever the KubeSwitch address comes back (link re-created, reboot).
  const spec: ServiceSpec = { ...(linkFollower ? { linkFollower } : {}), argv, logFile: deps.fs.real(K2S_PATHS.log), description: `K2s DNS proxy (${engine})`, guardDirs: ROOT_WRITTEN_DIRS.map((d) => deps.fs.real(d.path)), startLine, ...(runAs ? { runAs } : {}), ...(lateListeners ? { lateListeners } : {}), ...(pre.resolved ? { resolvedRouteFile: deps.fs.real(K2S_PATHS.routeFile) } : {}) };
  return { spec, drop };
}

/** One start of the capture companion with one argv (startCapture). */
interface CaptureStart {
  argv: readonly string[];
  /** Begins the start (once; later calls return the same promise); resolves to its error, or null when the capture is open. Never rejects. */
  begin: () => Promise<unknown>;
  /** Begins it if need be and waits for it; a failed start adds the CAPTURE_NOT_STARTED warning. Never rejects. */
  run: () => Promise<void>;
  /** Settles once a held process was let go (its pidfile written, its flags sent), or the start (begun if need be) settled. Never rejects. */
  sent: () => Promise<void>;
}

/**
 * When the network follower's start (`begin`) runs around verify, decided once: a `held` process
 * (hosts without systemd) is let go after verify, so `afterVerify` begins it; else it begins now,
 * alongside verify, and `afterVerify` only waits for it. `afterVerify` resolves once the start
 * settled (`begin`'s promise); `begin` is called exactly once, unless `afterVerify` never is.
 */
function followerAroundVerify(held: boolean, begin: () => Promise<void>): { afterVerify: () => Promise<void> } {
  const alongside = held ? null : begin();
  return { afterVerify: () => alongside ?? begin() };
}

/**
 * Begins the network follower's start for `onNetworkChange` 'follow' (the process held for it,
 * `held`, let go, else a fresh start), with its stop registered in `undo` first; for 'keep' ends
 * one left running. Resolves once that settled; a follower that does not start adds the
 * FOLLOW_NOT_STARTED warning. Never rejects.
 */
function startFollower(deps: LifecycleDeps, onNetworkChange: 'follow' | 'keep', held: Promise<HeldProcess | null> | null, undo: Undo[], warnings: ResultWarning[]): Promise<void> {
  const f = deps.follower;
  if (!f) return Promise.resolve();
  if (onNetworkChange !== 'follow') return f.manager.stop().catch(() => undefined);
  const started = (async () => {
    const h = held ? await held : null;
    // A held one that went away (or whose pidfile failed) is replaced by a fresh start.
    const viaHeld = h && f.manager.startHeld && !h.exited() ? await f.manager.startHeld(h).then(() => true, () => false) : false;
    if (!viaHeld) await f.manager.start(f.argv);
  })().catch((err: unknown) => {
    warnings.push({ code: 'FOLLOW_NOT_STARTED', message: `The network follower did not start (${messageOf(err)}); a new resolver file from the network stays drift until the next start.` });
  });
  undo.push({
    what: 'stop the network follower',
    run: async () => {
      await started;
      await f.manager.stop();
    },
  });
  return started;
}

/**
 * A running start's restarts of its companions in words (each `what` restarted, `ok`, or not):
 * `ready` for the ready step ("the network follower was not, and was restarted"), `result` for
 * the result ("the network follower was restarted"); one clause for those restarted, one for those that did not start.
 */
function restartWords(restarts: readonly { what: string; ok: boolean }[]): { ready: string; result: string } {
  const up = restarts.filter((x) => x.ok).map((x) => x.what);
  const down = restarts.filter((x) => !x.ok).map((x) => x.what);
  const was = up.length > 1 ? 'were' : 'was';
  const is = down.length > 1 ? 'are' : 'is';
  const joined = (...clauses: string[]) => clauses.filter((w) => w !== '').join('; ');
  return {
    ready: joined(up.length ? `${up.join(' and ')} ${was} not, and ${was} restarted` : '', down.length ? `${down.join(' and ')} ${is} not running and did not start` : ''),
    result: joined(up.length ? `${up.join(' and ')} ${was} restarted` : '', down.length ? `${down.join(' and ')} did not start` : ''),
  };
}

/** True when two argv lists are the same words in the same order. */
function sameArgv(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((w, i) => w === b[i]);
}

/**
 * The capture companion's start with `argv`, begun by `begin` or `run` (not before `after`, an
 * earlier start of it, has settled: the manager restarts one companion, never two at once), with
 * the process prepared for it (`held`) when there is one. Once begun, rollback stops it (after a
 * start in flight settles; `rollingBack`, shared by one start's captures, is aborted first, so a
 * start still waiting for the capture to open gives up, and one chained after it never begins).
 * A capture that cannot start leaves K2s DNS running without a query log: `run` adds a
 * CAPTURE_NOT_STARTED warning saying so.
 */
function startCapture(c: NonNullable<LifecycleDeps['capture']>, argv: string[], undo: Undo[], warnings: ResultWarning[], rollingBack: AbortController, after: Promise<unknown> = Promise.resolve(), held: Promise<HeldCompanion | null> | null = null): CaptureStart {
  let started: Promise<unknown> | null = null;
  let wentOff!: () => void;
  const letGoSeen = new Promise<void>((resolve) => (wentOff = resolve));
  // The held process as the manager sees it, saying when it is let go.
  const heldHere = async (): Promise<HeldCompanion | null> => {
    const h = held ? await held : null;
    if (!h) return null;
    const p = h.process;
    return { base: h.base, process: { pid: p.pid, exited: () => p.exited(), drop: () => p.drop(), letGo: (line: string) => (p.letGo(line), wentOff()) } };
  };
  const begin = () =>
    (started ??= after.then(async () => {
      // A restart chained after an earlier start that rollback has begun to undo: never begun.
      if (rollingBack.signal.aborted) throw new Error('start is rolling back');
      return c.manager.start(argv, await heldHere(), rollingBack.signal);
    }).then(
      () => null,
      (err: unknown) => err ?? new Error('unknown error'),
    ));
  undo.push({
    what: 'stop the capture companion',
    run: async () => {
      if (started === null) return;
      // Rollback no longer needs the capture open (it stops it): every start's wait for its
      // ready file ends — this one's and an earlier one it is chained after.
      rollingBack.abort();
      await started;
      await c.manager.stop();
    },
  });
  const run = async () => {
    const err = await begin();
    if (err !== null) warnings.push({ code: 'CAPTURE_NOT_STARTED', message: `The exact query log did not start (${messageOf(err)}); the engine logs no queries either: start with --no-log-queries to silence this, or fix the cause and start again.` });
  };
  return {
    argv,
    begin,
    run,
    sent: () => Promise.race([letGoSeen, begin().then(() => undefined)]),
  };
}

/**
 * What `opts` asks for that the running K2s DNS (its state file `existing`) does not have, one
 * phrase each: an engine asked for on purpose (`engineExplicit`: the CLI's `--engine`), explicit
 * upstreams, the network-change policy, the query log (`--no-log-queries`, against the running
 * start's startedWith.logQueries: on when absent), the AdGuard dnsproxy binary (`--dnsproxy`,
 * against the running engineBinary; `chosen`: the engine this start would run, preflight's
 * chooseEngine, default the asked engine or AdGuard), and, from the CLI (`cliDoor`), the
 * KubeSwitch listener (`--kubeswitch`, against the running listeners and the address its start
 * asked for) and the zones allowed (`--allow-zone`: one the running start neither allowed nor was
 * asked for). An option not given is never compared, nor one the state does not record (state
 * files of earlier versions: no startedWith, no engineBinary); `--verify-name` only changes
 * verify, never compared. [] when the start asks for nothing else (or the state is unknown).
 * The window's engine, KubeSwitch choice and Zones-panel allows are never compared: they are
 * stored preferences, sent with every Start — also the Start that only restarts a dead follower,
 * and the verdict's Start button, which sends the stored choice even where the select shows the
 * running engine — so a window Start on a running K2s DNS keeps working as before; a window user
 * who wants another engine stops first (Stop, then Start), as the select's running-engine view implies.
 */
export function otherOptions(opts: Pick<StartOptions, 'engine' | 'engineExplicit' | 'cliDoor' | 'upstreams' | 'onNetworkChange' | 'logQueries' | 'dnsproxyPath' | 'kubeSwitch' | 'allowZones'>, existing: ResolverStateFile | null, chosen: { engine: EngineName; binary: string } | null = null): string[] {
  if (!existing) return [];
  const out: string[] = [];
  const engineDiffers = opts.engineExplicit === true && opts.engine !== undefined && existing.engine !== null && opts.engine !== existing.engine;
  if (engineDiffers) out.push(`engine ${opts.engine} asked, ${existing.engine} running`);
  const running = existing.plan?.upstreams ?? existing.upstreams;
  // One server in two spellings is one upstream (pickUpstreams keeps the first): compared by sameServerKey.
  const servers = (list: string[]) => [...new Set(list.map(sameServerKey))].join(' ');
  if (opts.upstreams?.length && servers(opts.upstreams) !== servers(running)) out.push(`upstreams ${opts.upstreams.join(', ')} asked, ${running.join(', ') || 'none'} running`);
  const policy = existing.onNetworkChange ?? 'follow';
  if (opts.onNetworkChange && opts.onNetworkChange !== policy) out.push(`network changes: ${opts.onNetworkChange} asked, ${policy} running`);
  if (opts.cliDoor && opts.kubeSwitch !== undefined) {
    const listening = kubeSwitchOfListeners(existing) ?? 'none';
    const startAsked = existing.startedWith ? (existing.startedWith.kubeSwitch ?? K2S_DEFAULTS.kubeSwitchAddress) : undefined;
    if (opts.kubeSwitch !== listening && opts.kubeSwitch !== startAsked) out.push(`KubeSwitch listener: ${opts.kubeSwitch} asked, ${listening} running`);
  }
  if (opts.logQueries !== undefined && existing.startedWith) {
    const logs = existing.startedWith.logQueries ?? true;
    if (opts.logQueries !== logs) out.push(`query log: ${opts.logQueries ? 'on' : 'off'} asked, ${logs ? 'on' : 'off'} running`);
  }
  if (opts.cliDoor && opts.allowZones?.length && existing.allowedZones) {
    const covered = new Set([...existing.allowedZones, ...(existing.startedWith?.allowZones ?? [])]);
    const missing = [...new Set(opts.allowZones.map((z) => z.toLowerCase().replace(/\.$/, '')))].filter((z) => !covered.has(z));
    if (missing.length) out.push(`allowed zones: ${missing.join(', ')} asked, ${existing.allowedZones.join(', ') || 'none'} running`);
  }
  // `--dnsproxy PATH`: compared when the engine this start runs (preflight's choice, else the asked
  // engine, else the table's first) is the one that reads it — the engine table says so
  // (electron/core/engines/: binaryOf gives the asked path), no engine named here.
  const asked = opts.dnsproxyPath;
  const runsEngine = chosen?.engine ?? opts.engine ?? ENGINE_NAMES[0];
  if (asked !== undefined && existing.engineBinary && engineRuntime(runsEngine).binaryOf({ dnsproxyPath: asked }) === asked && !(engineDiffers && existing.engine !== runsEngine)) {
    const binary = chosen?.binary ?? asked;
    if (existing.engine !== runsEngine) out.push(`dnsproxy ${asked} asked, ${existing.engine ?? 'another engine'} running`);
    else if (binary !== existing.engineBinary) out.push(`dnsproxy ${binary} asked, ${existing.engineBinary} running`);
  }
  return out;
}

/** Start's RUNNING_OTHER_OPTIONS refusal: what differs (otherOptions) and the way (stop, then this start). */
function runningOtherRefusal(opts: StartOptions, other: string[]): LifecycleError {
  return refused('RUNNING_OTHER_OPTIONS', `K2s DNS is already running with other options (${other.join('; ')}); nothing changed. A start does not change a running K2s DNS: to use these options, run ${cliCommand('stop', true)} && ${askedStartLine(opts)}`);
}

/**
 * otherOptions against the running K2s DNS when preflight found no engine: its state file and a
 * running proxy service, no engine chosen. Null when K2s DNS does not run or the state is unreadable.
 */
async function runningOtherOptions(deps: LifecycleDeps, opts: StartOptions): Promise<string[] | null> {
  const existing = await readState(deps.fs).catch(() => null);
  if (!existing) return null;
  const running = await deps.services.status().then((s) => s.running, () => false);
  return running ? otherOptions(opts, existing, null) : null;
}

/**
 * The preflight line of a start that finds K2s DNS running: the running one as its state file
 * records it (engine and binary, upstreams as running: the plan's, listeners), not a fresh plan.
 */
export function runningText(existing: ResolverStateFile): string {
  const engine = existing.engine ? `${existing.engine}${existing.engineBinary ? ` at ${existing.engineBinary}` : ''}` : 'engine not recorded';
  const upstreams = (existing.plan?.upstreams ?? existing.upstreams).join(', ') || 'none';
  return `K2s DNS is already running: ${engine}; upstreams ${upstreams}; listeners ${existing.listeners.map((l) => `${l.address}:${l.port}`).join(', ')}`;
}

function finish(r: StepReporter, ok: boolean, exitCode: number, message: string, code?: string, warnings: ResultWarning[] = []): ResultEvent {
  r.result(ok, exitCode, message, code, warnings);
  return { type: 'result', op: 'start', ok, exitCode, message, at: Date.now(), ...(code ? { code } : {}), ...(warnings.length ? { warnings } : {}) };
}

/** Undoes host changes newest first; returns what could not be undone. */
async function rollback(r: StepReporter, undo: Undo[]): Promise<string[]> {
  r.emit('rollback', 'running', `Undoing ${undo.length} change(s)`);
  const problems: string[] = [];
  for (const u of [...undo].reverse()) {
    await u.run().catch((err: unknown) => problems.push(`${u.what}: ${messageOf(err)}`));
  }
  undo.length = 0;
  r.emit('rollback', problems.length ? 'failed' : 'done', problems.length ? problems.join('; ') : 'Host resolver and services are back as before.');
  return problems;
}

/** Writes the state file with the original (unless an earlier start saved it already) and what `opts` asked (startedWith). */
async function save(deps: LifecycleDeps, pre: Preflight, opts: StartOptions, undo: Undo[]) {
  const state: ResolverStateFile = {
    version: 1,
    writtenBy: 'k2s-dns',
    savedAt: pre.existing && pre.currentIsManaged ? pre.existing.savedAt : new Date(deps.now()).toISOString(),
    resolvConf: pre.original,
    upstreams: pre.upstreams,
    resolvedDropIn: false,
    resolvedRoute: pre.existing?.resolvedRoute ?? null,
    engine: pre.engine.engine,
    listeners: pre.listeners,
    skippedListeners: pre.skippedListeners,
    clusterDomain: null,
    kubeDnsIp: null,
    kubernetesServiceIp: null,
    managedResolvConfSha256: null,
    kubeconfigPath: pre.kubeconfigPath,
    startedWith: startedWithOf(opts),
    // A resumed start keeps the saved copy, so it keeps the follow that made it too: status,
    // stop and `--restore start` name that file by its writer, never as start's.
    ...(pre.currentIsManaged && pre.existing?.followedChange ? { followedChange: pre.existing.followedChange } : {}),
  };
  const previous = pre.existing;
  // A new original is saved: a start copy left by an earlier run (a stop by K2s's own CLI, a
  // crash) names a file from before that run, never this one's (host/start-copy.ts).
  if (!pre.currentIsManaged) await removeStartCopy(deps.fs);
  await writeState(deps.fs, state);
  if (pre.currentIsManaged) {
    // Resumed start: the K2s-owned file is already active; a rollback must bring the original back.
    undo.push({ what: 'restore /etc/resolv.conf', run: () => restoreResolver(deps.fs, pre.original) });
  }
  undo.push({ what: `remove ${K2S_PATHS.stateFile}`, run: () => (previous ? writeState(deps.fs, previous) : removeState(deps.fs)) });
  const kind = pre.original.kind === 'symlink' ? `symlink → ${pre.original.target}` : pre.original.kind === 'file' ? `regular file, mode ${pre.original.mode.toString(8).padStart(4, '0')}` : 'absent';
  return {
    value: state,
    message: pre.currentIsManaged ? `Kept the original saved at ${state.savedAt} (${kind})` : `Saved /etc/resolv.conf (${kind}) to ${K2S_PATHS.stateFile}`,
    detail: { kind: pre.original.kind },
  };
}

/**
 * Replaces /etc/resolv.conf with the K2s-owned file. Where systemd-resolved runs, first gives it
 * the cluster zones on a routing-only link (shared/resolved-link.ts), so programs that ask
 * resolved (nss-resolve, the 127.0.0.53 stub, resolvectl) get them too, and the file names the
 * stub or the KubeSwitch address instead of 127.0.0.1 (resolved copies a foreign file's servers
 * into /run/systemd/resolve/resolv.conf, kubelet's resolvConf there).
 */
async function activate(deps: LifecycleDeps, pre: Preflight, state: ResolverStateFile, discovery: ClusterDiscovery, undo: Undo[], follow: Pick<ResolverStateFile, 'plan' | 'engineBinary' | 'onNetworkChange'>) {
  let route: ResolvedRoute | null = null;
  if (pre.resolved) {
    route = { link: pre.resolved.link, address: pre.resolved.address, domains: routingDomains(discovery.zones.map((z) => z.zone)) };
    // Recorded before the change: a crash in between still finds the link to revert.
    await writeState(deps.fs, { ...state, resolvedRoute: route });
    const link = route.link;
    undo.push({ what: `resolvectl revert ${link}`, run: () => revertRoute(deps.exec, link) });
    // The file k2s-dnsproxy-resolved re-applies the route from (link re-created, reboot); removed first on undo.
    undo.push({ what: `remove ${K2S_PATHS.routeFile}`, run: () => deps.fs.remove(K2S_PATHS.routeFile) });
    await deps.fs.writeFileAtomic(K2S_PATHS.routeFile, renderRouteFile(route), { mode: 0o600, uid: 0, gid: 0 });
    await applyRoute(deps.exec, route);
  }
  // One nameserver (the proxy) instead of the original list: give clients as many tries.
  const managed = renderManagedResolvConf({ search: pre.search, options: clientOptions(pre.options, pre.upstreams.length), ...(pre.resolved ? { nameserver: pre.resolved.nameserver } : {}) });
  // Undo first, then change: a crash between the two leaves nothing unrecorded.
  undo.push({
    what: 'restore /etc/resolv.conf',
    run: async () => {
      await restoreResolver(deps.fs, pre.original);
      // resolved keeps servers it read from our file after its own file is back: forget them.
      if (pre.resolved) await restartResolved(deps);
    },
  });
  await deps.fs.writeFileAtomic(K2S_PATHS.resolvConf, managed, { mode: MANAGED_RESOLV_CONF_MODE, uid: 0, gid: 0 });
  const sha = createHash('sha256').update(managed).digest('hex');
  // Its inode and birth time tell a later write in place from a new file put over it (follow.ts fileWriteHow).
  const fileId = await managedFileId(deps.fs);
  await writeState(deps.fs, {
    ...state,
    resolvedDropIn: false,
    resolvedRoute: route,
    clusterDomain: discovery.clusterDomain,
    kubeDnsIp: discovery.kubeDnsIp,
    kubernetesServiceIp: discovery.kubernetesServiceIp,
    managedResolvConfSha256: sha,
    ...fileId,
    allowedZones: discovery.allowedZones ?? [],
    // What a follow of the network needs to restart the engine and rewrite this file (follow.ts).
    ...follow,
    managedNameserver: pre.resolved?.nameserver ?? '127.0.0.1',
    lastNetworkChange: null,
  });
  return {
    value: undefined,
    message: route
      ? `/etc/resolv.conf now says nameserver ${pre.resolved!.nameserver}; systemd-resolved sends ${route.domains.join(' ')} to the proxy at ${route.address} on ${route.link} (routing-only: no other name goes there)`
      : '/etc/resolv.conf now says nameserver 127.0.0.1',
    detail: { resolved: route },
  };
}

/**
 * A K2s DNS started on a systemd-resolved host by a version without k2s-dnsproxy-resolved.service
 * keeps running across the package upgrade with its route in the state file but no unit to apply
 * it again (link re-created, reboot): start, finding it running, writes the route file from the
 * state and installs that unit, leaving the proxy and /etc/resolv.conf as they are.
 */
async function installMissingRouteUnit(deps: LifecycleDeps, pre: Preflight, r: StepReporter): Promise<boolean> {
  const route = pre.existing?.resolvedRoute;
  const install = deps.services.installRouteUnit?.bind(deps.services);
  if (!route || deps.services.kind !== 'systemd' || !install || (await deps.fs.lstat(K2S_PATHS.routeUnit))) return false;
  await r.run('service', `Installing ${ROUTE_UNIT_NAME}.service for the running K2s DNS`, async () => {
    await deps.fs.writeFileAtomic(K2S_PATHS.routeFile, renderRouteFile(route), { mode: 0o600, uid: 0, gid: 0 });
    await install(deps.fs.real(K2S_PATHS.routeFile));
    return { value: null, message: `Installed ${ROUTE_UNIT_NAME}.service: it applies the route ${route.domains.join(' ')} on ${route.link} again whenever ${route.address} comes back`, detail: { route } };
  });
  return true;
}
