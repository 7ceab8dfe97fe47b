/**
 * A nameserver that misbehaves on purpose, for the upstream-order tests: on one IP:port it
 * answers every UDP query with a fixed rcode (SERVFAIL, REFUSED) and no records, or reads and
 * drops every query (a firewalled or hung server). "Nothing listening" needs no server at all:
 * the kernel answers ICMP port unreachable. UDP only: glibc and both engines ask over UDP first.
 * It runs in its own Node process, so a busy test process cannot delay its answers (a late
 * answer would look like a silent server to a proxy with a short timeout).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

/** What the server does with a query. */
export type Misbehaviour = 'SERVFAIL' | 'REFUSED' | 'drop';

/** A running misbehaving server. */
export interface RcodeServer {
  address: string;
  port: number;
  behaviour: Misbehaviour;
  pid: number;
  /** SIGTERM by PID and wait for exit. Idempotent. */
  stop(): Promise<void>;
}

/** The server's program: RCODE values from RFC 1035 §4.1.1, RD copied, RA set, the question echoed. */
const PROGRAM = `
const dgram = require('node:dgram');
const dnsPacket = require(process.argv[1]);
const [address, port, behaviour] = process.argv.slice(2);
const RCODE = { SERVFAIL: 2, REFUSED: 5 };
const sock = dgram.createSocket(address.includes(':') ? 'udp6' : 'udp4');
sock.on('message', (msg, rinfo) => {
  if (behaviour === 'drop') return;
  let q;
  try { q = dnsPacket.decode(msg); } catch { return; }
  const flags = ((q.flags || 0) & dnsPacket.RECURSION_DESIRED) | dnsPacket.RECURSION_AVAILABLE | RCODE[behaviour];
  sock.send(dnsPacket.encode({ type: 'response', id: q.id, flags, questions: q.questions }), rinfo.port, rinfo.address);
});
sock.bind(Number(port), address, () => process.stdout.write('ready\\n'));
process.on('SIGTERM', () => sock.close(() => process.exit(0)));
`;

/** Starts the server on `address:port` (the address must be assigned); throws when it cannot bind. */
export async function startRcodeServer(address: string, port: number, behaviour: Misbehaviour): Promise<RcodeServer> {
  const dnsPacketPath = createRequire(import.meta.url).resolve('dns-packet');
  const child = spawn(process.execPath, ['-e', PROGRAM, dnsPacketPath, address, String(port), behaviour], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => d.includes('ready') && resolve());
    void exited.then(() => reject(new Error(`The ${behaviour} test server on ${address}:${port} exited at start: ${stderr.trim() || 'no output'}`)));
  });
  let stopped = false;
  return {
    address,
    port,
    behaviour,
    pid: child.pid!,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
