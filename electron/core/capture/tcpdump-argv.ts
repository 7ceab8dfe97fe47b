/**
 * The capture reader's command line: tcpdump(8) as the small privileged reader. It opens the
 * capture as root, then drops to `user` (`-Z`, tcpdump(8): "drops privileges … after opening
 * the capture device"), writes pcap to stdout unbuffered per packet (`-U -w -`), full packets
 * (`-s 0`), no name lookups (`-n`), a 4 MiB kernel buffer (`-B 4096`, KiB) so bursts are not
 * dropped, and a BPF filter of exactly the ports the proxy listens and forwards on.
 */

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
  return ['-i', t.iface, '-n', '-s', '0', '-B', '4096', '-U', '-w', '-', '-Z', t.user, filter];
}
