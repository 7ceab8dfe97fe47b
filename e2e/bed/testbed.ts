/**
 * The end-to-end test bed: inside the sandbox made by sandbox.sh it builds the network a
 * K2s host sees (KubeSwitch link, kube-dns ClusterIP, an external upstream), runs real
 * dnsmasq servers as the CoreDNS stand-in and the upstream, serves recorded Kubernetes API
 * objects, and lays out /etc/resolv.conf the way a given host has it. Everything it starts it
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

export type { ResolvLayout, ResolverSnapshotForTest } from './resolv-layout';

/** Repository root (e2e/bed/ → ../..), for the recorded API objects in fixtures/k8s. */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Addresses of the test bed (K2s defaults, DESIGN.md; the upstream is TEST-NET-1, RFC 5737). */
export const TESTBED_ADDRESSES = {
  kubeDns: '172.21.0.10',
  kubernetesService: '172.21.0.1',
  kubeSwitch: '172.19.1.1',
  upstream: '192.0.2.53',
} as const;

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
 * What the external upstream serves: two names under example.test and their LAN PTRs;
 * NXDOMAIN for every other name (`local=/#/`), as a recursive resolver says for names that do
 * not exist — including cluster.local, which only CoreDNS knows.
 */
export const UPSTREAM_RECORDS: DnsmasqRecords = {
  localZones: ['#', 'example.test', '100.51.198.in-addr.arpa'],
  hosts: [
    ['www.example.test', '198.51.100.7'],
    ['mirror.example.test', '198.51.100.8'],
  ],
};

/** Options for startTestbed. */
export interface TestbedOptions {
  /** Assign 172.19.1.1/24 to k2s-proxy0 (default true); false leaves the link without it. */
  kubeSwitch?: boolean;
  /** Layout of /etc/resolv.conf to create (default `file`). */
  resolv?: ResolvLayout;
  /** Recorded API objects (default the repo's fixtures/k8s). */
  fixturesDir?: string;
}

/** A running test bed. */
export interface Testbed {
  /** Kubeconfig for the fake API server (context `k2s-test`). */
  kubeconfigPath: string;
  /** The fake API server, for failure modes and object overrides. */
  api: FakeApiServer;
  addresses: typeof TESTBED_ADDRESSES;
  /** PID of the CoreDNS stand-in, null while stopped. */
  coreDnsPid(): number | null;
  /** PID of the upstream dnsmasq. */
  upstreamPid: number;
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

    const links: LinkChanges = await ensureLinks({
      [KUBESWITCH_LINK]: opts.kubeSwitch === false ? [] : [`${a.kubeSwitch}/24`],
      [UPSTREAM_LINK]: [`${a.kubeDns}/32`, `${a.upstream}/32`],
    });
    undo.push(() => removeLinks(links));

    const upstream = await startDnsmasq({ listenAddress: a.upstream, port: 53, records: UPSTREAM_RECORDS, localTtl: 60 });
    undo.push(() => upstream.stop());

    // CoreDNS's kubernetes plugin answers with `ttl 30` in kubeadm's Corefile.
    const startCore = (): Promise<DnsmasqServer> =>
      startDnsmasq({ listenAddress: a.kubeDns, port: 53, records: COREDNS_RECORDS, localTtl: 30 });
    let coreDns: DnsmasqServer | null = await startCore();
    undo.push(async () => {
      await coreDns?.stop();
      coreDns = null;
    });

    const kubeconfigDir = await mkdtemp(join(tmpdir(), 'k2sdns-kubeconfig-'));
    undo.push(() => rm(kubeconfigDir, { recursive: true, force: true }));
    const api = await startFakeApiServer({ fixturesDir: opts.fixturesDir ?? join(REPO_ROOT, 'fixtures', 'k8s'), kubeconfigDir });
    undo.push(() => api.close());

    let stopped = false;
    return {
      kubeconfigPath: api.kubeconfigPath,
      api,
      addresses: a,
      coreDnsPid: () => coreDns?.pid ?? null,
      upstreamPid: upstream.pid,
      async stopCoreDns() {
        await coreDns?.stop();
        coreDns = null;
      },
      async startCoreDns() {
        if (!coreDns) coreDns = await startCore();
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
