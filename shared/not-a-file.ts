/**
 * Words for what stands at /etc/resolv.conf (or at its link's end) when it is not a regular
 * file: every place that describes that drift (status, follow, stop, doctor) says the same.
 * Pure module.
 */

/** The kinds of a path that is not a regular file (HostStat's kind and special). */
export interface NotFileKind {
  kind: 'dir' | 'other' | 'symlink';
  special?: 'fifo' | 'socket' | 'char-device' | 'block-device';
}

/** "a directory", "a FIFO (named pipe)", "a socket", "a character device", "a block device", "a special file". */
export function notFileWords(k: NotFileKind): string {
  if (k.kind === 'dir') return 'a directory';
  if (k.kind === 'symlink') return 'a symlink';
  switch (k.special) {
    case 'fifo':
      return 'a FIFO (named pipe)';
    case 'socket':
      return 'a socket';
    case 'char-device':
      return 'a character device';
    case 'block-device':
      return 'a block device';
    default:
      return 'a special file';
  }
}

/** "a FIFO (named pipe): not a resolver file". */
export function notResolverFileWords(k: NotFileKind): string {
  return `${notFileWords(k)}: not a resolver file`;
}

/**
 * A file larger than a resolver file (MAX_RESOLVER_BYTES, shared/network-writer.ts, 64 KiB):
 * "a file of 209715200 bytes: not a resolver file: larger than 64 KiB"; `size` in bytes when known.
 */
export function oversizeResolverWords(size?: number): string {
  return `a file${size !== undefined && size > 0 ? ` of ${size} bytes` : ''}: not a resolver file: larger than 64 KiB`;
}
