/**
 * The whole capture path after the reader: pcap bytes → frames → UDP/TCP segments → DNS
 * messages → paired rows (pcap-stream.ts, frame.ts, dns-message.ts, pairing.ts). Runs in the
 * non-root parser process, never in the Electron main process.
 */
import { messageView, readMessage, TcpFlows } from './dns-message';
import { addressText, readSegment, segmentView } from './frame';
import { Pairing, type CapturedQuery } from './pairing';
import { PcapStream } from './pcap-stream';

/** Counts of what a capture held, for the bench and for "N packets not DNS" diagnostics. */
export interface CaptureCounts {
  frames: number;
  /** Frames with no UDP/TCP segment (another protocol, an IP fragment, cut short). */
  notSegment: number;
  /** UDP payloads or TCP messages that were no DNS message. */
  notDns: number;
  messages: number;
  rows: number;
  /** Open queries emitted unanswered because the open-query table was full (pairing.ts OPEN_MAX); absent while 0. */
  evicted?: number;
  /**
   * Frames of UDP to 127.0.0.1 on the stop's block-fill port (block-fill.ts), in frames, never
   * parsed: its own fill and any other program's datagrams to that port alike; absent while 0.
   */
  fill?: number;
  /** Of `fill`, the datagrams not sent by the fill socket itself (source port other than the fill port: another local program's); absent while 0. */
  fillOthers?: number;
}

/** 127.0.0.1 as a number. */
const LOOPBACK = 0x7f000001;

/** A pcap byte stream's parser: push chunks, get rows through onRow. */
export class PcapRows {
  private readonly pcap = new PcapStream();
  private readonly tcp = new TcpFlows();
  private readonly pairing: Pairing;
  readonly counts: CaptureCounts = { frames: 0, notSegment: 0, notDns: 0, messages: 0, rows: 0 };

  private readonly fillPort: number | undefined;

  /** µs time stamp (the kernel's wall clock, pcap) of the last record read, or null before the first. */
  lastPacketUs: number | null = null;

  /** `fillPort`: the block-fill socket's port (block-fill.ts), whose datagrams are counted apart and skipped. */
  constructor(opts: { listeners: readonly string[]; onRow(row: CapturedQuery): void; expireUs?: number; openMax?: number; fillPort?: number }) {
    this.fillPort = opts.fillPort;
    this.pairing = new Pairing({
      ...opts,
      onRow: (r) => {
        this.counts.rows++;
        if (this.pairing.evicted) this.counts.evicted = this.pairing.evicted;
        opts.onRow(r);
      },
    });
  }

  /** Why the stream cannot be read any further, or null. */
  get failed(): string | null {
    return this.pcap.failed;
  }

  /** Feeds a chunk of the pcap stream (throws only when the stream is not pcap at all). */
  push(chunk: Uint8Array): void {
    this.pcap.push(chunk, this.record);
  }

  /** The one segment and message objects every frame fills (frame.ts, dns-message.ts). */
  private readonly seg = segmentView();
  private readonly msg = messageView();

  /** One pcap record (pcap-stream.ts RecordSink). */
  private readonly record = (d: Uint8Array, at: number, end: number, tsUs: number, linkType: number): void => {
    this.counts.frames++;
    this.lastPacketUs = tsUs;
    const seg = this.seg;
    if (!readSegment(linkType, d, at, end, seg)) {
      this.counts.notSegment++;
      return;
    }
    if (seg.proto === 'udp' && seg.dstPort === this.fillPort && !seg.v6 && seg.dst4 === LOOPBACK) {
      this.counts.fill = (this.counts.fill ?? 0) + 1;
      // The fill socket sends to itself (block-fill.ts): any other source is another program's datagram.
      if (seg.srcPort !== this.fillPort || seg.src4 !== LOOPBACK) this.counts.fillOthers = (this.counts.fillOthers ?? 0) + 1;
      return;
    }
    if (seg.proto === 'udp') {
      this.message(seg.d, seg.payloadAt, seg.payloadEnd, tsUs);
      return;
    }
    const payloads = this.tcp.push({ proto: 'tcp', src: addressText(d, seg.srcAt, seg.v6), srcPort: seg.srcPort, dst: addressText(d, seg.dstAt, seg.v6), dstPort: seg.dstPort, seq: seg.seq, flags: seg.flags, payload: d.subarray(seg.payloadAt, seg.payloadEnd) });
    for (const p of payloads) this.message(p, 0, p.length, tsUs);
  };

  /** One UDP payload or TCP message d[at, end) of the current segment. */
  private message(d: Uint8Array, at: number, end: number, tsUs: number): void {
    if (!readMessage(d, at, end, this.msg)) {
      this.counts.notDns++;
      return;
    }
    this.counts.messages++;
    this.pairing.packet(this.seg, this.msg, tsUs);
  }

  /** µs time stamp of the oldest query still waiting for its answer, or null (Pairing.oldestOpenUs). */
  oldestOpenUs(): number | null {
    return this.pairing.oldestOpenUs();
  }

  /** µs an unanswered query is kept before its row is emitted unanswered (Pairing.expireUs). */
  get expireUs(): number {
    return this.pairing.expireUs;
  }

  /** Emits the queries unanswered for longer than expireUs at `nowUs` (µs since the epoch) as rows (Pairing.expire). */
  expire(nowUs: number): void {
    this.pairing.expire(nowUs);
  }

  /** Emits the rows still waiting for an answer (the capture ended). */
  end(): void {
    this.pairing.flush();
  }
}
