/**
 * The query tester runs in the long-running app (web mode, the window): every exchange's socket
 * must be closed whatever ended it — an answer, a timeout, a refusal (ICMP port unreachable),
 * a malformed answer, a truncated one retried over TCP. Counted in Node's own list of open
 * handles (process._getActiveHandles, as e2e/support/open-after-stop.ts reads it for the sandbox).
 */
import dgram from 'node:dgram';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as dnsPacket from 'dns-packet';
import { queryDns } from './dns-query';

/** The fake TCP server's side of each connection: not the client's, so not counted. */
const accepted = new Set<net.Socket>();

/** This process's open UDP sockets and TCP client sockets (the fake server's own sockets not counted). */
function openSockets(): { udp: number; tcp: number } {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return {
    udp: handles.filter((h) => h instanceof dgram.Socket).length,
    tcp: handles.filter((h) => h instanceof net.Socket && !accepted.has(h)).length,
  };
}

/** Resolves once libuv ran the close callbacks of handles closed so far (a closed socket is listed until then). */
async function settled(): Promise<void> {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
}

/** How the fake server answers on UDP. */
type Mode = 'answer' | 'silent' | 'malformed' | 'truncated';
let mode: Mode = 'answer';
let udp: dgram.Socket;
let tcp: net.Server;
let port = 0;
/** A UDP port on 127.0.0.1 nothing listens on. */
let closedPort = 0;

const reply = (id: number, q: dnsPacket.Question[], flags = 0x8180): Buffer =>
  dnsPacket.encode({ type: 'response', id, flags, questions: q, answers: [{ type: 'A', name: q[0]!.name, ttl: 5, data: '192.0.2.1' }] });

beforeAll(async () => {
  udp = dgram.createSocket('udp4');
  udp.on('message', (msg, rinfo) => {
    const q = dnsPacket.decode(msg);
    if (mode === 'silent') return;
    const out = mode === 'malformed' ? Buffer.from([msg[0]!, msg[1]!, 0x81, 0x80, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 0x0c, 0, 1, 0, 1]) : reply(q.id!, q.questions!, mode === 'truncated' ? 0x8380 : 0x8180);
    udp.send(out, rinfo.port, rinfo.address);
  });
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', () => r()));
  port = udp.address().port;
  // The same port over TCP, for the retry of a truncated answer (RFC 7766 §5).
  tcp = net.createServer((s) => {
    accepted.add(s);
    s.once('data', (d) => {
      const q = dnsPacket.decode(d.subarray(2));
      s.end(dnsPacket.streamEncode({ type: 'response', id: q.id, flags: 0x8180, questions: q.questions, answers: [{ type: 'A', name: q.questions![0]!.name, ttl: 5, data: '192.0.2.1' }] }));
    });
  });
  await new Promise<void>((r) => tcp.listen(port, '127.0.0.1', () => r()));
  const gone = dgram.createSocket('udp4');
  await new Promise<void>((r) => gone.bind(0, '127.0.0.1', () => r()));
  closedPort = gone.address().port;
  await new Promise<void>((r) => gone.close(() => r()));
});
afterAll(async () => {
  await new Promise<void>((r) => udp.close(() => r()));
  await new Promise<void>((r) => tcp.close(() => r()));
});

describe('queryDns closes its socket on every path', () => {
  it('answer, timeout, refusal, malformed answer, truncated → TCP, TCP answer: none left open', async () => {
    await settled();
    const before = openSockets();
    const ask = async (m: Mode, server: string, transport: 'udp' | 'tcp' = 'udp') => {
      mode = m;
      // 400 ms is the timeout path's own deadline, not a wait for the others (they end on a packet).
      const r = await queryDns({ name: 'a.example', type: 'A', server, transport, timeoutMs: 400, recheckBare: false });
      return `${r.transport} ${r.rcode}`;
    };
    const results = [
      await ask('answer', `127.0.0.1:${port}`),
      await ask('silent', `127.0.0.1:${port}`),
      await ask('answer', `127.0.0.1:${closedPort}`),
      await ask('malformed', `127.0.0.1:${port}`),
      await ask('truncated', `127.0.0.1:${port}`),
      await ask('answer', `127.0.0.1:${port}`, 'tcp'),
    ];
    expect(results).toEqual(['udp NOERROR', 'udp TIMEOUT', 'udp ERROR', 'udp MALFORMED_ANSWER', 'tcp NOERROR', 'tcp NOERROR']);
    await settled();
    expect(openSockets()).toEqual(before);
  });
});
