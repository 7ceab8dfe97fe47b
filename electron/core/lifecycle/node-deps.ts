import { RESOLVER_READ_BYTES } from '../../../shared/network-writer';
import { readFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { connect } from 'node:net';
import type { LifecycleDeps } from './deps';
import type { KubeconfigFile } from '../cluster/kubeconfig-file';
import { createHostFs } from '../host/host-fs-node';
import { nodeExec } from '../host/exec';
import { detectServiceManager } from '../host/detect-service-manager';
import { findPortHolder } from '../host/port-holder';
import type { queryDns as QueryDns } from '../probes/dns-query';
import { systemQuery } from '../probes/system-lookup';
import { gaiLookup, warmLookup } from '../probes/gai-lookup';
import { probeLookup } from '../probes/probe-lookup';
import { hostPaths } from './host-paths';
import { abortableSleep } from './abortable-sleep';
import path from 'node:path';
import { FOLLOW_VERB, supervisedFollower, systemdFollower } from '../host/follower';
import { supervisedCapture, systemdCapture } from '../host/capture-companion';
import { captureProgram } from '../capture/capture-program';
import { packagedLauncher } from '../cli-invocation';
import { pidLive } from '../host/watchdog-restart';
import { fileURLToPath } from 'node:url';
import { findTcpdump } from '../capture/tcpdump-path';
import { glibcResolverText } from '../../../shared/drift-route';

/** Options of createNodeDeps. */
export interface NodeDepsOptions {
  /** A kubeconfig read already (by the helper, with its caller's rights): used for its path. */
  kubeconfig?: KubeconfigFile;
}

/**
 * The composition root for the real host: HostFs on `root` (`/` normally), child processes
 * by argv, systemd or a supervised process, the Kubernetes API, real DNS queries.
 */
export async function createNodeDeps(root = '/', opts: NodeDepsOptions = {}): Promise<LifecycleDeps> {
  const fs = createHostFs(root);
  // The helper's already-read kubeconfig stands for its path: never opened a second time.
  const source = (path: string): string | KubeconfigFile => (opts.kubeconfig?.path === path ? opts.kubeconfig : path);
  const services = await detectServiceManager(fs, nodeExec);
  // Loaded at the first query: dns-packet and the probes are ~110 KB that stop never runs.
  const queryDns: typeof QueryDns = async (q) => (await import('../probes/dns-query')).queryDns(q);
  const deps: LifecycleDeps = {
    fs,
    exec: nodeExec,
    services,
    // Loaded on first use: @kubernetes/client-node costs ~1 s of start-up that stop/status never need.
    discover: async (kubeconfigPath, policy) => (await import('../cluster/discovery')).discoverCluster({ kubeconfigPath, kubeconfig: source(kubeconfigPath), ...policy }),
    query: (opts) => queryDns(opts),
    // getaddrinfo in-process (not `getent`, whose exit status 2 hides EAI_AGAIN behind "not found").
    systemLookup: (name) => gaiLookup(name),
    warmLookup: () => warmLookup(),
    // getent, not Node's lookup: it keeps the health probe's KUBERNETES.DEFAULT spelling on the wire.
    probeLookup: (name, timeoutMs) =>
      probeLookup(name, timeoutMs, {
        exec: nodeExec,
        query: (q) => queryDns(q),
        // As glibc reads it (a line ends at a NUL: shared/drift-route.ts glibcResolverText).
        resolvConfText: async () => glibcResolverText(await fs.readFile('/etc/resolv.conf', { maxBytes: RESOLVER_READ_BYTES })),
      }),
    systemQuery: async (name, type) => {
      if (type !== 'A' && type !== 'AAAA') return systemQuery(name, type, nodeExec);
      const r = await gaiLookup(name);
      return { ...r, type, answers: r.answers.filter((a) => a.type === type) };
    },
    tcpListening: (address, port, timeoutMs) =>
      new Promise((resolve) => {
        const socket = connect({ host: address, port, timeout: timeoutMs });
        const done = (ok: boolean) => {
          socket.destroy();
          resolve(ok);
        };
        socket.once('connect', () => done(true));
        socket.once('timeout', () => done(false));
        socket.once('error', () => done(false));
      }),
    hostAddresses: async () =>
      Object.values(networkInterfaces())
        .flat()
        .filter((a): a is NonNullable<typeof a> => a !== undefined)
        .map((a) => a.address),
    interfaceNames: async () => Object.keys(networkInterfaces()),
    portHolder: (port, proto, address) => findPortHolder(port, proto, address),
    processRunning: (pid) => pidLive(pid),
    // The whole client-side load (file checks, parse, current context, server URL), no request.
    checkKubeconfig: async (path) => {
      (await import('../cluster/kube-client')).openKubeClient(source(path));
    },
    loadClusterClient: async () => {
      await import('../cluster/kube-client');
    },
    mountinfo: () => readFile('/proc/self/mountinfo', 'utf8').catch(() => ''),
    uid: () => process.getuid?.() ?? -1,
    now: () => Date.now(),
    sleep: (ms, signal) => abortableSleep(ms, signal),
    lookupPaths: (opts) => hostPaths(deps, opts),
  };
  // The follower runs this same program (the CLI or the helper entry, both take FOLLOW_VERB)
  // with this node; another entry (Electron's main) has none.
  const entry = process.argv[1] ? path.resolve(process.argv[1]) : '';
  const followerManager = services.kind === 'systemd' ? systemdFollower(fs, nodeExec, services.reload) : supervisedFollower(fs);
  // Any process may look whether it runs (the app's status: walk5 M3, the window never said it died).
  deps.followerWatch = { running: () => followerManager.running!(), pid: () => followerManager.pid!() };
  const here = path.dirname(fileURLToPath(import.meta.url));
  if (/^k2s-dns(-helper)?\.mjs$/.test(path.basename(entry))) {
    // In the package its launcher, like the capture's (capture-program.ts): from the CLI's startup
    // snapshot Debian's Node spends about half the CPU on the follower's start-up (measured on the
    // booted Debian 13 host: 90–130 ms against 180–230 ms from the script), right as start ends.
    const launcher = packagedLauncher(here);
    deps.follower = { manager: followerManager, argv: launcher ? [launcher, FOLLOW_VERB] : [process.execPath, entry, FOLLOW_VERB] };
    // The companion's own bundle next to this code when there is one (capture-program.ts): start waits for its Node start-up.
    deps.capture = { manager: services.kind === 'systemd' ? systemdCapture(fs, nodeExec, undefined, services.reload) : supervisedCapture(fs), argv: captureProgram(process.execPath, entry, here), tcpdump: await findTcpdump() };
  }
  return deps;
}
