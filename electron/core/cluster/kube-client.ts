/**
 * Kubernetes API access for discovery and status: loads one kubeconfig with
 * @kubernetes/client-node 1.4, bounds every request with a timeout, and maps the client's
 * failures (fetch errors, ApiException, JSON parse errors) to the typed errors in errors.ts.
 */
import { dirname } from 'node:path';
import { readKubeconfigFile, type KubeconfigFile } from './kubeconfig-file';
import { judgeKubeconfig } from './kubeconfig-guard';
import { ApiException, KubeConfig, newClusters, newContexts, newUsers } from './client-node-parts';
import { boundedHttpLibrary, MAX_RESPONSE_BYTES } from './bounded-http';
import { kubeReads, type CoreReads, type VersionReads } from './kube-api';
import { boundedExecAuth } from './exec-credential';
import {
  ClusterResponseError,
  ClusterUnauthorizedError,
  ClusterUnreachableError,
  NoKubeconfigError,
} from './errors';

/** Default per-request timeout in ms. */
export const DEFAULT_TIMEOUT_MS = 5000;

/** An opened kubeconfig: the current context's API clients plus error-mapping call helpers. */
export interface KubeClient {
  kubeconfigPath: string;
  /** Current context name. */
  context: string;
  /** API server URL of the current context's cluster. */
  apiServer: string;
  core: CoreReads;
  version: VersionReads;
  /** Per-request timeout in ms. */
  timeoutMs: number;
  /** Runs one API call; maps failures to typed errors (`what` names the object for messages). */
  call<T>(what: string, fn: () => Promise<T>): Promise<T>;
  /** Like `call`, but a 404 yields null (for optional objects such as `coredns-custom`). */
  callOptional<T>(what: string, fn: () => Promise<T>): Promise<T | null>;
}

/**
 * Why the client did not load a kubeconfig, without its content: client-node 1.4's messages that
 * name only a field (`clusters[0].name is missing`: config_types.js newClusters, newContexts,
 * newUsers) as they are, `Duplicate cluster: NAME` (config.js loadFromOptions) without the name;
 * any other (it can quote the file's content or a path's error) by its class only.
 */
export function loadFailure(err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  if (/^(?:clusters|contexts|users)\[\d+\](?:\.[a-z-]+)+ is missing$/.test(message)) return message;
  const dup = /^Duplicate (cluster|user|context): /.exec(message);
  if (dup) return `two ${dup[1]}s have the same name`;
  return err instanceof Error ? err.name : 'error';
}

/**
 * Loads a kubeconfig (a path, read here once, or a file already read, e.g. as the helper's
 * caller) and builds clients for its current context.
 * Throws NoKubeconfigError when the file is missing, unparsable, has no current cluster, or
 * names a plain-http server without `insecure-skip-tls-verify` (client-node refuses it).
 */
export function openKubeClient(kubeconfig: string | KubeconfigFile, timeoutMs = DEFAULT_TIMEOUT_MS): KubeClient {
  const file = typeof kubeconfig === 'string' ? readKubeconfigFile(kubeconfig) : kubeconfig;
  const kubeconfigPath = file.path;
  // Parsed once and judged (kubeconfig-guard.ts); the client gets that object, never the text.
  const doc = judgeKubeconfig(file, process.geteuid?.() ?? 0);
  const kc = new KubeConfig();
  try {
    // What KubeConfig.loadFromString does after its yaml.load (client-node 1.4 dist/config.js),
    // with the client's own builders, on the judged object.
    kc.loadFromOptions({
      clusters: newClusters(doc.clusters),
      contexts: newContexts(doc.contexts),
      users: newUsers(doc.users),
      currentContext: doc['current-context'] as string,
    });
    // As loadFromFile does: certificate and key paths are relative to the kubeconfig's folder.
    kc.makePathsAbsolute(dirname(kubeconfigPath));
  } catch (err) {
    throw new NoKubeconfigError(
      [kubeconfigPath],
      `The kubeconfig ${kubeconfigPath} is not one the Kubernetes client can load (${loadFailure(err)}); check it with \`kubectl config view --kubeconfig ${kubeconfigPath}\` or pass another with --kubeconfig.`,
    );
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster) {
    throw new NoKubeconfigError(
      [kubeconfigPath],
      `The kubeconfig ${kubeconfigPath} has no current context with a cluster; set current-context (\`kubectl config use-context\`) or pass another with --kubeconfig.`,
    );
  }
  const apiServer = cluster.server;
  if (apiServer.startsWith('http:') && !cluster.skipTLSVerify) {
    throw new NoKubeconfigError(
      [kubeconfigPath],
      `The kubeconfig ${kubeconfigPath} points at plain-http ${apiServer} without insecure-skip-tls-verify, which the Kubernetes client refuses; use the cluster's https admin kubeconfig.`,
    );
  }
  // The kubeconfig's own auth on every request (exec plugins, tokens, certificates: kube-api.ts),
  // its exec plugin bounded (exec-credential.ts).
  const reads = kubeReads(apiServer, boundedExecAuth(kc, kubeconfigPath), boundedHttpLibrary(timeoutMs));

  const call = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw mapClientError(err, { apiServer, kubeconfigPath, timeoutMs, what });
    }
  };
  return {
    kubeconfigPath,
    context: kc.getCurrentContext(),
    apiServer,
    core: reads.core,
    version: reads.version,
    timeoutMs,
    call,
    async callOptional(what, fn) {
      try {
        return await fn();
      } catch (err) {
        if (err instanceof ApiException && err.code === 404) return null;
        throw mapClientError(err, { apiServer, kubeconfigPath, timeoutMs, what });
      }
    },
  };
}

/** Context for error messages. */
interface CallContext {
  apiServer: string;
  kubeconfigPath: string;
  timeoutMs: number;
  what: string;
}

/** The `message` of a Kubernetes Status body, if the ApiException carries one. */
function statusMessage(body: unknown): string | null {
  let parsed = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return null;
    }
  }
  const message = (parsed as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : null;
}

/** TLS verification failure codes from Node's tls module. */
const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/;

/**
 * Maps an error thrown by client-node (node-fetch FetchError/AbortError, ApiException,
 * SyntaxError from JSON.parse) to a typed cluster error; typed errors pass through.
 */
export function mapClientError(err: unknown, ctx: CallContext): Error {
  if (err instanceof ClusterResponseError || err instanceof ClusterUnreachableError) return err;
  if (err instanceof ClusterUnauthorizedError || err instanceof NoKubeconfigError) return err;
  if (err instanceof ApiException) {
    const code = err.code as number;
    if (code === 401 || code === 403) return new ClusterUnauthorizedError(ctx.apiServer, ctx.kubeconfigPath, code, ctx.what);
    const detail = statusMessage(err.body);
    return new ClusterResponseError(
      `The Kubernetes API server at ${ctx.apiServer} answered HTTP ${code} for ${ctx.what}${detail ? ` (${detail})` : ''}; check that the cluster is fully up (\`kubectl get --raw /readyz\`).`,
    );
  }
  const e = err as { name?: string; type?: string; code?: string; message?: string } | null;
  if (e?.name === 'AbortError' || e?.name === 'TimeoutError') {
    return new ClusterUnreachableError(ctx.apiServer, `did not answer within ${ctx.timeoutMs} ms`, ctx.kubeconfigPath);
  }
  if (e?.name === 'FetchError' && e.type === 'max-size') {
    return new ClusterResponseError(
      `The Kubernetes API server at ${ctx.apiServer} answered ${ctx.what} with more than ${MAX_RESPONSE_BYTES} bytes, which k2s-dns does not read; check that the kubeconfig's server URL points at the API server.`,
    );
  }
  if (e?.name === 'FetchError' && (e.type === 'no-redirect' || e.type === 'invalid-redirect')) {
    return new ClusterResponseError(
      `The Kubernetes API server at ${ctx.apiServer} answered ${ctx.what} with a redirect, which k2s-dns does not follow (it would carry the kubeconfig's credentials to another address); check that the kubeconfig's server URL points at the API server itself.`,
    );
  }
  if (e?.name === 'FetchError' || e?.type === 'system') {
    const code = e.code ?? 'unknown error';
    if (code === 'ECONNREFUSED') return new ClusterUnreachableError(ctx.apiServer, 'refused the connection (ECONNREFUSED)', ctx.kubeconfigPath);
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new ClusterUnreachableError(ctx.apiServer, `could not be resolved (${code})`, ctx.kubeconfigPath);
    if (TLS_CODES.test(code)) {
      return new ClusterUnreachableError(ctx.apiServer, `presented a TLS certificate the kubeconfig's CA does not verify (${code})`, ctx.kubeconfigPath);
    }
    return new ClusterUnreachableError(ctx.apiServer, `could not be reached (${code})`, ctx.kubeconfigPath);
  }
  if (err instanceof SyntaxError) {
    return new ClusterResponseError(
      `The Kubernetes API server at ${ctx.apiServer} answered ${ctx.what} with something that is not JSON; check that the kubeconfig's server URL points at the API server, not a proxy or web page.`,
    );
  }
  // The raw message is not echoed: it can carry header values built from files the kubeconfig
  // names (a token), and this runs as root for an unprivileged caller. Name and code only.
  const what = [e?.name, e?.code].filter(Boolean).join(' ') || 'unknown error';
  return new ClusterResponseError(
    `Reading ${ctx.what} from the Kubernetes API server failed (${what}); check the kubeconfig's server and credentials, and the cluster with \`kubectl get --raw /readyz\`.`,
  );
}
