/**
 * The floor of start: what start cannot avoid waiting for, each measured alone —
 * the engine from spawn to accepting TCP on its port, one Kubernetes API round trip, and the
 * verify queries (asked in parallel, as verify does).
 */
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { queryDns } from '../../electron/core/probes/dns-query';

/** Resolves true once something accepts TCP on address:port. */
function tcpOpen(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: address, port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** ms from spawning `argv` until it accepts TCP on 127.0.0.1:`port` (polled every 2 ms, 20 s deadline); kills it after. */
export async function engineStartMs(argv: string[], port: number): Promise<number> {
  const t0 = performance.now();
  const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
  try {
    while (!(await tcpOpen('127.0.0.1', port))) {
      if (performance.now() - t0 > 20_000 || child.exitCode !== null) throw new Error(`${argv[0]} did not listen on 127.0.0.1:${port} (exit ${child.exitCode})`);
      await new Promise((r) => setTimeout(r, 2));
    }
    return performance.now() - t0;
  } finally {
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await gone;
  }
}

/** ms of one GET of the kube-dns Service from the API server at `url` with `token`. */
export async function apiRoundTripMs(url: string, token: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${url}/api/v1/namespaces/kube-system/services/kube-dns`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`API answered ${res.status}`);
  return performance.now() - t0;
}

/** ms of verify's queries asked straight at the servers (kube-dns twice, the upstream once), in parallel. */
export async function verifyQueriesMs(kubeDns: string, upstream: string, clusterName: string, externalName: string): Promise<number> {
  const t0 = performance.now();
  await Promise.all([
    queryDns({ name: clusterName, type: 'A', server: kubeDns }),
    queryDns({ name: clusterName, type: 'A', server: kubeDns }),
    queryDns({ name: externalName, type: 'A', server: upstream }),
  ]);
  return performance.now() - t0;
}
