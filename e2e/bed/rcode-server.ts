/**
 * A nameserver that misbehaves on purpose, for the upstream-order tests: on one IP:port it
 * answers every UDP query with a fixed rcode (SERVFAIL, REFUSED) and no records, or reads and
 * drops every query (a firewalled or hung server). "Nothing listening" needs no server at all:
 * the kernel answers ICMP port unreachable. UDP only: glibc and both engines ask over UDP first.
 */
import dgram from 'node:dgram';
import * as dnsPacket from 'dns-packet';

/** RCODE values (RFC 1035 §4.1.1). */
const RCODE = { SERVFAIL: 2, REFUSED: 5 } as const;

/** What the server does with a query. */
export type Misbehaviour = 'SERVFAIL' | 'REFUSED' | 'drop';

/** A running misbehaving server. */
export interface RcodeServer {
  address: string;
  port: number;
  behaviour: Misbehaviour;
  /** Queries received so far (every one, answered or dropped). */
  received(): number;
  /** Closes the socket. Idempotent. */
  stop(): Promise<void>;
}

/** Binds `address:port` (the address must be assigned) and serves `behaviour`; throws on bind failure. */
export async function startRcodeServer(address: string, port: number, behaviour: Misbehaviour): Promise<RcodeServer> {
  const sock = dgram.createSocket(address.includes(':') ? 'udp6' : 'udp4');
  let count = 0;
  sock.on('message', (msg, rinfo) => {
    count++;
    if (behaviour === 'drop') return;
    let q;
    try {
      q = dnsPacket.decode(msg);
    } catch {
      return;
    }
    const reply = dnsPacket.encode({
      type: 'response',
      id: q.id,
      // RD copied, RA set (a recursive server that failed), RCODE in the low 4 bits (RFC 1035 §4.1.1).
      flags: ((q.flags ?? 0) & dnsPacket.RECURSION_DESIRED) | dnsPacket.RECURSION_AVAILABLE | RCODE[behaviour],
      questions: q.questions,
    });
    sock.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve, reject) => {
    sock.once('error', reject);
    sock.bind(port, address, () => {
      sock.off('error', reject);
      resolve();
    });
  });
  let stopped = false;
  return {
    address,
    port,
    behaviour,
    received: () => count,
    stop: () =>
      stopped
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            stopped = true;
            sock.close(() => resolve());
          }),
  };
}
