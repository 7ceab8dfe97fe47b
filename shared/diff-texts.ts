/**
 * The two texts a resolver diff compares, as the drift banner, the Resolver diff panel and
 * `k2s-dns diff` show them. A side that is no text — it holds NUL bytes, or is not UTF-8 (what the
 * follower refuses as not text: shared/network-writer.ts resolverFileProblem) — becomes one line
 * naming its size and why, instead of its bytes decoded as lines of U+FFFD (walk 6 L5: a file with
 * NUL bytes showed in the drift banner as many lines of �). Pure module: no Node or DOM imports
 * (atob and TextDecoder exist in browsers and Node ≥ 16).
 */
import type { ResolverDiff, ResolverEntry } from './types';

/** Bytes of base64 text (RFC 4648 §4). */
function bytesOf(b64: string): Uint8Array {
  return Uint8Array.from(atob(b64.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
}

/** The bytes an entry's text came from: the file's, or its link target's when read; null when none. */
function entryBytes(e: ResolverEntry | null): Uint8Array | null {
  if (e?.kind === 'file') return bytesOf(e.contentBase64);
  if (e?.kind === 'symlink' && e.targetContentBase64 != null) return bytesOf(e.targetContentBase64);
  return null;
}

/**
 * Why `bytes` are no text: `holds NUL bytes`, or `not UTF-8 text` (a strict UTF-8 decode fails);
 * null for UTF-8 text without NUL.
 */
export function binaryReason(bytes: Uint8Array): 'holds NUL bytes' | 'not UTF-8 text' | null {
  if (bytes.includes(0)) return 'holds NUL bytes';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return null;
  } catch {
    return 'not UTF-8 text';
  }
}

/**
 * Why `bytes` are not shown as text, as one line: `(binary: 1,234 bytes, holds NUL bytes; not
 * shown)` or `(binary: 12 bytes, not UTF-8 text; not shown)`; null for UTF-8 text without NUL.
 */
export function binaryLine(bytes: Uint8Array): string | null {
  const reason = binaryReason(bytes);
  return reason ? `(binary: ${bytes.length.toLocaleString('en-US')} byte${bytes.length === 1 ? '' : 's'}, ${reason}; not shown)` : null;
}

/** One side's text for a diff: binaryLine (with a newline) for bytes that are no text, else `text` ('' when null). */
function sideText(entry: ResolverEntry | null, text: string | null): string {
  const bytes = entryBytes(entry);
  const binary = bytes ? binaryLine(bytes) : null;
  return binary ? `${binary}\n` : (text ?? '');
}

/** The saved and current texts of `d` to diff, each side's binary bytes replaced by binaryLine. */
export function diffTexts(d: Pick<ResolverDiff, 'saved' | 'current' | 'savedText' | 'currentText'>): { saved: string; current: string } {
  return { saved: sideText(d.saved, d.savedText), current: sideText(d.current, d.currentText) };
}
