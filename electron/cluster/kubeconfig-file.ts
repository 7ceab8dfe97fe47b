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

/** Refuses credential plugins in a kubeconfig that a non-root user could have written. */
function checkNoForeignPlugin(path: string, text: string, facts: FileFacts): void {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    const line = (err as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    throw refuse(path, `is not valid YAML${line ? ` (line ${line})` : ''}; fix the file or pass another with --kubeconfig.`);
  }
  const users = (doc as { users?: unknown } | null)?.users;
  const plugins = Array.isArray(users)
    ? users.filter((u) => {
        const user = (u as { user?: Record<string, unknown> } | null)?.user;
        return !!user && (user.exec !== undefined || user['auth-provider'] !== undefined);
      })
    : [];
  const rootsOwn = facts.uid === 0 && (facts.mode & 0o022) === 0;
  if (plugins.length > 0 && !rootsOwn) {
    throw refuse(
      path,
      'uses a credential plugin (users[].user.exec or auth-provider) and is not root-owned; k2s-dns runs as root and will not run a command a non-root user could have put there. Use /etc/kubernetes/admin.conf (client certificates) or a root-owned copy (chmod go-w).',
    );
  }
}
