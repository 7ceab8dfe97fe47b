/**
 * A streaming reader of the classic pcap file format as `tcpdump -w -` writes it (pcap-savefile(5);
 * https://www.tcpdump.org/manpages/pcap-savefile.5.html): a 24-byte file header (magic
 * 0xa1b2c3d4 for µs time stamps, 0xa1b23c4d for ns, in the writer's byte order; snap length;
 * link type) and then per packet a 16-byte record header (seconds, µs or ns, captured length,
 * original length) and the captured bytes. Input arrives in chunks that cut records anywhere.
 * Throws only on a file header it cannot read (not pcap); a record longer than the snap length
 * the header names ends the stream (`failed`), since nothing after it can be framed.
 */

/** One captured packet: its time stamp in µs since the epoch, the link type and the captured bytes. */
export interface PcapRecord {
  /** µs since 1970-01-01 UTC (from the record header). */
  tsUs: number;
  /** The file's link-layer header type (LINKTYPE_*: 1 Ethernet, 113 Linux SLL, 276 Linux SLL2, 101 raw IP). */
  linkType: number;
  data: Uint8Array;
}

/** Largest record accepted when the header's snap length is 0 or larger (tcpdump's default snap length, 262144). */
const MAX_RECORD = 262_144;

/** Parses a pcap byte stream chunk by chunk. */
export class PcapStream {
  private buf: Uint8Array = new Uint8Array(0);
  private little = true;
  private nano = false;
  private snap = MAX_RECORD;
  /** Link type from the file header; null until it was read. */
  linkType: number | null = null;
  /** Set when the stream could not be framed any more (a record longer than the snap length). */
  failed: string | null = null;

  /** Feeds a chunk; returns the whole records it completed, in order. */
  push(chunk: Uint8Array): PcapRecord[] {
    if (this.failed) return [];
    this.buf = this.buf.length === 0 ? chunk : concat(this.buf, chunk);
    const out: PcapRecord[] = [];
    let at = 0;
    const view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    if (this.linkType === null) {
      if (this.buf.length < 24) return out;
      const magicBe = view.getUint32(0, false);
      if (magicBe === 0xa1b2c3d4 || magicBe === 0xa1b23c4d) this.little = false;
      else if (magicBe === 0xd4c3b2a1 || magicBe === 0x4d3cb2a1) this.little = true;
      else throw new Error(`not a pcap stream (magic 0x${magicBe.toString(16).padStart(8, '0')})`);
      this.nano = magicBe === 0xa1b23c4d || magicBe === 0x4d3cb2a1;
      const snap = view.getUint32(16, this.little);
      this.snap = snap === 0 || snap > MAX_RECORD ? MAX_RECORD : snap;
      // The link type is the low 16 bits (the upper bits carry FCS flags: pcap-savefile(5)).
      this.linkType = view.getUint32(20, this.little) & 0xffff;
      at = 24;
    }
    while (this.buf.length - at >= 16) {
      const sec = view.getUint32(at, this.little);
      const frac = view.getUint32(at + 4, this.little);
      const incl = view.getUint32(at + 8, this.little);
      if (incl > this.snap) {
        this.failed = `a record of ${incl} bytes is longer than the snap length ${this.snap}`;
        this.buf = new Uint8Array(0);
        return out;
      }
      if (this.buf.length - at - 16 < incl) break;
      const tsUs = sec * 1_000_000 + (this.nano ? Math.floor(frac / 1000) : frac);
      out.push({ tsUs, linkType: this.linkType, data: this.buf.slice(at + 16, at + 16 + incl) });
      at += 16 + incl;
    }
    this.buf = at === 0 ? this.buf : this.buf.slice(at);
    return out;
  }
}

/** a followed by b. */
function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
