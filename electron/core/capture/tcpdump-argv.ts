/**
 * The capture reader's command line: tcpdump(8) as the small privileged reader. It opens the
 * capture as root, then drops to `user` (`-Z`, tcpdump(8): "drops privileges … after opening
 * the capture device"), writes pcap to stdout unbuffered per packet (`-U -w -`), no name
 * lookups (`-n`), a snap length of SNAP_BYTES and a RING_KIB kernel buffer (`-B`, KiB),
 * Linux cooked v2 framing (`-y LINUX_SLL2`: it carries the interface index the filter tests),
 * and a BPF filter of exactly the ports the proxy listens and forwards on, run in the kernel.
 *
 * Not in immediate mode: libpcap 1.10 then reads a TPACKET_V3 ring whose 256 KiB blocks the
 * kernel hands over when full or when BLOCK_TIMEOUT_MS passed (tcpdump's pcap_set_timeout), so
 * tcpdump wakes once per block, not once per packet. Measured (bench:capture, docs/bench-capture.md):
 * at AdGuard's full rate the parser kept every row (1.005 rows per answered query, 0 kernel
 * drops) where `--immediate-mode` kept 0.58–0.65, and the proxy's throughput was within the
 * run's noise of the log off. The price: a row reaches the file up to BLOCK_TIMEOUT_MS after its
 * answer, and a block still open when the capture stops would be lost: a stop fills it, so the kernel
 * hands it over at once (block-fill.ts), and drains it (pipeline.ts).
 * In immediate mode (TPACKET_V2, kept as a tuning for the bench) the ring has one slot per snap
 * length, so `-s 0` (256 KiB) with a 4 MiB buffer held 16 packets and dropped the rest of a burst.
 *
 * The filter also drops the outgoing copy of every loopback packet (LOOPBACK_FILTER). On `any`
 * the kernel hands a packet socket each packet sent over `lo` twice, once as it leaves
 * (PACKET_OUTGOING) and once as it arrives (PACKET_HOST), and libpcap 1.10 throws the outgoing
 * copy away only in user space (pcap-linux.c, "it's a loopback packet we've already seen"),
 * after the kernel ran the filter and copied it into the ring and woke the reader for it.
 * Measured with 1,000 queries on 127.0.0.1:53: 4,000 "packets received by filter", 2,000
 * captured; with the clause 2,000 and 2,000. The proxy's listeners on 127.0.0.1 and a local
 * upstream therefore cost the capture half of what they did.
 */

/**
 * Bytes captured per packet: a DNS message of the largest EDNS UDP size in common use (4,096,
 * RFC 6891 §6.2.5) plus link, IP and UDP/TCP headers. A longer message (a big TCP answer on
 * loopback, whose segments can reach 64 KiB) is cut: its row keeps the query, without answer.
 */
export const SNAP_BYTES = 4200;

/**
 * pcap-filter(7) clause that rejects the outgoing copy of a packet on `lo`: `outbound` tests
 * the cooked header's packet type, `ifindex 1` the interface (loopback is ifindex 1 in every
 * network namespace, LOOPBACK_IFINDEX in the kernel's include/net/net_namespace.h). libpcap
 * turns both into the kernel's ancillary loads (SKF_AD_PKTTYPE, SKF_AD_IFINDEX), so the copy
 * is dropped before it is made. Packets leaving on any other interface (a query to a remote
 * upstream, an answer to a remote client) are seen only as they leave and are kept.
 */
export const LOOPBACK_FILTER = 'not (outbound and ifindex 1)';

/** pcap-filter(7) clause for the block-fill datagrams (block-fill.ts): UDP to 127.0.0.1 on `port`, which that socket holds. */
export function fillFilter(port: number): string {
  return `(udp and dst host 127.0.0.1 and dst port ${port})`;
}

/**
 * KiB of tcpdump's kernel ring (`-B`): 2 MiB, 8 blocks of 256 KiB, about 11,000 DNS packets over
 * loopback. A burst of that many waits for the parser instead of being dropped. More buys
 * nothing once the parser keeps its CPU budget (cpu-budget.ts: at 5 % of a core it takes about
 * 16,000 packets/s, so the 16 MiB ring used before held ~6 s of packets after an overload, rows
 * that late and work that long), and its allocation was most of tcpdump's time to open the
 * capture (~14 ms of ~17 ms for 16 MiB, strace), on start's path.
 */
export const RING_KIB = 2048;

/** ms after which the kernel hands over a ring block that is not full: shared/capture-block.ts (the window's texts say it too). */
export { BLOCK_TIMEOUT_MS } from '../../../shared/capture-block';

/** What to capture. */
export interface CaptureTarget {
  /** Interface (`any`: every interface, written as Linux cooked SLL2). */
  iface: string;
  /** Listener and upstream ports (53, and e.g. an upstream on 5353). */
  ports: readonly number[];
  /** The unprivileged user tcpdump runs as after opening the capture. */
  user: string;
  /**
   * The block-fill socket's port (block-fill.ts): UDP to 127.0.0.1 on it is captured too, so a
   * stop can fill the ring block still open and have the kernel hand it over at once.
   */
  fillPort?: number;
}

/** How tcpdump reads (the bench measures each; the defaults are what the product runs). */
export interface CaptureTuning {
  /** `--immediate-mode`: each packet is handed over as it arrives, tcpdump woken for each (default false). */
  immediate?: boolean;
  /** Keep only one copy of each loopback packet, in the kernel (LOOPBACK_FILTER; default true). */
  loopbackOnce?: boolean;
}

/** argv (after `tcpdump`) for `t`; throws on a port or name that is not plain. */
export function tcpdumpArgv(t: CaptureTarget, tuning: CaptureTuning = {}): string[] {
  if (!/^[a-zA-Z0-9_.-]{1,15}$/.test(t.iface)) throw new Error(`interface name ${JSON.stringify(t.iface)} is not plain`);
  if (!/^[a-z_][a-z0-9_-]{0,31}$/.test(t.user)) throw new Error(`user name ${JSON.stringify(t.user)} is not plain`);
  const ports = [...new Set(t.ports)];
  if (ports.length === 0 || ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) throw new Error(`ports ${JSON.stringify(t.ports)}: need 1–65535`);
  const { immediate = false, loopbackOnce = true } = tuning;
  if (t.fillPort !== undefined && (!Number.isInteger(t.fillPort) || t.fillPort < 1 || t.fillPort > 65535)) throw new Error(`fill port ${JSON.stringify(t.fillPort)}: need 1–65535`);
  const fill = t.fillPort === undefined ? '' : ` or ${fillFilter(t.fillPort)}`;
  const portFilter = `${ports.map((p) => `port ${p}`).join(' or ')}${fill}`;
  const filter = loopbackOnce ? `(${portFilter}) and ${LOOPBACK_FILTER}` : portFilter;
  return ['-i', t.iface, '-y', 'LINUX_SLL2', '-n', '-s', String(SNAP_BYTES), '-B', String(RING_KIB), ...(immediate ? ['--immediate-mode'] : []), '-U', '-w', '-', '-Z', t.user, filter];
}
