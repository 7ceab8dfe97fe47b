/** Comparison of two saved /etc/resolv.conf states (pure; used by the diff panel and drift checks). */
import type { ResolverEntry } from './types';
import { parseResolvConf } from './resolv-conf';
import { binaryReason } from './diff-texts';

/** Decoded length in bytes of a base64 string (RFC 4648 §4), without decoding it. */
export function base64ByteLength(b64: string): number {
  const clean = b64.replace(/\s+/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.floor((clean.length * 3) / 4) - padding;
}

const KIND_NAMES = { file: 'regular file', symlink: 'symlink', absent: 'absent' } as const;

const octal = (mode: number): string => mode.toString(8).padStart(4, '0');

/** Bytes of base64 text (RFC 4648 §4; atob exists in browsers and Node ≥ 16). */
function bytesOf(b64: string): Uint8Array {
  return Uint8Array.from(atob(b64.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
}

/**
 * What changed between two files' bytes: describeContentChange of their texts, or — when either
 * side is no text (shared/diff-texts.ts binaryReason) — `text → binary (holds NUL bytes), not
 * shown`, never its bytes quoted (walk 8 M2: 64 NUL bytes became one unbreakable run of 64
 * `\u0000` escapes in the stop result and `k2s-dns diff`).
 */
function describeBytesChange(saved: Uint8Array, current: Uint8Array): string {
  const a = binaryReason(saved);
  const b = binaryReason(current);
  if (a === null && b === null) return describeContentChange(new TextDecoder().decode(saved), new TextDecoder().decode(current));
  const side = (reason: string | null) => (reason ? `binary (${reason})` : 'text');
  return `${side(a)} → ${side(b)}, not shown`;
}

/** Lines of `a` not matched by an equal line of `b` (each line of `b` matches once). */
function minus(a: readonly string[], b: readonly string[]): string[] {
  const left = [...b];
  return a.filter((l) => {
    const i = left.indexOf(l);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

/** At most this many changed unknown lines are quoted; the rest are counted. */
const QUOTED_UNKNOWN = 3;

/** `2 added ("port 5353", "hello")`: a count and the first lines, quoted. */
function quoted(verb: string, lines: readonly string[]): string {
  const shown = lines.slice(0, QUOTED_UNKNOWN).map((l) => JSON.stringify(l.slice(0, 80)));
  const more = lines.length > QUOTED_UNKNOWN ? `, ${lines.length - QUOTED_UNKNOWN} more` : '';
  return `${lines.length} ${verb} (${shown.join(', ')}${more})`;
}

/**
 * What changed in a resolv.conf's text, in its directives' words (resolv.conf(5)):
 * `nameserver 192.0.2.53 → 127.0.0.1; search lan → (none)`, or `only comments or spacing` when
 * every nameserver, search domain, option and unknown line is the same. Lines glibc does not
 * read as a directive (an unknown keyword, an indented line, a nameserver that is no address:
 * ResolvConf.unknown) are counted and quoted, e.g. `lines glibc ignores (no resolv.conf(5)
 * directive): 1 added ("port 5353")` — never summed up as "only comments".
 */
export function describeContentChange(savedText: string, currentText: string): string {
  const a = parseResolvConf(savedText);
  const b = parseResolvConf(currentText);
  const list = (v: readonly string[]) => (v.length ? v.join(' ') : '(none)');
  const parts: string[] = [];
  for (const key of ['nameservers', 'search', 'options', 'sortlist'] as const) {
    if (list(a[key]) !== list(b[key])) parts.push(`${key === 'nameservers' ? 'nameserver' : key} ${list(a[key])} → ${list(b[key])}`);
  }
  const added = minus(b.unknown, a.unknown);
  const removed = minus(a.unknown, b.unknown);
  if (added.length || removed.length) {
    parts.push(`lines glibc ignores (no resolv.conf(5) directive): ${[added.length ? quoted('added', added) : '', removed.length ? quoted('removed', removed) : ''].filter(Boolean).join(', ')}`);
  }
  return parts.length ? parts.join('; ') : 'only comments or spacing';
}

/**
 * True when kind, exact bytes / exact link target string, mode and owner match. The immutable
 * flag and the link target's content are not compared: they are not part of the entry itself
 * (lsattr may be unavailable, and the target belongs to whoever owns /run).
 */
export function sameResolver(a: ResolverEntry, b: ResolverEntry): boolean {
  return describeResolverChanges(a, b).length === 0;
}

/**
 * True when `current` is the saved original put back by someone else: a regular file with the
 * same bytes, or a symlink with the same readlink string. Mode and owner are not compared: K2s's
 * own CLI restores the bytes with its umask applied and root as owner (host/k2s-cli-state.ts).
 */
export function originalBack(current: ResolverEntry, saved: ResolverEntry): boolean {
  if (current.kind === 'file' && saved.kind === 'file') return current.contentBase64 === saved.contentBase64;
  if (current.kind === 'symlink' && saved.kind === 'symlink') return current.target === saved.target;
  return false;
}

/**
 * One line per difference, saved → current, e.g. `mode 0644 → 0640`, `owner 0:0 → 1000:1000`,
 * `symlink → regular file`, `link target "../run/x" → "/run/y"`,
 * `content changed: nameserver 1.1.1.1 → 127.0.0.1 (N bytes → M bytes)`, or for a side that is no
 * text `content changed: text → binary (holds NUL bytes), not shown (N bytes → M bytes)`.
 */
export function describeResolverChanges(saved: ResolverEntry, current: ResolverEntry): string[] {
  if (saved.kind !== current.kind) return [`${KIND_NAMES[saved.kind]} → ${KIND_NAMES[current.kind]}`];
  const changes: string[] = [];
  if (saved.kind === 'file' && current.kind === 'file') {
    if (saved.contentBase64 !== current.contentBase64) {
      changes.push(
        `content changed: ${describeBytesChange(bytesOf(saved.contentBase64), bytesOf(current.contentBase64))} (${base64ByteLength(saved.contentBase64)} bytes → ${base64ByteLength(current.contentBase64)} bytes)`,
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
