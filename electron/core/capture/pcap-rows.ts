/**
 * The whole capture path after the reader: pcap bytes → frames → UDP/TCP segments → DNS
 * messages → paired rows (pcap-stream.ts, frame.ts, dns-message.ts, pairing.ts). Runs in the
 * non-root parser process, never in the Electron main process.
 */
import { dnsMessageOf, TcpFlows } from './dns-message';
import { segmentOf } from './frame';
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

/** A pcap byte stream's parser: push chunks, get rows through onRow. */
export class PcapRows {
  private readonly pcap = new PcapStream();
  private readonly tcp = new TcpFlows();
  private readonly pairing: Pairing;
  readonly counts: CaptureCounts = { frames: 0, notSegment: 0, notDns: 0, messages: 0, rows: 0 };

  private readonly fillPort: number | undefined;

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
    for (const rec of this.pcap.push(chunk)) {
      this.counts.frames++;
      const seg = segmentOf(rec.linkType, rec.data);
      if (!seg) {
        this.counts.notSegment++;
        continue;
      }
      if (seg.proto === 'udp' && seg.dstPort === this.fillPort && seg.dst === '127.0.0.1') {
        this.counts.fill = (this.counts.fill ?? 0) + 1;
        // The fill socket sends to itself (block-fill.ts): any other source is another program's datagram.
        if (seg.srcPort !== this.fillPort || seg.src !== '127.0.0.1') this.counts.fillOthers = (this.counts.fillOthers ?? 0) + 1;
        continue;
      }
      const payloads = seg.proto === 'udp' ? [seg.payload] : this.tcp.push(seg);
      for (const p of payloads) {
        const m = dnsMessageOf(p);
        if (!m) {
          this.counts.notDns++;
          continue;
        }
        this.counts.messages++;
        this.pairing.packet(seg, m, rec.tsUs);
      }
    }
  }

  /** Emits the rows still waiting for an answer (the capture ended). */
  end(): void {
    this.pairing.flush();
  }
}
