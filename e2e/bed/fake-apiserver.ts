/**
 * A tiny Kubernetes API server for tests and the UI sandbox: serves the recorded objects in
 * `fixtures/k8s` at the paths listed in `fixtures/README.md`, answers everything else with a
 * 404 `Status`, requires the bearer token it writes into its kubeconfig, and can be switched
 * into failure modes (down, unauthorized, garbage, hang).
 *
 * It also serves the cluster-wide LIST and WATCH calls of CoreDNS's `kubernetes` plugin
 * (Services, EndpointSlices, Namespaces; docs/engines.md "CoreDNS API"), optionally on a second, HTTPS
 * listener for CoreDNS's in-cluster config (`tls`).
 *
 * Stand-alone: `npx tsx e2e/bed/fake-apiserver.ts --fixtures fixtures/k8s --kubeconfig-dir DIR
 * [--port N] [--host ADDR]` prints the kubeconfig path and URL and serves until SIGTERM.
 */
import { randomBytes } from 'node:crypto';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import YAML from 'yaml';

/**
 * Failure modes. `down`: the listener is closed and open sockets destroyed (connection refused);
 * `unauthorized`: 401 Status for every request; `garbage`: 200 with a non-JSON body;
 * `hang`: accepts the request and never answers (for client timeouts).
 */
export type FakeApiMode = 'ok' | 'down' | 'unauthorized' | 'garbage' | 'hang';

/** Handle to a running fake API server. */
export interface FakeApiServer {
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  url: string;
  /** Kubeconfig (context `k2s-test`) pointing at `url` with the server's bearer token. */
  kubeconfigPath: string;
  /** The bearer token the server accepts. */
  token: string;
  /** Switches the mode; resolves once the listener is closed (`down`) or listening again. */
  setMode(mode: FakeApiMode): Promise<void>;
  /** The mode now (`ok` while it serves the recorded objects). */
  mode(): FakeApiMode;
  /**
   * Replaces the object served at `apiPath` (e.g. `/api/v1/namespaces/kube-system/configmaps/coredns`,
   * query strings as in fixtures/README.md); `null` removes it so the path answers 404.
   */
  setObject(apiPath: string, json: unknown): void;
  /** Paths (normalised) of every request received so far on the plain listener, in order. */
  requests: string[];
  /** URL of the HTTPS in-cluster listener (`https://ADDR:PORT`), null without `tls`. */
  inClusterUrl: string | null;
  /** Requests on the in-cluster listener (`GET /api/v1/services?watch`), in order. */
  inClusterRequests: string[];
  /** Stops listening and destroys open sockets. */
  close(): Promise<void>;
}

/** Options for startFakeApiServer. `port` 0 (default) picks a free port; `host` defaults to 127.0.0.1. */
export interface FakeApiOptions {
  fixturesDir: string;
  kubeconfigDir: string;
  host?: string;
  port?: number;
  /**
   * A second listener over HTTPS for CoreDNS's in-cluster client (client-go verifies the
   * server against the ca.crt it is given): PEM key and certificate, address (port 0 = free).
   * The mode `down` closes only the plain listener: it is the host's view of the API.
   */
  tls?: { key: string; cert: string; host: string; port?: number };
  /**
   * The log `kubectl logs` gets for a recorded pod (GET …/pods/NAME/log, text/plain), e.g. the
   * test bed's CoreDNS output; absent: that path answers 404 as any unrecorded one.
   */
  podLog?: (namespace: string, pod: string) => Promise<string>;
  /**
   * Answer GETs that carry no Authorization header, as a kube-apiserver with anonymous auth and
   * an RBAC rule letting system:anonymous read does (kube-apiserver --anonymous-auth): kubectl
   * sends no token to an http:// server (client-go clientcmd reads a kubeconfig's credentials
   * only for TLS), so this is how the sandbox's printed kubectl lines reach it. A wrong token is
   * still 401. Also serves the discovery documents kubectl asks first (/api, /apis, /api/v1).
   * Off by default: tests check that K2s DNS sends its token.
   */
  anonymousReads?: boolean;
}

/**
 * Discovery documents kubectl reads before `get`/`logs` (the legacy, non-aggregated forms:
 * meta/v1 APIVersions, APIGroupList, APIResourceList), listing what this server records.
 */
const DISCOVERY: Record<string, unknown> = {
  '/api': { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' }] },
  '/apis': {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [{ name: 'discovery.k8s.io', versions: [{ groupVersion: 'discovery.k8s.io/v1', version: 'v1' }], preferredVersion: { groupVersion: 'discovery.k8s.io/v1', version: 'v1' } }],
  },
  '/api/v1': {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: [
      { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['get', 'list', 'watch'], shortNames: ['po'] },
      { name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] },
      { name: 'services', singularName: 'service', namespaced: true, kind: 'Service', verbs: ['get', 'list', 'watch'], shortNames: ['svc'] },
      { name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap', verbs: ['get', 'list'], shortNames: ['cm'] },
      { name: 'nodes', singularName: 'node', namespaced: false, kind: 'Node', verbs: ['get', 'list'], shortNames: ['no'] },
      { name: 'namespaces', singularName: 'namespace', namespaced: false, kind: 'Namespace', verbs: ['get', 'list', 'watch'], shortNames: ['ns'] },
    ],
  },
  '/apis/discovery.k8s.io/v1': {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: 'discovery.k8s.io/v1',
    resources: [{ name: 'endpointslices', singularName: 'endpointslice', namespaced: true, kind: 'EndpointSlice', verbs: ['get', 'list', 'watch'] }],
  },
};

/** `/api/v1/namespaces/NS/pods/NAME/log` → [NS, NAME], else null. */
function podLogPath(key: string): [string, string] | null {
  const m = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/log$/.exec(key);
  return m ? [m[1]!, m[2]!] : null;
}

/** Recorded object per API path (fixtures/README.md). */
const FIXTURE_ROUTES: Record<string, string> = {
  '/version': 'version.json',
  '/api/v1/nodes': 'nodes.json',
  '/api/v1/namespaces/kube-system/services/kube-dns': 'service-kube-dns.json',
  '/api/v1/namespaces/kube-system/services?labelSelector=k8s-app%3Dkube-dns': 'services-kube-system.json',
  '/api/v1/namespaces/default/services/kubernetes': 'service-kubernetes.json',
  '/api/v1/namespaces/kube-system/configmaps/coredns': 'configmap-coredns.json',
  '/api/v1/namespaces/kube-system/configmaps/kubeadm-config': 'configmap-kubeadm-config.json',
  '/api/v1/namespaces/kube-system/pods?labelSelector=k8s-app%3Dkube-dns': 'pods-coredns.json',
};

/**
 * Cluster-wide lists CoreDNS's kubernetes plugin LISTs and WATCHes (client-go reflector:
 * `?limit=500&resourceVersion=0`, then `?watch=true&resourceVersion=RV…`), each built from
 * recorded objects: a list file, or single objects wrapped into `kind` (docs/engines.md "CoreDNS API").
 */
const CLUSTER_LISTS: Record<string, { file?: string; kind?: string; apiVersion?: string; items?: string[] }> = {
  '/api/v1/namespaces': { file: 'namespaces.json' },
  '/apis/discovery.k8s.io/v1/endpointslices': { file: 'endpointslices.json' },
  '/api/v1/services': {
    kind: 'ServiceList',
    apiVersion: 'v1',
    items: ['service-kubernetes.json', 'service-kube-dns.json', 'service-web-demo.json'],
  },
};

/** resourceVersion of the built lists and of watch bookmarks (newer than every recorded object). */
const LIST_RESOURCE_VERSION = '5200';

/** True for a WATCH request (`watch=true` or `watch=1`, as client-go and kubectl send). */
export function isWatch(target: string): boolean {
  const w = new URL(target, 'http://fake.invalid').searchParams.get('watch');
  return w === 'true' || w === '1';
}

/**
 * Normalises a request target to `pathname[?labelSelector=…]`: clients differ in how they
 * encode `=` in selectors and in which extra parameters they send (e.g. `pretty`).
 */
export function routeKey(target: string): string {
  const url = new URL(target, 'http://fake.invalid');
  const selector = url.searchParams.get('labelSelector');
  const pathname = url.pathname.replace(/\/+$/, '') || '/';
  return selector === null ? pathname : `${pathname}?labelSelector=${encodeURIComponent(selector)}`;
}

/** A Kubernetes `Status` object (meta/v1) as the API server sends with errors. */
function statusObject(code: number, reason: string, message: string, details?: object): object {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code };
}

/** `configmaps "coredns-custom" not found`, the way kube-apiserver words a missing object. */
function notFound(key: string): object {
  const m = /^\/api\/v1\/(?:namespaces\/[^/]+\/)?([a-z]+)\/([^/?]+)$/.exec(key);
  if (!m) return statusObject(404, 'NotFound', 'the server could not find the requested resource');
  const [, kind, name] = m;
  return statusObject(404, 'NotFound', `${kind} "${name}" not found`, { name, kind });
}

/** Starts the server, writes its kubeconfig, resolves once it listens. */
export async function startFakeApiServer(opts: FakeApiOptions): Promise<FakeApiServer> {
  const host = opts.host ?? '127.0.0.1';
  const token = randomBytes(16).toString('hex');
  const objects = new Map<string, unknown>();
  const load = async (file: string): Promise<unknown> => JSON.parse(await readFile(path.join(opts.fixturesDir, file), 'utf8'));
  for (const [key, file] of Object.entries(FIXTURE_ROUTES)) objects.set(routeKey(key), await load(file));
  for (const [key, list] of Object.entries(CLUSTER_LISTS)) {
    objects.set(
      key,
      list.file
        ? await load(list.file)
        : {
            kind: list.kind,
            apiVersion: list.apiVersion,
            metadata: { resourceVersion: LIST_RESOURCE_VERSION },
            items: await Promise.all((list.items ?? []).map(load)),
          },
    );
  }
  let mode: FakeApiMode = 'ok';
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const inClusterRequests: string[] = [];

  const handler = (log: string[]) => (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const key = routeKey(req.url ?? '/');
    const watch = isWatch(req.url ?? '/');
    log.push(watch ? `${key}?watch` : key);
    if (mode === 'hang') return; // the client's own timeout must end this
    const send = (code: number, body: unknown): void => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('<html><body>502 Bad Gateway (captive portal)</body></html>');
      return;
    }
    const anonymous = opts.anonymousReads === true && req.headers.authorization === undefined && req.method === 'GET';
    if (mode === 'unauthorized' || (!anonymous && req.headers.authorization !== `Bearer ${token}`)) {
      send(401, statusObject(401, 'Unauthorized', 'Unauthorized'));
      return;
    }
    if (req.method !== 'GET') {
      send(405, statusObject(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`));
      return;
    }
    const logOf = podLogPath(key);
    const pods = logOf ? (objects.get(routeKey(`/api/v1/namespaces/${logOf[0]}/pods?labelSelector=k8s-app=kube-dns`)) as { items?: { metadata?: { name?: string } }[] } | undefined) : undefined;
    if (logOf && opts.podLog && pods?.items?.some((p) => p.metadata?.name === logOf[1])) {
      void opts.podLog(logOf[0], logOf[1]).then(
        (text) => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end(text);
        },
        (err: Error) => send(500, statusObject(500, 'InternalError', err.message)),
      );
      return;
    }
    const obj = objects.get(key) ?? (opts.anonymousReads ? DISCOVERY[key] : undefined);
    if (obj === undefined) send(404, notFound(key));
    else if (watch && key in CLUSTER_LISTS) {
      // A WATCH with no changes: headers now (client-go waits for them), then the stream stays
      // open until the client's timeoutSeconds or close(); the recorded objects never change.
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      res.flushHeaders();
      const secs = Number(new URL(req.url ?? '/', 'http://fake.invalid').searchParams.get('timeoutSeconds'));
      const timer = setTimeout(() => res.end(), (Number.isFinite(secs) && secs > 0 ? secs : 300) * 1000);
      res.on('close', () => clearTimeout(timer));
    } else send(200, obj);
  };
  const server = http.createServer(handler(requests));
  const track = (set: Set<Socket>) => (s: Socket): void => {
    set.add(s);
    s.on('close', () => set.delete(s));
  };
  server.on('connection', track(sockets));
  const tlsSockets = new Set<Socket>();
  const tlsServer = opts.tls ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, handler(inClusterRequests)) : null;
  tlsServer?.on('connection', track(tlsSockets));
  tlsServer?.on('tlsClientError', () => undefined); // a client hanging up mid-handshake is not an error here

  const listen = (port: number): Promise<void> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });

  await listen(opts.port ?? 0);
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let inClusterUrl: string | null = null;
  if (tlsServer && opts.tls) {
    const { host: tlsHost, port: tlsPort } = opts.tls;
    await new Promise<void>((resolve, reject) => {
      tlsServer.once('error', reject);
      tlsServer.listen(tlsPort ?? 0, tlsHost, () => {
        tlsServer.off('error', reject);
        resolve();
      });
    });
    inClusterUrl = `https://${tlsHost}:${(tlsServer.address() as AddressInfo).port}`;
  }

  await mkdir(opts.kubeconfigDir, { recursive: true });
  const kubeconfigPath = path.join(opts.kubeconfigDir, `k2s-test-${port}.kubeconfig`);
  const kubeconfig = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      // client-node 1.4 refuses http:// unless insecure-skip-tls-verify is set (docs/toolchain.md "@kubernetes/client-node").
      { name: 'k2s-test', cluster: { server: url, 'insecure-skip-tls-verify': true } },
    ],
    users: [{ name: 'k2s-test-admin', user: { token } }],
    contexts: [{ name: 'k2s-test', context: { cluster: 'k2s-test', user: 'k2s-test-admin' } }],
    'current-context': 'k2s-test',
  };
  await writeFile(kubeconfigPath, YAML.stringify(kubeconfig), { mode: 0o600 });

  return {
    url,
    kubeconfigPath,
    token,
    requests,
    inClusterUrl,
    inClusterRequests,
    async setMode(next) {
      const wasDown = mode === 'down';
      mode = next;
      if (next === 'down') await stop();
      else if (wasDown) await listen(port);
    },
    mode: () => mode,
    setObject(apiPath, json) {
      if (json === null) objects.delete(routeKey(apiPath));
      else objects.set(routeKey(apiPath), json);
    },
    async close() {
      await stop();
      if (!tlsServer?.listening) return;
      const closed = new Promise<void>((resolve) => tlsServer.close(() => resolve()));
      for (const s of tlsSockets) s.destroy(); // open WATCH streams would keep close() waiting
      await closed;
    },
  };
}

/** Parses `--fixtures DIR --kubeconfig-dir DIR [--port N] [--host ADDR]`; throws on anything else. */
export function parseCliArgs(argv: readonly string[]): FakeApiOptions {
  const values: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (!flag || !['--fixtures', '--kubeconfig-dir', '--port', '--host'].includes(flag) || value === undefined) {
      throw new Error(
        `Unexpected argument "${flag ?? ''}"; usage: fake-apiserver.ts --fixtures DIR --kubeconfig-dir DIR [--port N] [--host ADDR].`,
      );
    }
    values[flag] = value;
  }
  const fixturesDir = values['--fixtures'];
  const kubeconfigDir = values['--kubeconfig-dir'];
  if (!fixturesDir || !kubeconfigDir) {
    throw new Error('Missing --fixtures or --kubeconfig-dir; give both, e.g. --fixtures fixtures/k8s --kubeconfig-dir "$(mktemp -d)".');
  }
  const port = values['--port'] === undefined ? 0 : Number(values['--port']);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port "${values['--port']}" is not a port number; give 0–65535 (0 picks a free port).`);
  }
  return { fixturesDir, kubeconfigDir, port, ...(values['--host'] ? { host: values['--host'] } : {}) };
}

async function main(): Promise<void> {
  const server = await startFakeApiServer(parseCliArgs(process.argv.slice(2)));
  process.stdout.write(`kubeconfig ${server.kubeconfigPath}\nurl ${server.url}\n`);
  const shutdown = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  });
}
