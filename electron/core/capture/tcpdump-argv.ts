/**
 * The capture reader's command line: tcpdump(8) as the small privileged reader. It opens the
 * capture as root, then drops to `user` (`-Z`, tcpdump(8): "drops privileges … after opening
 * the capture device"), writes pcap to stdout unbuffered per packet (`-U -w -`), no name
 * lookups (`-n`), a snap length of SNAP_BYTES and a 16 MiB kernel buffer (`-B 16384`, KiB):
 * in immediate mode libpcap's ring has one slot per snap length, so `-s 0` (256 KiB) with a
 * 4 MiB buffer holds 16 packets and drops the rest of any burst the reader is late for
 * (measured: 12 of 20 packets dropped by kernel), `--immediate-mode` (without it libpcap's memory-mapped ring hands packets over only
 * when a block fills or its timeout passes, so a quiet proxy's rows come late, and the packets
 * in an unfinished block are lost when the capture is stopped), and a BPF filter of exactly the
 * ports the proxy listens and forwards on.
 */

/**
 * Bytes captured per packet: a DNS message of the largest EDNS UDP size in common use (4,096,
 * RFC 6891 §6.2.5) plus link, IP and UDP/TCP headers. A longer message (a big TCP answer on
 * loopback, whose segments can reach 64 KiB) is cut: its row keeps the query, without answer.
 */
export const SNAP_BYTES = 4200;

/** What to capture. */
export interface CaptureTarget {
  /** Interface (`any`: every interface, written as Linux cooked SLL2). */
  iface: string;
  /** Listener and upstream ports (53, and e.g. an upstream on 5353). */
  ports: readonly number[];
  /** The unprivileged user tcpdump runs as after opening the capture. */
  user: string;
}

/** argv (after `tcpdump`) for `t`; throws on a port or name that is not plain. */
export function tcpdumpArgv(t: CaptureTarget): string[] {
  if (!/^[a-zA-Z0-9_.-]{1,15}$/.test(t.iface)) throw new Error(`interface name ${JSON.stringify(t.iface)} is not plain`);
  if (!/^[a-z_][a-z0-9_-]{0,31}$/.test(t.user)) throw new Error(`user name ${JSON.stringify(t.user)} is not plain`);
  const ports = [...new Set(t.ports)];
  if (ports.length === 0 || ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) throw new Error(`ports ${JSON.stringify(t.ports)}: need 1–65535`);
  const filter = ports.map((p) => `port ${p}`).join(' or ');
  return ['-i', t.iface, '-n', '-s', String(SNAP_BYTES), '-B', '16384', '--immediate-mode', '-U', '-w', '-', '-Z', t.user, filter];
}
