import { accessSync, constants, existsSync, lstatSync, realpathSync, watch as fsWatch } from 'node:fs';
import { APP_VERSION } from '../../shared/app-version';
import { basename, dirname } from 'node:path';
import { appPath } from './app-root';
import { findInstallGap, INSTALLED_HELPER, INSTALLED_HELPER_BUNDLE } from '../helper/installed';
import type { AppBackend } from './backend';
import type { LifecycleDeps } from './lifecycle/deps';
import type { LifecycleEvent } from '../../shared/lifecycle-events';
import type { HostDnsStatus, LogLine } from '../../shared/types';
import { K2S_PATHS } from '../../shared/k2s-paths';
import { dnsStatus } from './lifecycle/status';
import { resolverDiff } from './lifecycle/diff';
import { queryTargets, resolveTarget } from './lifecycle/query-target';
import { kubeconfigForSu, kubeconfigForSudo, kubeconfigOrStarted, kubeconfigToName, type SudoLookupHost } from './cluster/kubeconfig-default';
import { setCliKubeconfig, setCliSuKubeconfig, setKubectlKubeconfig } from '../../shared/fix';
import type { FindKubeconfigResult } from './cluster/kubeconfig';
import { discoverCluster } from './cluster/discovery';
import { hostZonePolicy } from './cluster/host-zone-policy';
import { clusterStatus } from './cluster/status';
import { NoKubeconfigError } from './cluster/errors';
import { runHelper, type LauncherOptions } from '../helper/launcher';
import type { HelperRequest } from '../helper/request';
import { createLogSource } from './logs/log-source';
import { exactQueryLog } from './capture/exact-log';
import { createFileMemo } from './capture/exact-memo';
import { createRowsIndex } from './capture/rows-index';
import { OLDER_READ_BYTES } from './capture/rows-reader';
import { startChecksBeside } from './capture/start-checks';
import { rotatedLogPath } from './host/query-log';
import type { ExactQueryLog } from '../../shared/query-log/exact';
import { CAPTURE_FAILED_FILE, CAPTURE_MISSED_FILE, CAPTURE_READY_FILE, CAPTURE_UNWRITTEN_FILE } from './capture/capture-args';
import { deadCompanionPid } from './capture/capture-stopped';
import { findTcpdump } from './capture/tcpdump-path';
import { runDoctor } from './doctor/run-doctor';
import { applyHealth } from '../../shared/health';
import { checkHealth } from './health/check-health';
import { createHealthCache } from './health/health-cache';
import { healthProbes } from './health/probes';
import { listenerSockets } from './host/listener-sockets';
import { createStatusWatch, type StatusWatch } from './health/status-watch';
import { CADENCE_MS } from '../../shared/cadence';

export { INSTALLED_HELPER, INSTALLED_POLICY } from '../helper/installed';

/** Defaults the app passes to every start (from `k2s-dns ui --kubeconfig … --verify-name …`). */
export interface RealBackendOptions {
  deps: LifecycleDeps;
  kubeconfig?: string;
  verifyName?: string;
  /** Override of the helper launcher (tests); default: this process's uid and paths. */
  launcher?: LauncherOptions;
  /** Whether this process can read a path (access(2) R_OK); injected by tests. */
  canRead?: (path: string) => boolean;
  /** What `sudo k2s-dns …` would find is looked up on (cluster/kubeconfig-default.ts kubeconfigForSudo); default: this host and process. Injected by tests. */
  sudoLookup?: SudoLookupHost;
  /**
   * Read the host status and check the path once right away, in the background (the app and
   * `k2s-dns ui` do; tests need not): the window's first `dns:status`, sent while its page
   * still loads, is then answered from memory with a judged verdict, no process spawned for it
   * and no wait for a check (dnsStatus waits up to 300 ms for one, then answers without it).
   */
  warmUp?: boolean;
}

/** access(2) R_OK for this process. */
function readable(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Default launcher: this process's uid and node; as root, the checkout's helper script or, in the
 * package (no bin/ next to dist/), the installed bundle; the privileged path looked for at each call.
 */
export function defaultLauncher(): LauncherOptions {
  const checkout = appPath('bin/k2s-dns-helper.mjs');
  return {
    uid: process.getuid?.() ?? -1,
    nodePath: process.execPath,
    helperScript: existsSync(checkout) ? checkout : INSTALLED_HELPER_BUNDLE,
    installedHelper: INSTALLED_HELPER,
    installGap: () => findInstallGap(),
  };
}

/**
 * The status watch over the real host (health/status-watch.ts): the directories `dnsStatus`
 * reads from, as real paths under the deps' root; /proc for the proxy PID.
 */
export function hostStatusWatch(deps: LifecycleDeps, read: () => Promise<HostDnsStatus>): StatusWatch {
  const real = (p: string) => deps.fs.real(p);
  return createStatusWatch({
    read,
    dirs() {
      const resolv = real(K2S_PATHS.resolvConf);
      const dirs: { dir: string; names?: string[] }[] = [
        { dir: dirname(resolv), names: [basename(resolv)] },
        { dir: real(K2S_PATHS.stateDir) },
        { dir: real(K2S_PATHS.runDir) },
      ];
      try {
        // A symlink (systemd-resolved's stub, NetworkManager's file): its target changes too.
        if (lstatSync(resolv).isSymbolicLink()) {
          const target = realpathSync(resolv);
          dirs.push({ dir: dirname(target), names: [basename(target)] });
        }
      } catch {
        // dangling or absent: the /etc watch sees it come back
      }
      if (deps.services.kind === 'systemd') dirs.push({ dir: real('/run/systemd/units'), names: ['invocation:k2s-dnsproxy.service'] });
      return dirs;
    },
    watch(dir, onEvent) {
      const w = fsWatch(dir, { persistent: false }, (_event, filename) => onEvent(filename === null ? null : String(filename)));
      w.on('error', () => onEvent(null));
      return () => w.close();
    },
    exists: (dir) => existsSync(dir),
    pidAlive: (pid) => existsSync(`/proc/${pid}`),
    now: () => deps.now(),
    maxAgeMs: CADENCE_MS.statusSafety,
  });
}

/** How old a health report may be before the next status read checks again (shared/cadence.ts). */
export function healthMaxAgeMs(status: HostDnsStatus): number {
  return status.state === 'stopped' && status.listeners.length === 0 ? CADENCE_MS.healthStopped : CADENCE_MS.healthActive;
}

/** How soon a root lookup that found no kubeconfig (kubeconfigForSudo: it may run getent) is asked again, ms. */
export const ROOT_LOOKUP_AGAIN_MS = 10_000;

/**
 * The AppBackend over the real host: read-only calls run in this process; start, stop and
 * uninstall run in the privileged helper (electron/helper), whose events are re-emitted to
 * every lifecycle subscriber.
 */
export function createRealBackend(o: RealBackendOptions): AppBackend {
  const deps = o.deps;
  const launcher = o.launcher ?? defaultLauncher();
  const canRead = o.canRead ?? readable;
  const listeners = new Set<(e: LifecycleEvent) => void>();
  const logs = createLogSource(deps.fs.real(K2S_PATHS.log));
  const hostStatus = hostStatusWatch(deps, () => dnsStatus(deps, 'gui'));
  const emit = (e: LifecycleEvent) => {
    // This window's own operation changes the host: the next status read must not be the kept one.
    hostStatus.invalidate();
    listeners.forEach((cb) => cb(e));
  };
  // The kubeconfig is resolved once, here in the user's process (which sees $KUBECONFIG and the
  // user's home), and then kept: the path the window shows (clusterStatus) is the path Start
  // passes to the helper, which runs under pkexec with neither. A lookup that found nothing is
  // not kept, so a kubeconfig that appears later is found at the next call.
  let resolved: Promise<FindKubeconfigResult> | null = null;
  // `asRoot`: with none found here, the kubeconfig the helper's start finds as root by itself
  // (kubeconfigForSudo); `none`: it found none, asked again at most every ROOT_LOOKUP_AGAIN_MS
  // (K2s installed while the window is open: its admin.conf then turns Start on).
  const named: { path: string | null | undefined; asRoot: Promise<string | null>; none: number | null } = { path: undefined, asRoot: Promise.resolve(null), none: null };
  const askRoot = () => {
    const asked = deps.now();
    named.none = null;
    named.asRoot = kubeconfigForSudo(o.sudoLookup).catch(() => null);
    void named.asRoot.then((p) => (named.none = p === null ? asked : null));
  };
  const findKubeconfig = async (): Promise<FindKubeconfigResult> => {
    const lookup = resolved ?? (resolved = kubeconfigOrStarted(deps.fs, o.kubeconfig));
    const found = await lookup;
    if (!found.path && resolved === lookup) resolved = null;
    // Suggested start/zones/doctor commands name it when `sudo k2s-dns …` would find another (the
    // sandbox's); looked at once per path (the lookup may run getent), not at every status poll.
    if (found.path !== named.path) {
      named.path = found.path;
      // The kube-dns hop's `no kubeconfig` only when a start would find none: with none of this
      // user's, `sudo k2s-dns start` may still read K2s's root-only admin.conf (as status says it).
      // Set before any wait: a call meanwhile for the same path waits for this answer.
      if (found.path === null) askRoot();
      else named.asRoot = Promise.resolve(null);
      setCliKubeconfig(await kubeconfigToName(found.path, o.sudoLookup));
      // `su -c '…'` lines name it unless su's root finds it (su sets no SUDO_USER: no caller's file).
      setCliSuKubeconfig(found.path !== null && kubeconfigForSu(o.sudoLookup) === found.path ? null : found.path);
      // Printed kubectl lines (the CoreDNS-down fix) name it always, with sudo when this user cannot read it (walk 10 H1).
      setKubectlKubeconfig(found.path ? { path: found.path, root: !canRead(found.path) } : null);
    } else if (found.path === null && named.none !== null && deps.now() - named.none >= ROOT_LOOKUP_AGAIN_MS) askRoot();
    return found;
  };
  const kubeconfig = async () => (await findKubeconfig()).path;
  const helper = (req: HelperRequest) => runHelper(launcher, req, emit).finally(() => hostStatus.invalidate());
  const linux = process.platform === 'linux';
  const probes = healthProbes(deps);
  // The kubeconfig is looked up first: the verdict's CoreDNS-down commands name it (shared/health.ts corednsCommands).
  // The kube-dns ClusterIP the last cluster discovery (zones:list, the Cluster card's) read: the
  // stopped hop says it as read from the cluster, not as K2s's default (check-health.ts kubeDnsFrom).
  let clusterKubeDns: { kubeconfig: string; ip: string } | null = null;
  const checkWithKubeconfig = async (status: HostDnsStatus) => {
    const found = await findKubeconfig().catch(() => null);
    const read = clusterKubeDns !== null && found?.path === clusterKubeDns.kubeconfig ? { clusterKubeDnsIp: clusterKubeDns.ip } : {};
    // A kube-dns address that is K2s's default says why (no kubeconfig): check-health.ts kubeDnsFrom.
    return checkHealth({ ...probes, status: async () => status }, found ? { kubeconfigFound: found.path !== null || (await named.asRoot) !== null, ...read } : {});
  };
  const health = createHealthCache(checkWithKubeconfig, () => deps.now(), healthMaxAgeMs);

  const exactMemo = createFileMemo<ExactQueryLog>();
  // The exact log's rows parsed once while the panel pages back (rows-index.ts, issue 20).
  const exactIndex = createRowsIndex(OLDER_READ_BYTES);

  const backend: AppBackend = {
    async clusterStatus() {
      const found = await findKubeconfig();
      // None of this user's: Start may still find K2s's root-only admin.conf as root (Start stays on for it).
      return clusterStatus({ kubeconfigPath: found.path, lookup: found, startKubeconfig: found.path === null ? await named.asRoot : null });
    },
    async dnsStatus() {
      // Cheap state first (kept between host changes: health/status-watch.ts); the path verdict
      // is folded in when current (CoreDNS down is never "running").
      const read = await hostStatus.get();
      // Listeners as bound/unbound from the kernel's socket table, in the proxy's network
      // namespace: read at every call (two /proc files, no process), not kept with the status.
      const status = linux && read.listeners.length ? { ...read, listenerSockets: await listenerSockets(read.listeners, read.pid) } : read;
      const report = await health.forStatus(status, 300);
      return report ? applyHealth(status, report, 'gui') : status;
    },
    async healthCheck() {
      return health.check(await dnsStatus(deps));
    },
    async dnsStart(input) {
      // The shown kubeconfig, by path: the helper opens a passed path only if this user could
      // read it (electron/helper/caller-access.ts). One this user cannot read (K2s's root-only
      // /etc/kubernetes/admin.conf) is not passed: the helper's own lookup, the same order with
      // admin.conf first, finds that same file as root.
      const shown = await kubeconfig();
      const k = shown && canRead(shown) ? shown : o.kubeconfig;
      // The contract's Start input, as is, plus what this app was started with.
      return helper({ verb: 'start', ...input, ...(k ? { kubeconfig: k } : {}), ...(o.verifyName ? { verifyName: o.verifyName } : {}) });
    },
    async dnsStop(input) {
      return helper({ verb: 'stop', ...input });
    },
    async dnsUninstall() {
      return helper({ verb: 'uninstall' });
    },
    async zonesList(input) {
      const found = await findKubeconfig();
      if (!found.path) throw NoKubeconfigError.fromLookup(found);
      const discovery = await discoverCluster({ kubeconfigPath: found.path, ...(await hostZonePolicy(deps.fs, input.allowZones ?? [])) });
      clusterKubeDns = discovery.kubeDnsIp ? { kubeconfig: found.path, ip: discovery.kubeDnsIp } : null;
      return discovery;
    },
    async resolverDiff() {
      return resolverDiff(deps);
    },
    async queryRun(input) {
      const { server } = await resolveTarget(deps, input.target);
      if (server === 'system') return deps.systemQuery(input.name, input.type);
      const r = await deps.query({ name: input.name, type: input.type, server, transport: input.transport, timeoutMs: 3000 });
      if (input.target === 'proxy' && (r.rcode === 'TIMEOUT' || r.rcode === 'ERROR') && (await dnsStatus(deps)).state === 'stopped') {
        return { ...r, error: 'K2s DNS is not running, so nothing answers on 127.0.0.1:53: press Start first, or ask another target.' };
      }
      return r;
    },
    async queryTargets() {
      return queryTargets(deps);
    },
    async logsTail(input): Promise<LogLine[]> {
      return logs.tail(input.lines);
    },
    async logsPage(input) {
      return logs.page(input.lines, input.before);
    },
    async logsSearch(input) {
      return logs.search(input.text, input);
    },
    async logsExact(input) {
      const rows = deps.fs.real(K2S_PATHS.queryRows);
      const failed = deps.fs.real(CAPTURE_FAILED_FILE);
      const ready = deps.fs.real(CAPTURE_READY_FILE);
      const unwritten = deps.fs.real(CAPTURE_UNWRITTEN_FILE);
      const missed = deps.fs.real(CAPTURE_MISSED_FILE);
      const engine = (await hostStatus.get()).engine ?? 'adguard';
      const read = () => exactQueryLog(rows, input.rows, engine, findTcpdump, { failed, ready, rows, missed }, input.text ? { text: input.text, probes: input.probes ?? false } : undefined, unwritten, input.before, exactIndex);
      // An open Logs tab asks every 2 s: the same rows are not parsed again while no file changed
      // (a search is always read: it is asked once per filter text).
      // An older page (`before`) is asked once per click or scroll: answered from exactIndex,
      // which parses only what was appended since the last page (the memo keeps the live poll's newest rows).
      if (input.text || input.before !== undefined) return read();
      // A companion killed changes no file (kill -9: capture-stopped.ts), so its liveness is in the key.
      return exactMemo.get([rows, rotatedLogPath(rows), failed, ready, unwritten, missed, startChecksBeside(rows)], `${input.rows} ${engine} ${(await deadCompanionPid(ready)) ?? 'alive'}`, read, (r) => r.available);
    },
    async doctorRun() {
      return runDoctor(deps, { kubeconfigPath: await kubeconfig(), frontEnd: 'gui', ...(o.sudoLookup ? { sudoLookup: o.sudoLookup } : {}), health: async () => health.check(await dnsStatus(deps)) });
    },
    async appInfo() {
      return {
        platform: process.platform,
        lifecycleSupported: linux,
        reason: linux ? null : 'On Windows and macOS the host DNS flow belongs to K2s’s own tooling; this app is read-only here.',
        version: APP_VERSION,
      };
    },
    onLifecycleEvent(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    followLogs(cb, onReset) {
      return logs.follow(cb, onReset);
    },
  };
  if (o.warmUp) void backend.dnsStatus({}).catch(() => undefined);
  return backend;
}
