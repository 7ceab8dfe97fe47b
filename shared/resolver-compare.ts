/** Comparison of two saved /etc/resolv.conf states (pure; used by the diff panel and drift checks). */
import type { ResolverEntry } from './types';

/** Decoded length in bytes of a base64 string (RFC 4648 §4), without decoding it. */
export function base64ByteLength(b64: string): number {
  const clean = b64.replace(/\s+/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.floor((clean.length * 3) / 4) - padding;
}

const KIND_NAMES = { file: 'regular file', symlink: 'symlink', absent: 'absent' } as const;

const octal = (mode: number): string => mode.toString(8).padStart(4, '0');

/**
 * True when kind, exact bytes / exact link target string, mode and owner match. The immutable
 * flag and the link target's content are not compared: they are not part of the entry itself
 * (lsattr may be unavailable, and the target belongs to whoever owns /run).
 */
export function sameResolver(a: ResolverEntry, b: ResolverEntry): boolean {
  return describeResolverChanges(a, b).length === 0;
}

/**
 * One line per difference, saved → current, e.g. `mode 0644 → 0640`, `owner 0:0 → 1000:1000`,
 * `symlink → regular file`, `link target "../run/x" → "/run/y"`, `content changed (N bytes → M bytes)`.
 */
export function describeResolverChanges(saved: ResolverEntry, current: ResolverEntry): string[] {
  if (saved.kind !== current.kind) return [`${KIND_NAMES[saved.kind]} → ${KIND_NAMES[current.kind]}`];
  const changes: string[] = [];
  if (saved.kind === 'file' && current.kind === 'file') {
    if (saved.contentBase64 !== current.contentBase64) {
      changes.push(
        `content changed (${base64ByteLength(saved.contentBase64)} bytes → ${base64ByteLength(current.contentBase64)} bytes)`,
      );
    }
    if (saved.mode !== current.mode) changes.push(`mode ${octal(saved.mode)} → ${octal(current.mode)}`);
  }
  if (saved.kind === 'symlink' && current.kind === 'symlink' && saved.target !== current.target) {
    changes.push(`link target ${JSON.stringify(saved.target)} → ${JSON.stringify(current.target)}`);
  }
  if (saved.kind !== 'absent' && current.kind !== 'absent' && (saved.uid !== current.uid || saved.gid !== current.gid)) {
    changes.push(`owner ${saved.uid}:${saved.gid} → ${current.uid}:${current.gid}`);
  }
  return changes;
}
