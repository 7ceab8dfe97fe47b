/**
 * Byte-level line assembly shared by readTail and followLog: splits on LF (0x0A), strips a
 * CR before it (CRLF), decodes UTF-8 leniently (invalid bytes become U+FFFD, never a throw)
 * and caps each line so one runaway line cannot grow memory without bound.
 */

/** Longest line kept, in bytes; the rest of a longer line is dropped and a marker appended. */
export const LINE_MAX_BYTES = 64 * 1024;

/** Marker appended to a cut line; `dropped` is the number of bytes dropped before the LF. */
export function cutMarker(dropped: number): string {
  return ` …[line cut: ${dropped} more bytes]`;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Decodes one line's bytes (without its LF): drops a trailing CR, decodes UTF-8 leniently,
 * and appends cutMarker when `dropped` > 0.
 */
export function decodeLine(bytes: Buffer, dropped = 0): string {
  // A CR that was cut away with the tail of a long line is not in `bytes`; nothing to strip then.
  const end = dropped === 0 && bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
  const text = bytes.toString('utf8', 0, end);
  return dropped > 0 ? text + cutMarker(dropped) : text;
}

/**
 * Incremental line splitter: feed chunks in file order, get back the complete lines they end.
 * The unterminated rest is held (at most LINE_MAX_BYTES of it) until its LF arrives or
 * `flush()` is called.
 */
export class LineBuffer {
  private parts: Buffer[] = [];
  private held = 0;
  private dropped = 0;

  /** Bytes of the unterminated line currently held (excluding dropped bytes). */
  get pendingBytes(): number {
    return this.held;
  }

  /** True when a partial line (possibly cut) is pending. */
  get hasPartial(): boolean {
    return this.held > 0 || this.dropped > 0;
  }

  /** Splits `chunk` (copied as needed, so the caller may reuse its buffer) and returns complete lines. */
  push(chunk: Buffer): string[] {
    const out: string[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(LF, start);
      if (nl === -1) {
        this.hold(chunk.subarray(start));
        return out;
      }
      this.hold(chunk.subarray(start, nl));
      out.push(this.take());
      start = nl + 1;
    }
  }

  /** Returns the held partial line as a line (the stream ended without its LF), or null if none. */
  flush(): string | null {
    return this.hasPartial ? this.take() : null;
  }

  /** Forgets the held partial line. */
  reset(): void {
    this.parts = [];
    this.held = 0;
    this.dropped = 0;
  }

  private hold(piece: Buffer): void {
    if (piece.length === 0) return;
    const room = LINE_MAX_BYTES - this.held;
    const kept = Math.min(room, piece.length);
    if (kept > 0) {
      // Copy: the caller reuses its read buffer for the next chunk.
      this.parts.push(Buffer.from(piece.subarray(0, kept)));
      this.held += kept;
    }
    this.dropped += piece.length - kept;
  }

  private take(): string {
    const bytes = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.held);
    const line = decodeLine(bytes, this.dropped);
    this.reset();
    return line;
  }
}
