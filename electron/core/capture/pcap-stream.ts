/**
 * A streaming reader of the classic pcap file format as `tcpdump -w -` writes it (pcap-savefile(5);
 * https://www.tcpdump.org/manpages/pcap-savefile.5.html): a 24-byte file header (magic
 * 0xa1b2c3d4 for µs time stamps, 0xa1b23c4d for ns, in the writer's byte order; snap length;
 * link type) and then per packet a 16-byte record header (seconds, µs or ns, captured length,
 * original length) and the captured bytes. Input arrives in chunks that cut records anywhere.
 * Throws only on a file header it cannot read (not pcap); a record longer than the snap length
 * the header names ends the stream (`failed`), since nothing after it can be framed. Records are
 * handed over as views into the chunk (no copy), valid only during the call; only a record cut by
 * a chunk's end is copied, into a buffer of its own length.
 */

/**
 * Takes one captured packet: the bytes d[at, end) (a view, valid only during the call), its time
 * stamp in µs since the epoch, and the file's link-layer header type (LINKTYPE_*: 1 Ethernet,
 * 113 Linux SLL, 276 Linux SLL2, 101 raw IP).
 */
export type RecordSink = (d: Uint8Array, at: number, end: number, tsUs: number, linkType: number) => void;

/** Largest record accepted when the header's snap length is 0 or larger (tcpdump's default snap length, 262144). */
const MAX_RECORD = 262_144;
const EMPTY = new Uint8Array(0);

/** Parses a pcap byte stream chunk by chunk. */
export class PcapStream {
  /** Bytes before the file header was read whole (the first chunks only). */
  private head: Uint8Array = EMPTY;
  /** A record cut by the last chunk's end: its bytes so far (`partLen` of them; its full length once the record header is in). */
  private part: Uint8Array = new Uint8Array(16);
  private partLen = 0;
  private little = true;
  private nano = false;
  private snap = MAX_RECORD;
  /** Link type from the file header; null until it was read. */
  linkType: number | null = null;
  /** Set when the stream could not be framed any more (a record longer than the snap length). */
  failed: string | null = null;

  /** Feeds a chunk; hands each record it completes to `sink`, in order. */
  push(chunk: Uint8Array, sink: RecordSink): void {
    if (this.failed) return;
    let d = chunk;
    let at = 0;
    if (this.linkType === null) {
      d = this.head.length === 0 ? chunk : concat(this.head, chunk);
      if (d.length < 24) {
        this.head = d === chunk ? chunk.slice() : d;
        return;
      }
      this.head = d === chunk ? chunk.slice() : d;
      const view = new DataView(d.buffer, d.byteOffset, d.byteLength);
      const magicBe = view.getUint32(0, false);
      if (magicBe === 0xa1b2c3d4 || magicBe === 0xa1b23c4d) this.little = false;
      else if (magicBe === 0xd4c3b2a1 || magicBe === 0x4d3cb2a1) this.little = true;
      else throw new Error(`not a pcap stream (magic 0x${magicBe.toString(16).padStart(8, '0')})`);
      this.nano = magicBe === 0xa1b23c4d || magicBe === 0x4d3cb2a1;
      const snap = view.getUint32(16, this.little);
      this.snap = snap === 0 || snap > MAX_RECORD ? MAX_RECORD : snap;
      // The link type is the low 16 bits (the upper bits carry FCS flags: pcap-savefile(5)).
      this.linkType = view.getUint32(20, this.little) & 0xffff;
      this.head = EMPTY;
      at = 24;
    }
    if (this.partLen > 0) {
      at = this.finishPart(d, at, sink);
      if (at < 0) return;
    }
    const len = d.length;
    while (len - at >= 16) {
      const incl = this.u32(d, at + 8);
      if (incl > this.snap) {
        this.fail(incl);
        return;
      }
      if (len - at - 16 < incl) break;
      sink(d, at + 16, at + 16 + incl, this.tsUs(d, at), this.linkType);
      at += 16 + incl;
    }
    if (at < len) {
      // A record cut by the chunk's end: its header (once whole) says how long a buffer it needs.
      const rest = len - at;
      if (rest >= 16) {
        this.part = new Uint8Array(16 + this.u32(d, at + 8));
      } else if (this.part.length < 16) this.part = new Uint8Array(16);
      this.part.set(d.subarray(at), 0);
      this.partLen = rest;
    }
  }

  /**
   * Completes the record cut by the last chunk with the bytes of `d` from `at`; returns where
   * the next record starts in `d`, or -1 when `d` ended first (or the stream failed).
   */
  private finishPart(d: Uint8Array, at: number, sink: RecordSink): number {
    if (this.partLen < 16) {
      const take = Math.min(16 - this.partLen, d.length - at);
      this.part.set(d.subarray(at, at + take), this.partLen);
      this.partLen += take;
      at += take;
      if (this.partLen < 16) return -1;
      const incl = this.u32(this.part, 8);
      if (incl > this.snap) {
        this.fail(incl);
        return -1;
      }
      const whole = new Uint8Array(16 + incl);
      whole.set(this.part.subarray(0, 16), 0);
      this.part = whole;
    } else {
      const incl = this.u32(this.part, 8);
      if (incl > this.snap) {
        this.fail(incl);
        return -1;
      }
    }
    const take = Math.min(this.part.length - this.partLen, d.length - at);
    this.part.set(d.subarray(at, at + take), this.partLen);
    this.partLen += take;
    at += take;
    if (this.partLen < this.part.length) return -1;
    const rec = this.part;
    this.part = new Uint8Array(16);
    this.partLen = 0;
    sink(rec, 16, rec.length, this.tsUs(rec, 0), this.linkType!);
    return at;
  }

  private fail(incl: number): void {
    this.failed = `a record of ${incl} bytes is longer than the snap length ${this.snap}`;
    this.part = new Uint8Array(16);
    this.partLen = 0;
  }

  /** The 32-bit field at `i` in the file's byte order. */
  private u32(d: Uint8Array, i: number): number {
    return this.little ? (d[i]! | (d[i + 1]! << 8) | (d[i + 2]! << 16) | (d[i + 3]! << 24)) >>> 0 : ((d[i]! << 24) | (d[i + 1]! << 16) | (d[i + 2]! << 8) | d[i + 3]!) >>> 0;
  }

  /** µs since the epoch of the record header at `i`. */
  private tsUs(d: Uint8Array, i: number): number {
    const sec = this.u32(d, i);
    const frac = this.u32(d, i + 4);
    return sec * 1_000_000 + (this.nano ? Math.floor(frac / 1000) : frac);
  }
}

/** a followed by b. */
function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
