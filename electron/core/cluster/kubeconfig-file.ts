import { openSync, fstatSync, readSync, closeSync, constants } from 'node:fs';
import { NoKubeconfigError, refuseKubeconfig } from './errors';
import { judgeKubeconfig, type KubeconfigDoc, type KubeconfigFile } from './kubeconfig-guard';

/** Largest kubeconfig read, bytes: real ones are a few KiB; /dev/zero must not eat the host's memory. */
export const MAX_KUBECONFIG_BYTES = 1024 * 1024;

export type { KubeconfigFile } from './kubeconfig-guard';

/** open(2) of the kubeconfig failed (ENOENT, EACCES, ELOOP...): `errno` names why. */
export class KubeconfigOpenError extends NoKubeconfigError {
  constructor(
    path: string,
    readonly errno: string | undefined,
  ) {
    super([path], `The kubeconfig ${path} ${errno === 'ENOENT' ? 'does not exist; pass an existing one with --kubeconfig (K2s writes /etc/kubernetes/admin.conf).' : `cannot be opened (${errno}); pass a readable kubeconfig with --kubeconfig.`}`);
  }
}

/**
 * Opens `path` once (symlinks followed: ~/.kube/config is often one, and the permission check
 * is the kernel's for the opening process) and reads it through that fd: a regular file (not a
 * FIFO, device or directory) of at most MAX_KUBECONFIG_BYTES. `noFollow`: a link as the last
 * component is refused (O_NOFOLLOW), for a path already resolved.
 * Throws NoKubeconfigError; `errno` of a failed open is kept in the message (ENOENT, EACCES).
 */
export function readKubeconfigFile(path: string, noFollow = false): KubeconfigFile {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not hang; O_NOCTTY: a tty path must not become ours.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (noFollow ? constants.O_NOFOLLOW : 0));
  } catch (err) {
    throw new KubeconfigOpenError(path, (err as NodeJS.ErrnoException).code);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw refuseKubeconfig(path, 'is not a regular file; pass the kubeconfig file itself with --kubeconfig.');
    if (st.size > MAX_KUBECONFIG_BYTES) throw refuseKubeconfig(path, `is ${st.size} bytes, more than a kubeconfig (${MAX_KUBECONFIG_BYTES} at most); pass the right file with --kubeconfig.`);
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < st.size) {
      const n = readSync(fd, buf, off, st.size - off, off);
      if (n === 0) break;
      off += n;
    }
    return { path, text: buf.subarray(0, off).toString('utf8'), uid: st.uid, mode: st.mode };
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads and judges a kubeconfig for a process running with effective uid `euid`: the parsed
 * document the Kubernetes client must be built from (kube-client.ts), never the text again.
 * The rules are judgeKubeconfig's (kubeconfig-guard.ts). Throws NoKubeconfigError.
 */
export function readKubeconfig(path: string, euid: number): KubeconfigDoc {
  return judgeKubeconfig(readKubeconfigFile(path), euid);
}
