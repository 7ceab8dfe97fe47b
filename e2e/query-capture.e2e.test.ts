/**
 * The exact query log from packets, on the real engines as the product starts them (k2s-dns
 * start, query log off): tcpdump -i any opens the capture as root and drops to nobody, the
 * parser runs as nobody (electron/core/capture/pipeline.ts), and each row must pair the query
 * and the answer of one client socket: its port, its DNS id, the rcode, the answers and the
 * upstream that answered — including two clients that use the same DNS id at the same moment,
 * TCP, and an answer from the proxy's cache (no upstream).
 */
import { createSocket } from 'node:dgram';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode, encode, streamDecode, streamEncode, type Packet } from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCapturePipeline } from '../electron/core/capture/pipeline';
import type { CapturedQuery } from '../electron/core/capture/pairing';
import { engineArgs, engineMissing, PROXY_ENGINES } from './bed/engines';
import { startTestbed, type Testbed } from './bed/testbed';
import { runCmd } from './bed/run-cmd';
import { k2sDns } from './cli';
import { bundleCaptureParser, NODE_PIPELINE_DEPS } from './support/capture-parser';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: query-capture e2e runs only inside e2e/bed/sandbox.sh (as root)');
const tcpdump = inSandbox ? await runCmd('sh', ['-c', 'command -v tcpdump || true']).then((s) => s.trim()) : '';
if (inSandbox && tcpdump === '') console.warn('skipped: tcpdump is not installed (apt-get install tcpdump; scripts/setup.sh installs it)');
const dnsproxyMissing = inSandbox ? await engineMissing('dnsproxy') : null;
if (dnsproxyMissing) console.warn(`skipped for adguard: ${dnsproxyMissing}`);

/** One UDP query from a socket bound to 127.0.0.1:`port` with DNS id `id`; resolves with the answer's rcode. */
function udpQuery(port: number, id: number, name: string): Promise<string> {
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

/** One TCP query with DNS id `id`; resolves with the client's port and the rcode. */
function tcpQuery(id: number, name: string): Promise<{ port: number; rcode: string }> {
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

describe.skipIf(!inSandbox || tcpdump === '')('exact query log from packets (tcpdump reader, non-root parser)', () => {
  let tb: Testbed;
  let dir: string;
  let parser: { file: string; args: string[] };
  beforeAll(async () => {
    tb = await startTestbed();
    dir = await mkdtemp(join(tmpdir(), 'k2s-dns-capture-'));
    parser = await bundleCaptureParser(dir);
  }, 90_000);
  afterAll(async () => {
    await k2sDns(['stop', '--on-drift', 'restore']);
    await tb?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  for (const engine of PROXY_ENGINES) {
    it.skipIf(engine === 'adguard' && dnsproxyMissing !== null)(`${engine}: every row is one client socket's query and answer, with the upstream that answered`, async () => {
      const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs(engine), '--verify-name', 'www.example.test', '--no-log-queries', '--json']);
      expect(start.code, start.stderr).toBe(0);
      const rows: CapturedQuery[] = [];
      // The six client rows arrive as the parser reads them (it may lag the answers on a busy machine).
      let sixRows!: () => void;
      const allRows = new Promise<void>((r) => (sixRows = r));
      const onRow = (r: CapturedQuery) => {
        rows.push(r);
        if (rows.filter((x) => x.rcode !== null && x.listener === '127.0.0.1:53').length >= 6) sixRows();
      };
      const cap = await startCapturePipeline(NODE_PIPELINE_DEPS, { iface: 'any', ports: [53], user: 'nobody', uid: 65534, gid: 65534, parser, listeners: ['127.0.0.1:53', '172.19.1.1:53'], tcpdump, onRow });
      let tcp: { port: number; rcode: string };
      let end: Awaited<ReturnType<typeof cap.stop>> | undefined;
      try {
        // Concurrently: two clients with the same DNS id and different names, three more names
        // (both upstreams, NXDOMAIN); none of them asked by start's own verify queries (cached).
        const rcodes = await Promise.all([
          udpQuery(41001, 4101, 'web.demo.svc.cluster.local'),
          udpQuery(41002, 4101, 'nothere.default.svc.cluster.local'),
          udpQuery(41003, 4102, 'mirror.example.test'),
          udpQuery(41004, 4103, 'nx.example.test'),
        ]);
        expect(rcodes).toEqual(['NOERROR', 'NXDOMAIN', 'NOERROR', 'NXDOMAIN']);
        tcp = await tcpQuery(4104, 'kube-dns.kube-system.svc.cluster.local');
        // Asked again once answered: the proxy's cache answers (both engines run with a cache).
        expect(await udpQuery(41006, 4105, 'web.demo.svc.cluster.local')).toBe('NOERROR');
        await Promise.race([allRows, new Promise((r) => setTimeout(r, 15_000))]);
      } finally {
        end = await cap.stop();
      }
      expect(end!.dropped).toBe(0);
      const kubeDns = `${tb.addresses.kubeDns}:53`;
      const upstream = `${tb.addresses.upstream}:53`;
      const got = rows
        .filter((r) => r.client.startsWith('127.0.0.1:') && r.listener === '127.0.0.1:53')
        .map((r) => [r.proto, r.client, r.id, r.name, r.rcode, r.answers.join(','), r.upstream])
        .sort((a, b) => String(a[1]).localeCompare(String(b[1])));
      expect(got).toEqual(
        [
          ['udp', '127.0.0.1:41001', 4101, 'web.demo.svc.cluster.local', 'NOERROR', '172.21.14.7', kubeDns],
          ['udp', '127.0.0.1:41002', 4101, 'nothere.default.svc.cluster.local', 'NXDOMAIN', '', kubeDns],
          ['udp', '127.0.0.1:41003', 4102, 'mirror.example.test', 'NOERROR', '198.51.100.8', upstream],
          ['udp', '127.0.0.1:41004', 4103, 'nx.example.test', 'NXDOMAIN', '', upstream],
          ['udp', '127.0.0.1:41006', 4105, 'web.demo.svc.cluster.local', 'NOERROR', '172.21.14.7', null],
          ['tcp', `127.0.0.1:${tcp!.port}`, 4104, 'kube-dns.kube-system.svc.cluster.local', 'NOERROR', '172.21.0.10', kubeDns],
        ].sort((a, b) => String(a[1]).localeCompare(String(b[1]))),
      );
      // Latencies from the packets' time stamps: the upstream's round trip lies within the client's.
      for (const r of rows.filter((x) => x.upstream !== null)) expect(r.upstreamLatencyMs!).toBeLessThanOrEqual(r.latencyMs!);
      expect((await k2sDns(['stop', '--on-drift', 'restore'])).code).toBe(0);
    }, 90_000);
  }
});
