/**
 * tcpdump's running counts, asked for with SIGUSR1 while it captures. On Linux (no SIGINFO)
 * tcpdump 4.99 installs its "request info" handler on SIGUSR1 (tcpdump.c, SIGNAL_REQ_INFO), which
 * prints one line to stderr (tcpdump.c info(0)):
 *
 *     tcpdump: 3 packets captured, 5 packets received by filter, 0 packets dropped by kernel
 *
 * `captured`: packets tcpdump has handed to its output (with `-U -w -`, written to the parser's
 * pipe); `received by filter`: libpcap's ps_recv, the packets the kernel's filter passed into
 * the ring, counted when they enter it (PACKET_STATISTICS tp_packets, which the kernel reports
 * with its drops added, net/packet/af_packet.c packet_getsockopt); `dropped by kernel`: ps_drop,
 * those the full ring had no room for. So received − dropped − captured packets are still in
 * the ring (in a block the kernel has not handed over yet, tcpdump-argv.ts BLOCK_TIMEOUT_MS).
 */

/** tcpdump's counts at one moment (packets). */
export interface TcpdumpStats {
  captured: number;
  received: number;
  dropped: number;
}

const STATS_LINE = /(\d+) packets? captured, (\d+) packets? received by filter, (\d+) packets? dropped by kernel/;

/** The counts of one stderr line of tcpdump's SIGUSR1 answer, null for any other line. */
export function tcpdumpStatsLine(line: string): TcpdumpStats | null {
  const m = STATS_LINE.exec(line);
  return m ? { captured: Number(m[1]), received: Number(m[2]), dropped: Number(m[3]) } : null;
}
