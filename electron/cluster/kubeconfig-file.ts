import { openSync, fstatSync, readSync, closeSync, constants } from 'node:fs';
import { parse } from 'yaml';
import { NoKubeconfigError } from './errors';

/** Largest kubeconfig read, bytes: real ones are a few KiB; /dev/zero must not eat the host's memory. */
export const MAX_KUBECONFIG_BYTES = 1024 * 1024;

/** Owner and permission bits of the file, for the credential-plugin rule. */
interface FileFacts {
  uid: number;
  mode: number;
}

function refuse(path: string, why: string): NoKubeconfigError {
  return new NoKubeconfigError([path], `The kubeconfig ${path} ${why}`);
}

/**
 * Reads a kubeconfig for the Kubernetes client with the checks a root process needs
 * (k2s-dns start runs as root, and the path can come from an unprivileged caller):
 * a regular file (not a FIFO, device or directory) of at most MAX_KUBECONFIG_BYTES; when
 * `privileged`, no credential plugin (`users[].user.exec` / `auth-provider`: commands the client
 * would run as root) unless the file is root's own (owner uid 0, not group/other-writable).
 * Messages never quote the file's content (it may be a secret the caller cannot read).
 * Throws NoKubeconfigError naming the problem and the fix.
 */
export function readKubeconfig(path: string, privileged: boolean): string {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not hang; fstat on the open fd avoids a swap after the check.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw refuse(path, code === 'ENOENT' ? 'does not exist; pass an existing one with --kubeconfig (K2s writes /etc/kubernetes/admin.conf).' : `cannot be opened (${code}); pass a readable kubeconfig with --kubeconfig.`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw refuse(path, 'is not a regular file; pass the kubeconfig file itself with --kubeconfig.');
    if (st.size > MAX_KUBECONFIG_BYTES) throw refuse(path, `is ${st.size} bytes, more than a kubeconfig (${MAX_KUBECONFIG_BYTES} at most); pass the right file with --kubeconfig.`);
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < st.size) {
      const n = readSync(fd, buf, off, st.size - off, off);
      if (n === 0) break;
      off += n;
    }
    const text = buf.subarray(0, off).toString('utf8');
    if (privileged) checkNoForeignPlugin(path, text, { uid: st.uid, mode: st.mode });
    return text;
  } finally {
    closeSync(fd);
  }
}

/** Keys of `users[].user` that make the client run a command or read a file as root. */
const USER_RISKY_KEYS = ['exec', 'auth-provider', 'token-file', 'client-certificate', 'client-key'] as const;
/** Keys of `clusters[].cluster` that make the client read a file as root. */
const CLUSTER_RISKY_KEYS = ['certificate-authority'] as const;

function riskyKeys(list: unknown, inner: 'user' | 'cluster', keys: readonly string[]): string[] {
  if (!Array.isArray(list)) return [];
  const found: string[] = [];
  for (const entry of list) {
    const obj = (entry as Record<string, unknown> | null)?.[inner];
    if (obj && typeof obj === 'object') for (const k of keys) if (k in obj) found.push(`${inner === 'user' ? 'users' : 'clusters'}[].${inner}.${k}`);
  }
  return found;
}

/**
 * Refuses, in a kubeconfig a non-root user could have written, everything that would make the
 * root process run a command (exec, auth-provider) or read a file the caller names (token-file,
 * certificate and key paths: their bytes could be sent to the caller's server or echoed back).
 * Parsed with YAML merge keys resolved, as client-node's loader resolves them.
 */
function checkNoForeignPlugin(path: string, text: string, facts: FileFacts): void {
  let doc: unknown;
  try {
    doc = parse(text, { merge: true });
  } catch (err) {
    const line = (err as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    throw refuse(path, `is not valid YAML${line ? ` (line ${line})` : ''}; fix the file or pass another with --kubeconfig.`);
  }
  const rootsOwn = facts.uid === 0 && (facts.mode & 0o022) === 0;
  if (rootsOwn) return;
  const d = doc as { users?: unknown; clusters?: unknown } | null;
  const found = [...new Set([...riskyKeys(d?.users, 'user', USER_RISKY_KEYS), ...riskyKeys(d?.clusters, 'cluster', CLUSTER_RISKY_KEYS)])];
  if (found.length > 0) {
    throw refuse(
      path,
      `is not root-owned and uses ${found.join(', ')}; k2s-dns runs as root and will not run a command or read a file that a non-root user named. Use /etc/kubernetes/admin.conf, a root-owned copy (chmod go-w), or embed the data (kubectl config view --raw --flatten).`,
    );
  }
}
