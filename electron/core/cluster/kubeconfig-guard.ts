/**
 * The foreign-plugin guard: parses a kubeconfig ONCE, with the parser @kubernetes/client-node
 * 1.4 itself uses (js-yaml `load`, default schema: KubeConfig.loadFromString in
 * client-node/dist/config.js), and judges the resulting object, which is then the only thing
 * the client is built from. A second parser would disagree on some spelling (YAML's explicit
 * keys `? [exec]` are "[ exec ]" to the `yaml` package and "exec" to js-yaml); one object
 * leaves nothing to disagree on.
 */
import { load } from 'js-yaml';
import { refuseKubeconfig } from './errors';

/**
 * One kubeconfig as read through ONE file descriptor: its bytes and the owner and mode that
 * fstat(2) reported for that same descriptor (so a rename or symlink swap after the open
 * cannot pair one file's owner with another file's content).
 */
export interface KubeconfigFile {
  path: string;
  text: string;
  /** st_uid of the opened file. */
  uid: number;
  /** st_mode of the opened file (type and permission bits). */
  mode: number;
}

/** A kubeconfig as js-yaml parsed it: a mapping (or whatever the file held: null, a list). */
export type KubeconfigDoc = Record<string, unknown>;

/**
 * Keys of `users[].user` that make the client run a command or read a file (client-node 1.4
 * config_types.js userIterator/findToken, exec_auth.js, file_auth.js, oidc/azure/gcp auth).
 */
export const USER_RISKY_KEYS = ['exec', 'auth-provider', 'token-file', 'client-certificate', 'client-key'] as const;
/** Keys of `clusters[].cluster` that make the client read a file (config_types.js clusterIterator). */
export const CLUSTER_RISKY_KEYS = ['certificate-authority'] as const;
/** Keys of `users[].user` that make the client run a command as the calling user. */
const USER_COMMAND_KEYS = ['exec', 'auth-provider'] as const;

/** Parses as the client does; the error names only the line, never the content. */
export function parseKubeconfig(path: string, text: string): KubeconfigDoc {
  try {
    const doc = load(text);
    return (doc && typeof doc === 'object' ? doc : {}) as KubeconfigDoc;
  } catch (err) {
    const line = (err as { mark?: { line?: number } }).mark?.line;
    throw refuseKubeconfig(path, `is not valid YAML${line !== undefined ? ` (line ${line + 1})` : ''}; fix the file or pass another with --kubeconfig.`);
  }
}

/** `list[].inner.KEY` paths present in `doc` for the given keys (own or inherited: `in`). */
function present(list: unknown, inner: 'user' | 'cluster', keys: readonly string[]): string[] {
  if (!Array.isArray(list)) return [];
  const found: string[] = [];
  for (const entry of list) {
    const obj = (entry as Record<string, unknown> | null)?.[inner];
    if (obj && typeof obj === 'object') for (const k of keys) if (k in obj) found.push(`${inner === 'user' ? 'users' : 'clusters'}[].${inner}.${k}`);
  }
  return [...new Set(found)];
}

/**
 * Every key of the parsed document that makes the client run a command or read a file,
 * as `users[].user.exec`-style paths, deduplicated, in USER_RISKY_KEYS/CLUSTER_RISKY_KEYS order.
 */
export function riskyKeys(doc: KubeconfigDoc): string[] {
  return [...present(doc.users, 'user', USER_RISKY_KEYS), ...present(doc.clusters, 'cluster', CLUSTER_RISKY_KEYS)];
}

/**
 * Parses `file` once and judges the object for a process with effective uid `euid`:
 * - as root (k2s-dns start; the path can come from an unprivileged caller): no credential
 *   plugin (`exec`, `auth-provider`) and no file reference (`token-file`, certificate and key
 *   paths: their bytes could be sent to the file's server) unless the file is root's own
 *   (owner uid 0, not group/other-writable);
 * - in every other process (a web-mode caller once made the UI load another user's
 *   kubeconfig and run its plugin): `exec` / `auth-provider` only from a file owned by root or
 *   by `euid` itself that no one else can write; a user's own plugins still run, as with kubectl.
 * Returns the judged object; throws NoKubeconfigError naming the keys and the fix.
 */
export function judgeKubeconfig(file: KubeconfigFile, euid: number): KubeconfigDoc {
  const doc = parseKubeconfig(file.path, file.text);
  const othersCanWrite = (file.mode & 0o022) !== 0;
  if (euid === 0) {
    if (file.uid === 0 && !othersCanWrite) return doc;
    const found = riskyKeys(doc);
    if (found.length > 0) {
      throw refuseKubeconfig(
        file.path,
        `is not root-owned${file.uid === -1 ? ' as far as root can tell (it lies in a directory a non-root user can change, or is not a regular file root could open itself)' : ''} and uses ${found.join(', ')}; k2s-dns runs as root and will not run a command or read a file that a non-root user named. Use /etc/kubernetes/admin.conf, a root-owned copy (chmod go-w) in a directory only root can change, or embed the data (kubectl config view --raw --flatten).`,
      );
    }
    return doc;
  }
  if ((file.uid === 0 || file.uid === euid) && !othersCanWrite) return doc;
  const found = present(doc.users, 'user', USER_COMMAND_KEYS);
  if (found.length > 0) {
    throw refuseKubeconfig(
      file.path,
      `uses ${found.join(', ')} but is owned by uid ${file.uid}${othersCanWrite ? ' and writable by others' : ''}; k2s-dns runs a credential plugin only from your own or root's kubeconfig that no one else can write (chmod go-w).`,
    );
  }
  return doc;
}
