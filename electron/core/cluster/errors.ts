/**
 * Typed errors of cluster access. Each message names the cause and the fix in one sentence,
 * so the CLI can print it and the UI can show it unchanged; `code` travels across IPC.
 */
import type { ErrorCode } from '../../../shared/error-codes';
import { appKubeconfigClause, asRootWays, clusterRunningHint, shellWord } from '../../../shared/fix';
import type { UnreadableKubeconfig } from './kubeconfig';

/** Error codes as they cross the IPC/web boundary (shared/error-codes.ts). */
export type ClusterErrorCode = Extract<ErrorCode, 'CLUSTER_UNREACHABLE' | 'CLUSTER_UNAUTHORIZED' | 'NO_KUBECONFIG' | 'CLUSTER_BAD_RESPONSE'>;

/** Base class of all cluster access errors. */
export abstract class ClusterError extends Error {
  abstract readonly code: ClusterErrorCode;
}

/**
 * The API server refused the connection, could not be resolved, or did not answer in time.
 * `kubeconfigPath`: the kubeconfig that named it, so the question at the end names the sandbox's
 * test API only when it is that one (shared/fix.ts clusterRunningHint).
 */
export class ClusterUnreachableError extends ClusterError {
  readonly code = 'CLUSTER_UNREACHABLE';
  constructor(
    readonly apiServer: string,
    readonly detail: string,
    kubeconfigPath?: string,
  ) {
    super(`The Kubernetes API server at ${apiServer} ${detail}; ${clusterRunningHint(kubeconfigPath)}`);
    this.name = 'ClusterUnreachableError';
  }
}

/** The API server answered 401/403: the kubeconfig's credentials are missing, expired or lack rights. */
export class ClusterUnauthorizedError extends ClusterError {
  readonly code = 'CLUSTER_UNAUTHORIZED';
  constructor(
    readonly apiServer: string,
    readonly kubeconfigPath: string,
    readonly status: 401 | 403,
    readonly what: string,
  ) {
    super(
      status === 401
        ? `The Kubernetes API server at ${apiServer} rejected the credentials in ${kubeconfigPath} (401 Unauthorized) while reading ${what}; use a current admin kubeconfig (e.g. /etc/kubernetes/admin.conf) with --kubeconfig.`
        : `The user in ${kubeconfigPath} may not read ${what} (403 Forbidden from ${apiServer}); use an admin kubeconfig (e.g. /etc/kubernetes/admin.conf) with --kubeconfig.`,
    );
    this.name = 'ClusterUnauthorizedError';
  }
}

/** No kubeconfig file was found, or the one given cannot be loaded. */
export class NoKubeconfigError extends ClusterError {
  readonly code = 'NO_KUBECONFIG';
  constructor(
    readonly tried: string[],
    reason?: string,
  ) {
    super(
      reason ??
        `No kubeconfig found${tried.length ? ` (tried ${tried.join(', ')})` : ''}; pass --kubeconfig PATH${forApp(' (', ')')} or set KUBECONFIG to the cluster's admin kubeconfig.`,
    );
    this.name = 'NoKubeconfigError';
  }

  /**
   * The error for a failed lookup: an explicit path that does not exist is named as such. With
   * `verb` (the CLI command that looked, e.g. `zones`), a tried file that exists but this user
   * may not read (locateKubeconfig's `unreadable`) is named as such, with that command as root
   * naming it (shared/fix.ts asRootWays: sudo, or su -c); without `verb` (the window, whose Start
   * reads a root-only admin.conf as root: shared/root-kubeconfig.ts) the message is as before.
   */
  static fromLookup(found: { tried: string[]; explicit: boolean; unreadable?: UnreadableKubeconfig[] }, verb?: string): NoKubeconfigError {
    const locked = verb !== undefined ? found.unreadable?.[0] : undefined;
    if (locked) {
      const who = locked.rootOwned ? 'only root can read it' : 'this user may not read it';
      const asRoot = `run ${verb} ${asRootWays(`${verb} --kubeconfig ${shellWord(locked.path)}`)}`;
      return found.explicit
        ? new NoKubeconfigError(found.tried, `The kubeconfig ${locked.path} exists, but ${who}; ${asRoot}.`)
        : new NoKubeconfigError(found.tried, `No kubeconfig this user can read (tried ${found.tried.join(', ')}): ${locked.path} exists, but ${who}; ${asRoot}, or pass --kubeconfig with one you can read.`);
    }
    return found.explicit
      ? new NoKubeconfigError(found.tried, `The kubeconfig ${found.tried[0]} does not exist; check the path (--kubeconfig${forApp('; ', '')}).`)
      : new NoKubeconfigError(found.tried);
  }
}

/** `before` + the app's way to take a kubeconfig (shared/fix.ts appKubeconfigClause) + `after`, or '' under a wrapper (none leads out of it). */
function forApp(before: string, after: string): string {
  const clause = appKubeconfigClause();
  return clause === null ? '' : `${before}${clause}${after}`;
}

/** The NoKubeconfigError for the file at `path`: `why` names the problem and the fix, never its content. */
export function refuseKubeconfig(path: string, why: string): NoKubeconfigError {
  return new NoKubeconfigError([path], `The kubeconfig ${path} ${why}`);
}

/** The API server answered something that is not the expected Kubernetes object (non-JSON, wrong shape, missing object). */
export class ClusterResponseError extends ClusterError {
  readonly code = 'CLUSTER_BAD_RESPONSE';
  constructor(message: string) {
    super(message);
    this.name = 'ClusterResponseError';
  }
}
