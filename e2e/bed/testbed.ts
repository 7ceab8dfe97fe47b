/**
 * The end-to-end test bed: inside the sandbox made by sandbox.sh it builds the network a
 * K2s host sees (KubeSwitch link, kube-dns ClusterIP, an external upstream), runs real
 * CoreDNS as kube-dns in a pod namespace (coredns-pod.ts; the Corefile of the fixtures'
 * coredns ConfigMap, reading the recorded objects from the fake API server in-cluster), a
 * dnsmasq as the "external" upstream, and lays out /etc/resolv.conf the way a given host has it.
 * Where CoreDNS is not built, a dnsmasq stand-in serves the same names (`kubeDns: 'dnsmasq'`). Everything it starts it
 * stops by PID; everything it adds it removes; /etc/resolv.conf goes back to what it found.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDnsmasq, type DnsmasqRecords, type DnsmasqServer } from './dnsmasq-server';
import { startFakeApiServer, type FakeApiServer } from './fake-apiserver';
import { ensureLinks, KUBESWITCH_LINK, removeLinks, UPSTREAM_LINK, type LinkChanges } from './netns-links';
import {
  applyLayout,
  removeLayoutTargets,
  restoreSnapshot,
  snapshotResolver,
  type ResolvLayout,
  type ResolverSnapshotForTest,
} from './resolv-layout';
import { runCmd } from './run-cmd';
import { startCoreDnsPod, type CoreDnsPod } from './coredns-pod';
import { ENGINE_BIN, engineMissing } from './engines';
import { createPodNetns, type PodNetns } from './pod-netns';
import { makeTestCerts } from './test-ca';

export type { ResolvLayout, ResolverSnapshotForTest } from './resolv-layout';

/** Repository root (e2e/bed/ → ../..), for the recorded API objects in fixtures/k8s. */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Addresses of the test bed (K2s defaults, docs/host-facts.md "K2s values"; the upstream is TEST-NET-1, RFC 5737). */
export const TESTBED_ADDRESSES = {
  kubeDns: '172.21.0.10',
  kubernetesService: '172.21.0.1',
  kubeSwitch: '172.19.1.1',
  upstream: '192.0.2.53',
  /** A LAN printer the "external" nameserver knows (private, outside the cluster CIDRs). */
  lanPrinter: '192.168.1.20',
  /** Bed side of the kube-dns pod's veth; the API server's in-cluster (HTTPS) listener. */
  podGateway: '169.254.21.1',
  /** The KubeSwitch worker's address (addWorker). */
  worker: '172.19.1.50',
} as const;

/** Network namespaces and bed-side links of the kube-dns pod and the worker. */
const KUBEDNS_NETNS = { name: 'k2sdns-kubedns', hostLink: 'k2s-kdns0' } as const;
const WORKER_NETNS = { name: 'k2sdns-worker', hostLink: 'k2s-wk0' } as const;

/** What the CoreDNS stand-in serves: `cluster.local` and the service/pod reverse zones, authoritatively. */
export const COREDNS_RECORDS: DnsmasqRecords = {
  localZones: ['cluster.local', '21.172.in-addr.arpa', '20.172.in-addr.arpa'],
  hosts: [
    ['kubernetes.default.svc.cluster.local', '172.21.0.1'],
    ['kube-dns.kube-system.svc.cluster.local', '172.21.0.10'],
    ['web.demo.svc.cluster.local', '172.21.14.7'],
  ],
  srvs: [
    {
      name: '_dns._udp.kube-dns.kube-system.svc.cluster.local',
      target: 'kube-dns.kube-system.svc.cluster.local',
      port: 53,
      priority: 0,
      weight: 100,
    },
  ],
};

/**
 * What the external upstream serves: names under example.test and their LAN PTRs, and
 * kubernetes.io, start's default external verify name (a TEST-NET-2 address), so a start
 * without --verify-name ends plain OK as on a host that is online (an upstream with no address
 * for it is the warning UPSTREAM_NO_ADDRESS, electron/core/lifecycle/verify.ts);
 * NXDOMAIN for every other name (`local=/#/`), as a recursive resolver says for names that do
 * not exist — including cluster.local, which only CoreDNS knows.
 */
export const UPSTREAM_RECORDS: DnsmasqRecords = {
  localZones: ['#', 'example.test', '100.51.198.in-addr.arpa'],
  hosts: [
    ['www.example.test', '198.51.100.7'],
    ['kubernetes.io', '198.51.100.11'],
    ['mirror.example.test', '198.51.100.8'],
    ['printer.example.test', '192.168.1.20'],
  ],
};

/** The Corefile of fixtures/k8s/configmap-coredns.json, the text discovery reads. */
export async function fixtureCorefile(fixturesDir = join(REPO_ROOT, 'fixtures', 'k8s')): Promise<string> {
  const cm = JSON.parse(await readFile(join(fixturesDir, 'configmap-coredns.json'), 'utf8')) as { data: { Corefile: string } };
  return cm.data.Corefile;
}

/** `base` plus `extra` (each list concatenated); `base` when there is no extra. */
function withRecords(base: DnsmasqRecords, extra: DnsmasqRecords | undefined): DnsmasqRecords {
  if (!extra) return base;
  const out: Record<string, unknown[]> = { ...(base as Record<string, unknown[]>) };
  for (const [k, v] of Object.entries(extra as Record<string, unknown[]>)) out[k] = [...(out[k] ?? []), ...v];
  return out as DnsmasqRecords;
}

/** Options for startTestbed. */
export interface TestbedOptions {
  /** Assign 172.19.1.1/24 to k2s-proxy0 (default true); false leaves the link without it. */
  kubeSwitch?: boolean;
  /** Layout of /etc/resolv.conf to create (default `file`). */
  resolv?: ResolvLayout;
  /** Recorded API objects (default the repo's fixtures/k8s). */
  fixturesDir?: string;
  /**
   * What answers on 172.21.0.10: real `coredns` (default when .tools/bin/coredns is the pinned
   * build) or the `dnsmasq` stand-in (fallback where CoreDNS is not built; TTL 30, same names).
   */
  kubeDns?: 'coredns' | 'dnsmasq';
  /** More names the dnsmasq stand-in serves (host-records give their PTRs too); ignored by real CoreDNS. */
  kubeDnsRecords?: DnsmasqRecords;
  /**
   * The fake API answers GETs without a token (fake-apiserver.ts anonymousReads), so a printed
   * `kubectl --kubeconfig … logs` works as pasted: kubectl sends no token over http. The sandbox's.
   */
  anonymousApiReads?: boolean;
}

/** A network namespace on the KubeSwitch network, like a worker node (addWorker). */
export interface Worker {
  address: string;
  /** `ip netns exec WORKER FILE ARGS` → stdout. */
  exec(file: string, args: readonly string[], timeoutMs?: number): Promise<string>;
}

/** A running test bed. */
export interface Testbed {
  /** Kubeconfig for the fake API server (context `k2s-test`). */
  kubeconfigPath: string;
  /** The fake API server, for failure modes and object overrides. */
  api: FakeApiServer;
  addresses: typeof TESTBED_ADDRESSES;
  /** What serves kube-dns: real CoreDNS or the dnsmasq stand-in. */
  kubeDnsKind: 'coredns' | 'dnsmasq';
  /** PID of kube-dns (CoreDNS or the stand-in), null while stopped. */
  coreDnsPid(): number | null;
  /** CoreDNS's log so far ('' for the stand-in or while stopped). */
  coreDnsLog(): Promise<string>;
  /** The worker namespace on 172.19.1.0/24 (made on first call, removed by stop()). */
  addWorker(): Promise<Worker>;
  /**
   * One more CoreDNS pod (the fixture Corefile, the same in-cluster API) in its own namespace
   * at `address` (e.g. the second kube-dns pod IP 172.20.0.3) with `resolvConf` as its
   * /etc/resolv.conf — what kubelet hands a new pod. Returns once spawned (no readiness wait).
   * The caller must call remove() (kills it by PID, deletes the namespace), in a finally.
   * Throws when the bed runs the dnsmasq stand-in.
   */
  runCoreDnsPod(opts: { resolvConf: string; address: string }): Promise<{ pod: CoreDnsPod; remove(): Promise<void> }>;
  /** PID of the upstream dnsmasq (the sandbox network's nameserver), null while stopped or once killed. */
  upstreamPid(): number | null;
  /** Stops the upstream (192.0.2.53 stops answering: names outside the cluster fail). */
  stopUpstream(): Promise<void>;
  /** Starts it again with the same records, address and TTL (a killed one too); resolves once it answers. */
  startUpstream(): Promise<void>;
  /** Stops the CoreDNS stand-in (kube-dns ClusterIP stops answering). */
  stopCoreDns(): Promise<void>;
  /** Starts it again; resolves once it answers. */
  startCoreDns(): Promise<void>;
  /** lstat kind, readlink, bytes, mode, uid, gid of /etc/resolv.conf now. */
  snapshotResolver(): Promise<ResolverSnapshotForTest>;
  /** Replaces /etc/resolv.conf with another layout. */
  setResolvLayout(layout: ResolvLayout): Promise<void>;
  /** Stops everything it started (by PID), removes links/addresses it added, restores /etc/resolv.conf. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Refuses to touch anything outside the sandbox: K2S_DNS_SANDBOX must be set (sandbox.sh),
 * the namespace must have no default route, and /etc must be a private mount.
 */
export async function assertSandbox(): Promise<void> {
  const fix = 'run it through `npm run test:e2e` (bash e2e/bed/sandbox.sh …), which makes a private network and mount namespace';
  if (process.env.K2S_DNS_SANDBOX !== '1')
    throw new Error(`The test bed changes /etc/resolv.conf and network links and K2S_DNS_SANDBOX is not set; ${fix}.`);
  if ((await runCmd('ip', ['route', 'show', 'default'])).trim() !== '')
    throw new Error(`This network namespace has a default route, so it is not the sandbox's; ${fix}.`);
  const mounts = await readFile('/proc/self/mounts', 'utf8');
  if (!mounts.split('\n').some((l) => l.split(' ')[1] === '/etc'))
    throw new Error(`/etc is not a private mount here, so the real resolver would be changed; ${fix}.`);
}

/** Builds the whole test bed (see the file comment). Throws, after undoing what it did, if any part fails. */
export async function startTestbed(opts: TestbedOptions = {}): Promise<Testbed> {
  await assertSandbox();
  const a = TESTBED_ADDRESSES;
  const undo: (() => Promise<void>)[] = [];
  const undoAll = async (): Promise<void> => {
    // Reverse order: servers before the addresses they listen on, the resolver last.
    while (undo.length > 0) await undo.pop()!();
  };
  try {
    const original = await snapshotResolver();
    undo.push(async () => {
      await restoreSnapshot(original);
      await removeLayoutTargets();
    });
    await applyLayout(opts.resolv ?? 'file');

    let kubeDnsKind = opts.kubeDns;
    if (!kubeDnsKind) {
      const why = await engineMissing('coredns');
      if (why) console.warn(`skipped: real CoreDNS as kube-dns (${why}); the test bed uses the dnsmasq stand-in`);
      kubeDnsKind = why ? 'dnsmasq' : 'coredns';
    }
    const real = kubeDnsKind === 'coredns';
    const links: LinkChanges = await ensureLinks({
      [KUBESWITCH_LINK]: opts.kubeSwitch === false ? [] : [`${a.kubeSwitch}/24`],
      // Real CoreDNS owns 172.21.0.10 in its pod namespace; the stand-in listens here.
      [UPSTREAM_LINK]: real ? [`${a.upstream}/32`] : [`${a.kubeDns}/32`, `${a.upstream}/32`],
    });
    undo.push(() => removeLinks(links));

    // One way to start it, at the bed's start and again after `upstream down` (e2e/sandbox-control.ts).
    const startUp = () => startDnsmasq({ listenAddress: a.upstream, port: 53, records: UPSTREAM_RECORDS, localTtl: 60 });
    let upstream: DnsmasqServer | null = await startUp();
    undo.push(async () => {
      await upstream?.stop();
      upstream = null;
    });

    let pod: PodNetns | null = null;
    if (real) {
      pod = await createPodNetns({ ...KUBEDNS_NETNS, podCidr: `${a.kubeDns}/32`, hostCidr: `${a.podGateway}/32`, podRoutes: ['default'] });
      undo.push(() => pod!.remove());
    }

    const kubeconfigDir = await mkdtemp(join(tmpdir(), 'k2sdns-kubeconfig-'));
    undo.push(() => rm(kubeconfigDir, { recursive: true, force: true }));
    const fixturesDir = opts.fixturesDir ?? join(REPO_ROOT, 'fixtures', 'k8s');
    const certs = real ? await makeTestCerts(a.podGateway) : null;
    let coreDns: { log(): Promise<string>; stop(): Promise<void>; pid: number; running(): boolean } | null = null;
    let lastCoreDnsLog = '';
    // `kubectl logs` of a recorded CoreDNS pod gets the bed's CoreDNS output: while it runs, its
    // log so far; once stopped (`coredns down`), the log it had written until then.
    const podLog = async (): Promise<string> => {
      if (!real) return "The test bed's kube-dns is a dnsmasq stand-in (CoreDNS is not built): there is no CoreDNS log.\n";
      return coreDns ? await coreDns.log() : lastCoreDnsLog;
    };
    const api = await startFakeApiServer({
      fixturesDir,
      kubeconfigDir,
      podLog,
      ...(opts.anonymousApiReads ? { anonymousReads: true } : {}),
      ...(certs ? { tls: { key: certs.serverKey, cert: certs.serverCert, host: a.podGateway } } : {}),
    });
    undo.push(() => api.close());

    const corefile = real ? await fixtureCorefile(fixturesDir) : '';
    /** `running()`: false once it exited, also when killed from outside (a `kill PID` in the sandbox). */
    type KubeDns = { pid: number; stop(): Promise<void>; log(): Promise<string>; running(): boolean };
    const startCore = async (): Promise<KubeDns> => {
      if (!real) {
        // The stand-in, only where CoreDNS is not built: CoreDNS's kubeadm Corefile says `ttl 30`.
        const d: DnsmasqServer = await startDnsmasq({ listenAddress: a.kubeDns, port: 53, records: withRecords(COREDNS_RECORDS, opts.kubeDnsRecords), localTtl: 30 });
        return { pid: d.pid, stop: () => d.stop(), log: async () => '', running: () => d.running() };
      }
      const p: CoreDnsPod = await startCoreDnsPod({
        netns: KUBEDNS_NETNS.name,
        binary: ENGINE_BIN.coredns,
        corefile,
        resolvConf: `nameserver ${a.upstream}\n`,
        api: { host: a.podGateway, port: Number(new URL(api.inClusterUrl!).port), token: api.token, caCert: certs!.caCert },
        readyAddress: a.kubeDns,
      });
      let ended = false;
      void p.exited.then(() => (ended = true));
      return { pid: p.pid, stop: () => p.stop(), log: () => p.log(), running: () => !ended };
    };
    coreDns = await startCore();
    undo.push(async () => {
      await coreDns?.stop();
      coreDns = null;
    });

    let worker: PodNetns | null = null;
    undo.push(async () => {
      await worker?.remove();
      worker = null;
    });

    let stopped = false;
    return {
      kubeconfigPath: api.kubeconfigPath,
      api,
      addresses: a,
      kubeDnsKind,
      coreDnsPid: () => (coreDns?.running() ? coreDns.pid : null),
      coreDnsLog: async () => (await coreDns?.log()) ?? '',
      async runCoreDnsPod({ resolvConf, address }) {
        if (!real) throw new Error('runCoreDnsPod needs real CoreDNS; build it with bash scripts/build-engines.sh');
        const netns = await createPodNetns({ name: 'k2sdns-pod2', hostLink: 'k2s-pod2', podCidr: `${address}/32`, podRoutes: ['default'] });
        try {
          const pod = await startCoreDnsPod({
            netns: netns.name,
            binary: ENGINE_BIN.coredns,
            corefile,
            resolvConf,
            api: { host: a.podGateway, port: Number(new URL(api.inClusterUrl!).port), token: api.token, caCert: certs!.caCert },
            waitFor: 'none',
          });
          return { pod, remove: async () => (await pod.stop(), await netns.remove()) };
        } catch (err) {
          await netns.remove();
          throw err;
        }
      },
      async addWorker() {
        worker ??= await createPodNetns({ ...WORKER_NETNS, podCidr: `${a.worker}/24` });
        return { address: a.worker, exec: worker.exec };
      },
      upstreamPid: () => (upstream?.running() ? upstream.pid : null),
      async stopUpstream() {
        await upstream?.stop();
        upstream = null;
      },
      async startUpstream() {
        if (upstream?.running()) return;
        // Killed from outside (a `kill PID` in the sandbox): its temp dir goes with stop(), then a fresh one.
        await upstream?.stop();
        upstream = await startUp();
      },
      async stopCoreDns() {
        if (coreDns) lastCoreDnsLog = await coreDns.log().catch(() => lastCoreDnsLog);
        await coreDns?.stop();
        coreDns = null;
      },
      async startCoreDns() {
        if (coreDns?.running()) return;
        // Killed from outside (a `kill PID` in the sandbox): keep its log for `kubectl logs`, then a fresh one.
        if (coreDns) lastCoreDnsLog = await coreDns.log().catch(() => lastCoreDnsLog);
        await coreDns?.stop();
        coreDns = await startCore();
      },
      snapshotResolver: () => snapshotResolver(),
      setResolvLayout: (layout) => applyLayout(layout),
      async stop() {
        if (stopped) return;
        stopped = true;
        await undoAll();
      },
    };
  } catch (err) {
    await undoAll();
    throw err;
  }
}
