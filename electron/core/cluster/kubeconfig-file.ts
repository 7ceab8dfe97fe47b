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
 * Reads a kubeconfig for the Kubernetes client as a process running with effective uid
 * `euid`: a regular file (not a FIFO, device or directory) of at most MAX_KUBECONFIG_BYTES.
 * As root (k2s-dns start; the path can come from an unprivileged caller): no credential plugin
 * (`users[].user.exec` / `auth-provider`: commands the client would run as root) and no file
 * reference unless the file is root's own (owner uid 0, not group/other-writable).
 * In every other process too (a web-mode caller made the UI load another user's
 * kubeconfig and run its plugin): `exec` / `auth-provider` only from a file owned by root or
 * by `euid` itself that no one else can write; a user's own plugins still run, as with kubectl.
 * Messages never quote the file's content (it may be a secret the caller cannot read).
 * Throws NoKubeconfigError naming the problem and the fix.
 */
export function readKubeconfig(path: string, euid: number): string {
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
    if (euid === 0) checkNoForeignPlugin(path, text, { uid: st.uid, mode: st.mode });
    else checkOwnPlugin(path, text, { uid: st.uid, mode: st.mode }, euid);
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
  const doc = parseYaml(path, text);
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

/** Parses with merge keys resolved; the error names only the line, never the content. */
function parseYaml(path: string, text: string): unknown {
  try {
    return parse(text, { merge: true });
  } catch (err) {
    const line = (err as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    throw refuse(path, `is not valid YAML${line ? ` (line ${line})` : ''}; fix the file or pass another with --kubeconfig.`);
  }
}

/** Keys of `users[].user` that make the client run a command as the calling user. */
const USER_COMMAND_KEYS = ['exec', 'auth-provider'] as const;

/**
 * A non-root process runs a credential plugin only from a file that root or the caller owns and
 * nobody else can write: another local user's kubeconfig must not run commands as this user.
 */
function checkOwnPlugin(path: string, text: string, facts: FileFacts, euid: number): void {
  const trusted = (facts.uid === 0 || facts.uid === euid) && (facts.mode & 0o022) === 0;
  if (trusted) return;
  const d = parseYaml(path, text) as { users?: unknown } | null;
  const found = [...new Set(riskyKeys(d?.users, 'user', USER_COMMAND_KEYS))];
  if (found.length > 0) {
    throw refuse(
      path,
      `uses ${found.join(', ')} but is owned by uid ${facts.uid}${(facts.mode & 0o022) !== 0 ? ' and writable by others' : ''}; k2s-dns runs a credential plugin only from your own or root's kubeconfig that no one else can write (chmod go-w).`,
    );
  }
}
