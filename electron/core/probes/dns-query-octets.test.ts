/**
 * The question name's octets on the wire: a non-ASCII name (a search domain such as bé.example)
 * is sent as its UTF-8 bytes, as glibc sends it (measured: glibc 2.36 getaddrinfo with
 * `search bé.example` puts 62 c3 a9 on the wire); only ASCII letters fold (RFC 4343 §3).
 */
import dgram from 'node:dgram';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { queryDns } from './dns-query';

let sock: dgram.Socket | null = null;
afterEach(() => {
  sock?.close();
  sock = null;
});

/** The QNAME octets of the first query that reaches a UDP socket on 127.0.0.1 (the query itself times out). */
async function wireName(name: string): Promise<Buffer> {
  sock = dgram.createSocket('udp4');
  sock.bind(0, '127.0.0.1');
  await once(sock, 'listening');
  const got = once(sock, 'message') as Promise<[Buffer]>;
  void queryDns({ name, type: 'A', server: `127.0.0.1:${sock.address().port}`, timeoutMs: 300 });
  const [msg] = await got;
  let end = 12;
  while (msg[end] !== 0) end += 1 + msg[end]!;
  return msg.subarray(12, end + 1);
}

describe('queryDns question octets', () => {
  it('web.bé.example: the label bé is the 3 UTF-8 octets 62 c3 a9', async () => {
    expect((await wireName('web.bé.example')).toString('hex')).toBe('03776562' + '0362c3a9' + '076578616d706c65' + '00');
  });
  it('Web.BÉ.Example: ASCII letters fold, É (c3 89) is sent as it is, not folded to é (c3 a9)', async () => {
    expect((await wireName('Web.BÉ.Example')).toString('hex')).toBe('03776562' + '0362c389' + '076578616d706c65' + '00');
  });
});
