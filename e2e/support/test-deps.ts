import { afterEach } from 'vitest';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LifecycleDeps } from '../../electron/core/lifecycle/deps';
import type { ServiceManager, ServiceSpec } from '../../electron/core/host/service-manager';
import type { ClusterDiscovery, QueryResult } from '../../shared/types';
import { createHostFs } from '../../electron/core/host/host-fs-node';
import { nodeExec } from '../../electron/core/host/exec';
import { CAPTURE_READY_FILE } from '../../electron/core/capture/capture-args';

/** Discovery as the fixtures' K2s-like cluster gives it. */
export const FIXTURE_DISCOVERY: ClusterDiscovery = {
  kubeconfigPath: '/etc/kubernetes/admin.conf',
  context: 'k2s-test',
  apiServer: 'http://127.0.0.1:6443',
  kubeDnsIp: '172.21.0.10',
  kubernetesServiceIp: '172.21.0.1',
  clusterDomain: 'cluster.local',
  serviceCidrs: ['172.21.0.0/16'],
  podCidrs: ['172.20.0.0/16'],
  cidrSource: 'kubeadm-config',
  zones: [
    { zone: 'cluster.local', upstream: '172.21.0.10', source: 'corefile', reason: 'Corefile server block ".:53", plugin "kubernetes"', clusterDomain: true, reverse: false },
    { zone: '21.172.in-addr.arpa', upstream: '172.21.0.10', source: 'cidr', reason: 'service CIDR 172.21.0.0/16', clusterDomain: false, reverse: true },
    { zone: '20.172.in-addr.arpa', upstream: '172.21.0.10', source: 'cidr', reason: 'pod CIDR 172.20.0.0/16', clusterDomain: false, reverse: true },
  ],
  warnings: [],
};

/** An in-memory service manager: records specs, `running` flips on start/stop. */
export class FakeServices implements ServiceManager {
  readonly kind = 'supervised' as const;
  running = false;
  started: ServiceSpec[] = [];
  stops = 0;
  /** When set, start "succeeds" but the process exits at once. */
  exitsImmediately = false;
  async start(spec: ServiceSpec) {
    this.started.push(spec);
    this.running = !this.exitsImmediately;
    return { pid: 4242 };
  }
  async stop() {
    this.stops++;
    this.running = false;
  }
  async status() {
    return { running: this.running, pid: this.running ? 4242 : null };
  }
}

function result(name: string, server: string, rcode: string, data: string[]): QueryResult {
  return { name, type: 'A', server, transport: 'udp', rcode, answers: data.map((d) => ({ name, type: 'A', ttl: 30, data: d })), latencyMs: 1 };
}

/** A temp root with /etc, /run, /var and a test-controlled world of DNS answers. */
export async function makeTestHost(resolvConf = 'nameserver 192.0.2.53\nsearch corp.example\n') {
  const root = await mkdtemp(join(tmpdir(), 'k2s-dns-lifecycle-'));
  for (const d of ['etc', 'run', 'var/lib', 'var/log', 'usr/sbin']) await mkdir(join(root, d), { recursive: true });
  await writeFile(join(root, 'etc/resolv.conf'), resolvConf, { mode: 0o644 });
  await writeFile(join(root, 'usr/sbin/dnsmasq'), '#!/bin/sh\n', { mode: 0o755 });
  // dnsmasq-base's system user beside it, as on Debian 13 (its postinst creates it): dnsmasq drops to it.
  await writeFile(join(root, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\ndnsmasq:x:994:65534:dnsmasq:/var/lib/misc:/usr/sbin/nologin\n', { mode: 0o644 });
  const services = new FakeServices();
  const world = {
    discovery: FIXTURE_DISCOVERY as ClusterDiscovery | Error,
    systemAnswer: '172.21.0.1' as string | null,
    portHolder: null as { pid: number; command: string; unit?: string } | null,
    uid: 0,
    hostAddresses: ['127.0.0.1'],
  };
  const deps: LifecycleDeps = {
    fs: createHostFs(root),
    exec: nodeExec,
    services,
    discover: async () => {
      if (world.discovery instanceof Error) throw world.discovery;
      return world.discovery;
    },
    query: async ({ name, server }) => {
      if (server.startsWith('127.0.0.1') && !services.running) return { ...result(name, server, 'TIMEOUT', []), error: 'no answer' };
      // DNS names compare case-insensitively (RFC 4343): the health probes ask KUBERNETES.DEFAULT.svc.….
      if (name.toLowerCase().startsWith('kubernetes.default.svc.')) return result(name, server, 'NOERROR', ['172.21.0.1']);
      return result(name, server, 'NOERROR', ['198.51.100.7']);
    },
    systemLookup: async (name) => result(name, 'system', world.systemAnswer ? 'NOERROR' : 'NXDOMAIN', world.systemAnswer ? [world.systemAnswer] : []),
    probeLookup: async (name) => result(name, 'system', world.systemAnswer ? 'NOERROR' : 'NXDOMAIN', world.systemAnswer ? [world.systemAnswer] : []),
    tcpListening: async () => services.running,
    systemQuery: async (name, type) => ({ ...result(name, 'system', world.systemAnswer ? 'NOERROR' : 'NXDOMAIN', world.systemAnswer ? [world.systemAnswer] : []), type }),
    hostAddresses: async () => world.hostAddresses,
    interfaceNames: async () => ['lo', 'eth0'],
    portHolder: async () => world.portHolder,
    mountinfo: async () => '',
    checkKubeconfig: async () => undefined,
    uid: () => world.uid,
    now: () => Date.now(),
    sleep: async () => undefined,
  };
  return { root, deps, services, world, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** Start options the temp-root lifecycle tests share (the fixture cluster's admin kubeconfig). */
export const TEST_START_OPTS = { kubeconfigPath: '/etc/kubernetes/admin.conf', verifyExternalName: 'www.example.test' };

/**
 * makeTestHost whose hosts are removed after each test: registers an afterEach hook, so call it
 * once at a test file's top level; returns the function that makes a host.
 */
export function trackedHosts(): (resolvConf?: string) => ReturnType<typeof makeTestHost> {
  const hosts: Array<{ cleanup: () => Promise<unknown> }> = [];
  afterEach(async () => {
    for (const h of hosts.splice(0)) await h.cleanup();
  });
  return async (resolvConf) => {
    const h = await makeTestHost(resolvConf);
    hosts.push(h);
    return h;
  };
}

/**
 * Turns the exact query log on for a test host: a stand-in companion (LifecycleDeps.capture) whose
 * start only writes the ready file (PID 4242) and whose stop removes it; tcpdump "installed".
 */
export function withStandInCapture(h: Awaited<ReturnType<typeof makeTestHost>>): void {
  h.deps.capture = {
    argv: ['/usr/bin/node', '/usr/lib/k2s-dns/k2s-dns.mjs', 'capture-watch'],
    tcpdump: '/usr/bin/tcpdump',
    manager: {
      start: async () => h.deps.fs.writeFileAtomic(CAPTURE_READY_FILE, '4242\n', { mode: 0o644 }),
      stop: async () => h.deps.fs.remove(CAPTURE_READY_FILE),
    },
  };
}
