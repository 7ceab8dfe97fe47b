/**
 * In-memory AppBackend with realistic data (fixtures/k8s values) for UI development, unit tests
 * and the fake-backend Playwright spec. NEVER used by `npm start`: the real backend is the
 * lifecycle library wired by the composition root.
 */
import { START_STEPS, type LifecycleEvent, type Operation, type ResultEvent, type StepName } from '../../shared/lifecycle-events';
import type { AnswerRecord, HostDnsStatus, LogLine, LogReset, QueryResult } from '../../shared/types';
import type { QueryRow } from '../../shared/query-log/row';
import type { QueryTarget } from '../../shared/contract';
import type { AppBackend } from '../../electron/core/backend';
import { fakeDoctorFindings } from './backend-fake-doctor';
import { exactLogOf, fakeExactLog } from './backend-fake-exact';
import { checkHealth } from '../../electron/core/health/check-health';
import { dnsproxyQueryLines, dnsproxyRun, fakeHistory, fakeSearch, overlappingQueries, previousDnsmasqRun } from './backend-fake-log-data';
import {
  FAKE_LAN_NAMESERVER,
  MANAGED_TEXT,
  ORIGINAL_TEXT,
  fakeClusterStatus,
  fakeDiscovery,
  fakeUnreachableCluster,
  managedEntry,
  originalEntry,
} from './backend-fake-data';

/** Knobs of the fake. Times in ms. */
export interface FakeBackendOptions {
  /** The message of a stop's result (default: the byte-identical restore's). */
  stopMessage?: string;
  /** Delay between lifecycle events, so the timeline visibly moves (default 120 ms). */
  stepDelayMs?: number;
  /** Make start fail at this step, then roll back (to show Rollback in the UI). */
  failAt?: StepName;
  /** Interval of generated query log lines while running and followed (default 1000 ms). */
  logIntervalMs?: number;
  /** Start with an empty proxy log (default: the log holds a captured dnsmasq run, fixtures/logs/). */
  emptyLog?: boolean;
  /** Clock, ms since the epoch. */
  now?: () => number;
  /** Start in the running state. */
  running?: boolean;
  /**
   * Older queries already in the log before the captured run (a window opened after minutes of
   * traffic): `history` user queries `q<N>.history.example` (NOERROR), each followed by a health probe.
   */
  history?: number;
  /** Serve an exact query log (packet rows, backend-fake-exact.ts) of this many rows; default: none (tcpdump-less message). */
  exactRows?: number;
  /** Serve an exact query log of exactly these rows (oldest first) instead; `now` is the fake's clock, ms. */
  exactQueryRows?: (now: number) => QueryRow[];
  /** End the log with two overlapping dnsproxy queries (one row marked ≈). */
  overlap?: boolean;
  /** End the log with one answered dnsproxy query (A, NOERROR) per name, in order. */
  loggedNames?: string[];
  /** The host's proxy state, shared with a spec that flips it as an outside CLI start/stop would (default: own object). */
  host?: FakeHost;
  /** The cluster API as the fake sees it; flip `up` to take it down and bring it back. */
  api?: { up: boolean };
}

/**
 * The host's proxy as the fake sees it; a spec shares the object to change it from outside: an
 * outside CLI start/stop (`running`), a kill of proxy and watchdog (`proxyDead`), or a crash the
 * watchdog restarted from (`pid` the new PID, `proxyExit` the old one's end, as HostDnsStatus).
 */
export interface FakeHost {
  running: boolean;
  /** The engine an outside start ran (default adguard). */
  engine?: 'adguard' | 'dnsmasq';
  proxyDead?: boolean;
  pid?: number;
  proxyExit?: HostDnsStatus['proxyExit'];
  /** Stopped, as a user who cannot look in root's 0700 state directory: the diff's `savedUnknown` (electron/core/lifecycle/diff.ts). */
  savedUnknown?: string;
  /** Running, as a user who cannot read root's saved copy: the diff's `savedRootOnly` (electron/core/lifecycle/diff.ts). */
  savedRootOnly?: string;
}

const TARGETS: QueryTarget[] = [
  { id: 'system', label: 'System resolver (getaddrinfo)', server: 'system' },
  { id: 'proxy', label: 'K2s proxy 127.0.0.1', server: '127.0.0.1:53' },
  { id: 'coredns', label: 'CoreDNS (kube-dns 172.21.0.10)', server: '172.21.0.10:53' },
  { id: `${FAKE_LAN_NAMESERVER}:53`, label: `Original upstream ${FAKE_LAN_NAMESERVER}`, server: `${FAKE_LAN_NAMESERVER}:53` },
];

/** Zone data the fake answers from: cluster names need CoreDNS, the rest any upstream. */
const RECORDS: { name: string; type: string; data: string; cluster: boolean }[] = [
  { name: 'kubernetes.default.svc.cluster.local', type: 'A', data: '172.21.0.1', cluster: true },
  { name: 'kube-dns.kube-system.svc.cluster.local', type: 'A', data: '172.21.0.10', cluster: true },
  { name: '1.0.21.172.in-addr.arpa', type: 'PTR', data: 'kubernetes.default.svc.cluster.local.', cluster: true },
  { name: '10.0.21.172.in-addr.arpa', type: 'PTR', data: 'kube-dns.kube-system.svc.cluster.local.', cluster: true },
  { name: 'example.com', type: 'A', data: '93.184.215.14', cluster: false },
  { name: '', type: 'NS', data: 'a.root-servers.net.', cluster: false },
];

/** Lines the fake's log file holds at most (the real one: 20 MiB per file, two files). */
const FAKE_LOG_MAX = 200_000;

/** Creates the fake backend; `running` and `failAt` pick the scenario. */
export function createFakeBackend(opts: FakeBackendOptions = {}): AppBackend & { readonly logs: LogLine[] } {
  const now = opts.now ?? Date.now;
  const delay = opts.stepDelayMs ?? 120;
  // The host's state; a spec may share the object to change it from outside (a CLI start or stop).
  const host: FakeHost = opts.host ?? { running: false };
  // The proxy was killed (SIGKILL) while K2s DNS was started: nothing is bound, nothing answers.
  const dead = () => host.running && host.proxyDead === true;
  if (opts.running !== undefined) host.running = opts.running;
  const lifecycleListeners = new Set<(e: LifecycleEvent) => void>();
  const logListeners = new Set<(l: LogLine[]) => void>();
  const resetListeners = new Set<(r: LogReset) => void>();
  // The proxy log file: a previous dnsmasq run (real captured lines) unless asked for none.
  let exact = opts.exactQueryRows ? exactLogOf(opts.exactQueryRows(now())) : opts.exactRows ? fakeExactLog(opts.exactRows, now()) : null;
  const logs: LogLine[] = opts.emptyLog ? [] : [...fakeHistory(opts.history ?? 0, now() - 600_000), ...previousDnsmasqRun(), ...(opts.overlap ? overlappingQueries(now()) : [])];
  logs.push(...(opts.loggedNames ?? []).flatMap((name, i) => dnsproxyQueryLines(now() - 1000 + i, { id: 3000 + i, client: '127.0.0.1:41000', name, type: 'A', rcode: 'NOERROR', answers: ['172.21.0.1'], upstream: '172.21.0.10:53' })));
  const api = opts.api ?? { up: true };
  const proxyRun = dnsproxyRun();
  let logTimer: ReturnType<typeof setInterval> | undefined;
  let queryId = 4000;

  const pushLogs = (lines: LogLine[]) => {
    logs.push(...lines);
    if (logs.length > FAKE_LOG_MAX) logs.splice(0, logs.length - FAKE_LOG_MAX);
    for (const cb of logListeners) cb(lines);
  };
  const emit = (e: LifecycleEvent) => {
    for (const cb of lifecycleListeners) cb(e);
  };
  const sleep = () => new Promise((r) => setTimeout(r, delay));
  const step = async (op: Operation, name: StepName, message: string, detail?: Record<string, unknown>) => {
    emit({ type: 'step', op, step: name, status: 'running', message, at: now() });
    await sleep();
    const failed = op === 'start' && name === opts.failAt;
    emit({
      type: 'step',
      op,
      step: name,
      status: failed ? 'failed' : 'done',
      message: failed ? `${name} failed: kubernetes.default.svc.cluster.local did not resolve through 127.0.0.1:53 within 5000 ms.` : message,
      at: now(),
      ...(detail ? { detail } : {}),
    });
    await sleep();
    return !failed;
  };
  const result = (op: Operation, ok: boolean, message: string, code?: string): ResultEvent => {
    const e: ResultEvent = { type: 'result', op, ok, exitCode: ok ? 0 : 1, message, at: now(), ...(code ? { code } : {}) };
    emit(e);
    return e;
  };
  // A start writes the captured dnsproxy -v run (start-up and its queries); a stop its shutdown lines.
  const startupLogs = () => {
    pushLogs(proxyRun.start);
  };
  const stopRunning = async (op: Operation) => {
    await step(op, 'restore', 'Restored the original /etc/resolv.conf (symlink to /run/NetworkManager/resolv.conf).');
    await step(op, 'stop-service', 'Stopped k2s-dnsproxy.');
    host.running = false;
    delete host.proxyExit;
    pushLogs(proxyRun.stop);
  };

  // The state file's savedAt: written once by the start that made this run, the same in every
  // read until a stop (a new value every read looked like a new start to the window, dns.ts restartedBetween).
  let savedAt: string | null = null;
  const savedAtNow = () => (savedAt = host.running ? (savedAt ?? new Date(now()).toISOString()) : null);

  const backend: AppBackend & { readonly logs: LogLine[] } = {
    logs,
    async clusterStatus() {
      return api.up ? fakeClusterStatus() : fakeUnreachableCluster();
    },
    async dnsStatus(): Promise<HostDnsStatus> {
      return {
        state: host.running ? 'running' : 'stopped',
        engine: host.running ? (host.engine ?? 'adguard') : null,
        engineVersion: host.running ? 'v0.84.0' : null,
        listeners: host.running ? [{ address: '127.0.0.1', port: 53 }] : [],
        skippedListeners: host.running ? [{ address: '172.19.1.1', reason: 'KubeSwitch address 172.19.1.1 is not assigned on this host' }] : [],
        resolverOwner: host.running ? 'k2s' : 'original',
        upstreams: host.running ? [FAKE_LAN_NAMESERVER] : [],
        clusterDomain: host.running ? 'cluster.local' : null,
        kubeDnsIp: host.running ? '172.21.0.10' : null,
        ...(host.running ? { zonesInUse: fakeDiscovery().zones } : {}),
        savedAt: savedAtNow(),
        savedBy: host.running ? 'k2s-dns' : null,
        pid: host.running ? (host.pid ?? 4242) : null,
        messages: dead() ? ['k2s-dnsproxy is not running although K2s DNS was started: press Start: it starts k2s-dnsproxy again and keeps your saved original.'] : host.running ? [] : ['K2s DNS is stopped: cluster names do not resolve on this host; press Start.'],
        ...(host.running ? { listenerSockets: [{ address: '127.0.0.1', port: 53, bound: !dead() }] } : {}),
        ...(dead() ? { state: 'degraded' as const, pid: null } : {}),
        ...(host.running && host.proxyExit ? { proxyExit: host.proxyExit } : {}),
      };
    },
    async dnsStart(input) {
      if (host.running) return result('start', false, 'K2s DNS is already running; stop it first.', 'ALREADY_RUNNING');
      const zones = fakeDiscovery().zones.length;
      const details: Record<string, Record<string, unknown>> = {
        discover: { kubeDnsIp: '172.21.0.10', zones },
        config: { engine: input.engine ?? 'adguard', upstreams: [FAKE_LAN_NAMESERVER] },
        service: { listeners: ['127.0.0.1:53'], skipped: ['172.19.1.1:53'] },
      };
      const messages: Record<string, string> = {
        preflight: 'Running as root, port 53 on 127.0.0.1 is free, dnsproxy v0.84.0 found.',
        save: 'Saved /etc/resolv.conf (symlink to /run/NetworkManager/resolv.conf).',
        discover: `kube-dns 172.21.0.10, cluster domain cluster.local, ${zones} zones.`,
        config: `Wrote /etc/k2s/dnsproxy.yaml for ${input.engine ?? 'adguard'}.`,
        service: `k2s-dnsproxy (${input.engine ?? 'adguard'}, PID ${host.pid ?? 4242}) answers on 127.0.0.1:53`,
        activate: 'Activated the K2s-owned /etc/resolv.conf (nameserver 127.0.0.1).',
        verify: 'kubernetes.default.svc.cluster.local → 172.21.0.1, example.com resolves.',
        ready: 'Host DNS is ready.',
      };
      for (const name of START_STEPS) {
        if (name === 'service') startupLogs();
        if (!(await step('start', name, messages[name] ?? name, details[name]))) {
          await step('start', 'rollback', 'Rolled back: restored /etc/resolv.conf and stopped k2s-dnsproxy.');
          host.running = false;
          return result('start', false, `Start failed at ${name} and was rolled back; the host resolver is as before. Check the Logs panel.`, 'VERIFY_FAILED');
        }
        if (name === 'activate') host.running = true;
      }
      return result('start', true, 'K2s DNS is running: cluster names resolve on this host.');
    },
    async dnsStop() {
      if (!host.running) return result('stop', true, 'K2s DNS was not running; nothing to stop.');
      await stopRunning('stop');
      return result('stop', true, opts.stopMessage ?? 'Stopped: /etc/resolv.conf is byte-identical to before start.');
    },
    async dnsUninstall() {
      if (host.running) await stopRunning('uninstall');
      await step('uninstall', 'remove-files', 'Removed the unit, /etc/k2s/dnsproxy.yaml and the saved state.');
      // Uninstall removes the proxy log too (electron/core/lifecycle/teardown.ts); the live
      // follower tells every subscriber (electron/core/logs/follow.ts onReset).
      logs.length = 0;
      // And the exact query log (K2S_PATHS.queryRows).
      exact = null;
      for (const cb of resetListeners) cb({ reason: 'removed', path: '/var/log/dnsproxy/dnsproxy.log', at: now() });
      return result('uninstall', true, 'Uninstalled K2s DNS files; the original resolver is in place.');
    },
    async zonesList() {
      // With the real backend's code (cluster/errors.ts ClusterUnreachableError): the web bridge answers it by its catalogue entry.
      if (!api.up) throw Object.assign(new Error('Cannot reach the Kubernetes API at https://172.19.1.100:6443: connect ECONNREFUSED.'), { code: 'CLUSTER_UNREACHABLE' });
      return fakeDiscovery();
    },
    async resolverDiff() {
      if (!host.running) {
        return { saved: null, current: originalEntry(), savedText: null, currentText: ORIGINAL_TEXT, identical: false, changes: [], ...(host.savedUnknown ? { savedUnknown: host.savedUnknown } : {}) };
      }
      if (host.savedRootOnly) {
        return { saved: null, current: managedEntry(), savedText: null, currentText: MANAGED_TEXT, identical: false, changes: [], savedRootOnly: host.savedRootOnly };
      }
      return {
        saved: originalEntry(),
        current: managedEntry(),
        savedText: ORIGINAL_TEXT,
        currentText: MANAGED_TEXT,
        identical: false,
        changes: ['symlink → regular file', 'link target /run/NetworkManager/resolv.conf → (none)', 'mode (link) → 0644'],
      };
    },
    async queryTargets() {
      return TARGETS.map((t) => ({ ...t }));
    },
    async queryRun(input): Promise<QueryResult> {
      const target = TARGETS.find((t) => t.id === input.target || t.server === input.target) ?? TARGETS[0]!;
      const name = input.name.toLowerCase().replace(/\.$/, '');
      const base = { name: input.name, type: input.type, server: target.server };
      const transport = target.id === 'system' ? 'getaddrinfo' : input.transport;
      const latencyMs = { system: 3, proxy: 2, coredns: 1 }[target.id] ?? 12;
      if (dead() && (target.id === 'proxy' || target.id === 'system')) {
        return target.id === 'proxy'
          ? { ...base, transport, rcode: 'ERROR', answers: [], latencyMs: 1, error: 'connect ECONNREFUSED 127.0.0.1:53' }
          : { ...base, transport, rcode: 'TIMEOUT', answers: [], latencyMs: 3, error: 'EAI_AGAIN: temporary failure — no nameserver answered in time, or one answered SERVFAIL' };
      }
      if (target.id === 'proxy' && !host.running) {
        return { ...base, transport, rcode: 'TIMEOUT', answers: [], latencyMs: 2000, error: 'No response from 127.0.0.1:53 within 2000 ms: is K2s DNS running?' };
      }
      const clusterReachable = target.id === 'coredns' || ((target.id === 'proxy' || target.id === 'system') && host.running);
      const known = RECORDS.filter((r) => r.name === (name === '.' ? '' : name));
      if (known.length === 0 || (known.some((r) => r.cluster) && !clusterReachable)) {
        return { ...base, transport, rcode: 'NXDOMAIN', answers: [], latencyMs };
      }
      const answers: AnswerRecord[] = known
        .filter((r) => r.type === input.type)
        .map((r) => ({ name: `${r.name}.`, type: r.type, ttl: r.cluster ? 30 : 3600, data: r.data }));
      if (host.running && target.id !== 'coredns') {
        queryId += 1;
        const cluster = known.some((r) => r.cluster);
        // Logged with the case as asked, as dnsproxy does (the health probes' marker: shared/health-probe.ts).
        pushLogs(dnsproxyQueryLines(now(), { id: queryId, client: '127.0.0.1:40000', name: input.name.replace(/\.$/, ''), type: input.type, rcode: 'NOERROR', answers: answers.map((a) => a.data), upstream: cluster ? '172.21.0.10:53' : `${FAKE_LAN_NAMESERVER}:53` }));
      }
      return { ...base, transport, rcode: 'NOERROR', answers, latencyMs };
    },
    async logsTail(input) {
      return logs.slice(-input.lines);
    },
    async logsPage(input) {
      // The fake's file is one array: a cursor's offset is an index in it (ino 1).
      const end = input.before ? Math.min(input.before.offset, logs.length) : logs.length;
      const start = Math.max(0, end - input.lines);
      // One file, never rotated: there is no `.1`.
      return { lines: logs.slice(start, end), older: start > 0 ? { ino: 1, offset: start } : null, lost: false, files: ['/var/log/dnsproxy/dnsproxy.log'] };
    },
    async logsSearch(input) {
      return fakeSearch(logs, input);
    },
    async logsExact(input) {
      if (exact) return exact(input);
      // The fake reads recorded engine lines; it has no packet capture.
      return { available: false, reason: 'No exact query log yet: it starts with K2s DNS (tcpdump is installed). Shown: the engine\'s own query log.', rows: [] };
    },
    async doctorRun() {
      return fakeDoctorFindings(host.running);
    },
    async healthCheck() {
      // The same check as the real backend, over the fake's own answers.
      return checkHealth({
        status: () => backend.dnsStatus({}),
        resolvConfText: async () => (host.running ? MANAGED_TEXT : ORIGINAL_TEXT),
        lookup: (name) => backend.queryRun({ name, type: 'A', target: 'system', transport: 'udp' }),
        query: (q) => backend.queryRun({ name: q.name, type: q.type, target: q.server, transport: 'udp' }),
        now,
      });
    },
    async appInfo() {
      return { platform: 'linux', lifecycleSupported: true, reason: null, version: '0.1.0-fake' };
    },
    onLifecycleEvent(cb) {
      lifecycleListeners.add(cb);
      return () => void lifecycleListeners.delete(cb);
    },
    followLogs(cb, onReset) {
      logListeners.add(cb);
      if (onReset) resetListeners.add(onReset);
      if (!logTimer) {
        logTimer = setInterval(() => {
          if (!host.running) return;
          queryId += 1;
          pushLogs(dnsproxyQueryLines(now(), { id: queryId, client: `127.0.0.1:${40000 + (queryId % 20000)}`, name: 'kubernetes.default.svc.cluster.local', type: 'A', rcode: 'NOERROR', answers: ['172.21.0.1'], upstream: '172.21.0.10:53' }));
        }, opts.logIntervalMs ?? 1000);
        logTimer.unref?.();
      }
      return () => {
        logListeners.delete(cb);
        if (onReset) resetListeners.delete(onReset);
        if (logListeners.size === 0 && logTimer) {
          clearInterval(logTimer);
          logTimer = undefined;
        }
      };
    },
  };
  if (host.running) startupLogs();
  return backend;
}
