import { readFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { connect } from 'node:net';
import type { LifecycleDeps } from './deps';
import { createHostFs } from '../host/host-fs-node';
import { nodeExec } from '../host/exec';
import { detectServiceManager } from '../host/service-manager';
import { findPortHolder } from '../host/port-holder';
import { queryDns } from '../probes/dns-query';
import { systemLookup, systemQuery } from '../probes/system-lookup';

/**
 * The composition root for the real host: HostFs on `root` (`/` normally), child processes
 * by argv, systemd or a supervised process, the Kubernetes API, real DNS queries.
 */
export async function createNodeDeps(root = '/'): Promise<LifecycleDeps> {
  const fs = createHostFs(root);
  const services = await detectServiceManager(fs, nodeExec);
  return {
    fs,
    exec: nodeExec,
    services,
    // Loaded on first use: @kubernetes/client-node costs ~1 s of start-up that stop/status never need.
    discover: async (kubeconfigPath) => (await import('../cluster/discovery')).discoverCluster({ kubeconfigPath }),
    query: (opts) => queryDns(opts),
    systemLookup: (name) => systemLookup(name, nodeExec),
    systemQuery: (name, type) => systemQuery(name, type, nodeExec),
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
    // The whole client-side load (file checks, parse, current context, server URL), no request.
    checkKubeconfig: async (path) => {
      (await import('../cluster/kube-client')).openKubeClient(path);
    },
    mountinfo: () => readFile('/proc/self/mountinfo', 'utf8').catch(() => ''),
    uid: () => process.getuid?.() ?? -1,
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}
