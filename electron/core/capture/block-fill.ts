/**
 * The stop's block fill: hands over at once the ring block tcpdump's kernel socket still holds.
 *
 * tcpdump reads a TPACKET_V3 ring (tcpdump-argv.ts): the kernel hands a block to tcpdump only
 * when it is full or BLOCK_TIMEOUT_MS after it was opened, so a stop right after the last
 * queries waited up to a second for their block (pipeline.ts drain). A block is also closed as
 * soon as the next captured packet does not fit in it (the kernel's net/packet/af_packet.c,
 * __packet_lookup_frame_in_block: "Ok, close the current block"). This socket, bound to
 * 127.0.0.1 on a free port the capture filter also takes (fillFilter), sends itself FILL_PACKETS
 * datagrams of FILL_BYTES zero bytes: each is captured as SNAP_BYTES (the snap length cuts it),
 * so one burst fills whatever is left of the open block and the kernel hands it over at once,
 * with every packet it held. The datagrams are no DNS (a zero question count) and the parser
 * counts them apart (K2S_CAPTURE_FILL_PORT, pcap-rows.ts); those in the next block are never
 * read (tcpdump stops before its timeout).
 */
import { createSocket, type Socket } from 'node:dgram';
import { SNAP_BYTES } from './tcpdump-argv';

/**
 * Bytes of a ring block: libpcap 1.10 (pcap-linux.c, create_ring) makes TPACKET_V3 frames of
 * MAXIMUM_SNAPLEN (262,144) and blocks of the smallest page multiple that holds one.
 */
export const RING_BLOCK_BYTES = 262_144;
/** Payload of one fill datagram: more than the snap length, so each copy takes SNAP_BYTES of the block. */
export const FILL_BYTES = SNAP_BYTES;
/** Datagrams per fill: enough SNAP_BYTES copies (plus their headers) to overflow an empty block. */
export const FILL_PACKETS = Math.ceil(RING_BLOCK_BYTES / SNAP_BYTES) + 2;

/** The fill socket of one capture. */
export interface BlockFill {
  /** The UDP port on 127.0.0.1 it holds (tcpdump's filter takes datagrams to it). */
  readonly port: number;
  /** Sends one burst; resolves with the datagrams the kernel took (0 when it failed). */
  fill(): Promise<number>;
  close(): void;
}

/** Opens the fill socket on 127.0.0.1 (a free port); null when it cannot (no loopback address): a stop then waits for the block's timeout. */
export async function openBlockFill(): Promise<BlockFill | null> {
  const sock: Socket = createSocket('udp4');
  // Its own datagrams are read and thrown away; an error (ICMP) is no crash.
  sock.on('message', () => undefined);
  sock.on('error', () => undefined);
  const bound = await new Promise<boolean>((resolve) => {
    sock.once('error', () => resolve(false));
    sock.bind({ address: '127.0.0.1', port: 0, exclusive: true }, () => resolve(true));
  });
  if (!bound) {
    sock.close();
    return null;
  }
  sock.unref();
  const port = sock.address().port;
  const payload = Buffer.alloc(FILL_BYTES);
  return {
    port,
    async fill() {
      const sent = await Promise.all(Array.from({ length: FILL_PACKETS }, () => new Promise<number>((resolve) => sock.send(payload, port, '127.0.0.1', (err) => resolve(err ? 0 : 1)))));
      return sent.reduce((a, b) => a + b, 0);
    },
    close() {
      try {
        sock.close();
      } catch {
        // already closed
      }
    },
  };
}
