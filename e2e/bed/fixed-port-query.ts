/**
 * DNS queries from a known client socket, so a test can find their rows in the exact query log
 * by the packet's own client address, port and DNS id (electron/core/capture/pairing.ts).
 */
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import { decode, encode, streamDecode, streamEncode, type Packet } from 'dns-packet';

/** One UDP A query for `name` with DNS id `id` from 127.0.0.1:`port` to 127.0.0.1:53; resolves with the answer's rcode (5 s bound). */
export function udpQuery(port: number, id: number, name: string): Promise<string> {
  const sock = createSocket('udp4');
  const msg: Packet = { type: 'query', id, flags: 0x100, questions: [{ name, type: 'A' }] };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (sock.close(), reject(new Error(`no answer to ${name} from port ${port} within 5 s`))), 5000);
    sock.on('message', (b) => {
      clearTimeout(timer);
      sock.close();
      resolve((decode(b) as { rcode?: string }).rcode ?? 'NOERROR');
    });
    sock.bind(port, '127.0.0.1', () => sock.send(encode(msg), 53, '127.0.0.1'));
  });
}

/** One TCP A query for `name` with DNS id `id` to 127.0.0.1:53; resolves with the client's port and the rcode (5 s bound). */
export function tcpQuery(id: number, name: string): Promise<{ port: number; rcode: string }> {
  return new Promise((resolve, reject) => {
    const s = connect(53, '127.0.0.1', () => s.write(streamEncode({ type: 'query', id, flags: 0x100, questions: [{ name, type: 'A' }] })));
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => (s.destroy(), reject(new Error(`no TCP answer to ${name} within 5 s`))), 5000);
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        clearTimeout(timer);
        const port = s.localPort!;
        s.end();
        resolve({ port, rcode: (streamDecode(buf) as { rcode?: string }).rcode ?? 'NOERROR' });
      }
    });
    s.on('error', reject);
  });
}
