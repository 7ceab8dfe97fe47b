/**
 * One rcode per question (new-user walk, medium): with CoreDNS down, `k2s-dns status` showed the
 * listener hop "NOERROR … without an address" while `dig @127.0.0.1` got SERVFAIL, and one
 * `k2s-dns query` printed "NOERROR" in its headline and "1. <the same name> → SERVFAIL" a few
 * lines below. Measured here with the real AdGuard dnsproxy v0.83.1: a question asked while an
 * identical one (same name in any case, type, class, DO bit) is in flight gets the in-flight one's
 * reply copied with the rcode reset to NOERROR (proxy/pending.go + miekg/dns SetReply): a SERVFAIL
 * becomes a bare NOERROR. status's own probes (each listener, getaddrinfo's A) ask the same
 * question at once, and any other client asking the name (the app's status poll) does it to
 * `query`. This test compares what each command prints with a raw query of the same type to
 * 127.0.0.1:53 (dns-packet over UDP, nothing else in flight), for both engines.
 * Runs only inside e2e/bed/sandbox.sh.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSocket } from 'node:dgram';
import { access } from 'node:fs/promises';
import * as dnsPacket from 'dns-packet';
import { K2S_PATHS } from '../shared/k2s-paths';
import type { HostDnsStatus } from '../shared/types';
import { startTestbed, type Testbed } from './bed/testbed';
import { engineArgs, engineMissing, PROXY_ENGINES, type ProxyEngine } from './bed/engines';
import { k2sDns } from './cli';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: coredns-down-rcodes e2e runs only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)');
const dnsproxyMissing = inSandbox ? await engineMissing('dnsproxy') : null;
if (dnsproxyMissing) console.warn(`skipped: coredns-down-rcodes e2e with --engine adguard (${dnsproxyMissing})`);

const NAME = 'kubernetes.default.svc.cluster.local';
const exists = (p: string) => access(p).then(() => true, () => false);

/** What one raw UDP query to 127.0.0.1:53 got: the rcode, or TIMEOUT past `timeoutMs`; answers' data; SOA in authority. */
interface Raw {
  rcode: string;
  answers: string[];
  soa?: boolean;
}

/** One query of `type` for `name` to 127.0.0.1:53 over UDP with dns-packet (RD set, no EDNS, like glibc and the CLI). */
function rawQuery(name: string, type: 'A' | 'AAAA', timeoutMs: number): Promise<Raw> {
  const socket = createSocket('udp4');
  const id = Math.floor(Math.random() * 0x10000);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      socket.close();
      resolve({ rcode: 'TIMEOUT', answers: [] });
    }, timeoutMs);
    socket.on('message', (msg) => {
      const p = dnsPacket.decode(msg) as dnsPacket.DecodedPacket & { rcode?: string };
      if (p.id !== id) return;
      clearTimeout(timer);
      socket.close();
      resolve({ rcode: p.rcode ?? 'NOERROR', answers: (p.answers ?? []).map((a) => String((a as { data?: unknown }).data)), soa: (p.authorities ?? []).some((a) => a.type === 'SOA') });
    });
    socket.send(dnsPacket.encode({ type: 'query', id, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type, name, class: 'IN' }] }), 53, '127.0.0.1');
  });
}

/** Like dig's wait for one try. */
const DIG_WAIT_MS = 5000;

/**
 * What the proxy answers the question on its own, as dig sees it: a raw A query with dig's
 * 5 s wait; a bare NOERROR (no record, no SOA) is a copy of an identical question that was in
 * flight (the status probes' own, which dnsproxy still resolves after the CLI stopped waiting),
 * so it is asked again once that one has ended — the reply is this question's.
 */
async function proxyAnswer(name: string): Promise<Raw> {
  const r = await rawQuery(name, 'A', DIG_WAIT_MS);
  return r.rcode === 'NOERROR' && r.answers.length === 0 && !r.soa ? rawQuery(name, 'A', DIG_WAIT_MS) : r;
}

/**
 * True when `printed` (an rcode the CLI printed after waiting `ms` of its `deadlineMs`) is what
 * the proxy answers (`raw`): the same rcode, or TIMEOUT when the CLI stopped waiting at its
 * deadline — dnsproxy answers SERVFAIL only after its own upstream wait (1 s, twice at most), which
 * may pass the CLI's; it is never another reply.
 */
function agrees(printed: string, ms: number, deadlineMs: number, raw: Raw): boolean {
  return printed === raw.rcode || (printed === 'TIMEOUT' && ms >= deadlineMs - 5);
}

/**
 * Another client asking `name` A every `everyMs` until stop() (the app's 1 s status poll, a
 * browser): with dnsproxy, a question is always in flight while CoreDNS is down.
 */
function otherClient(name: string, everyMs: number): { stop(): Promise<void> } {
  let on = true;
  const inflight: Promise<Raw>[] = [];
  const timer = setInterval(() => {
    if (on) inflight.push(rawQuery(name, 'A', 3000));
  }, everyMs);
  return {
    async stop() {
      on = false;
      clearInterval(timer);
      await Promise.all(inflight);
    },
  };
}

/** The rcodes one `k2s-dns query` output prints for `name` (headline, then each search-list candidate that is the name itself). */
function queryRcodes(stdout: string, name: string): string[] {
  const esc = name.replace(/\./g, '\\.');
  const head = new RegExp(`^;; ${esc}\\.? A via \\S+ \\(udp\\): (\\S+) in`, 'im').exec(stdout);
  const candidates = [...stdout.matchAll(new RegExp(`^;;\\s+\\d+\\. ${esc}\\.? → (\\S+)`, 'gim'))].map((m) => m[1]!);
  return [...(head ? [head[1]!] : []), ...candidates];
}

describe.each(PROXY_ENGINES.map((e) => [e]))('CoreDNS down: query and status print the rcode the proxy answers (%s engine)', (engine: ProxyEngine) => {
  const skip = !inSandbox || (engine === 'adguard' && dnsproxyMissing !== null);
  let tb: Testbed;

  beforeAll(async () => {
    if (skip) return;
    tb = await startTestbed();
    const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs(engine), '--verify-name', 'www.example.test', '--json']);
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
    await tb.stopCoreDns();
    // The proxy answers from its cache until CoreDNS's TTL (30 s) ends: wait for that, polling
    // (the deadline leaves room for a busy 2-core machine).
    const deadline = Date.now() + 90_000;
    let last: Raw = { rcode: 'none', answers: [] };
    while (Date.now() < deadline) {
      last = await rawQuery(NAME, 'A', 3000);
      if (last.answers.length === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(last.answers, `the proxy still answers ${NAME} from its cache`).toEqual([]);
  }, 150_000);
  afterAll(async () => {
    if (skip) return;
    if ((await exists(K2S_PATHS.stateFile)) || (await exists(K2S_PATHS.pidFile))) await k2sDns(['stop', '--on-drift', 'restore']);
    await tb?.startCoreDns();
    await tb?.stop();
  }, 120_000);

  it.skipIf(skip)('status: every listener hop shows the rcode a raw A query to 127.0.0.1:53 gets', async () => {
    // The CLI's own deadline for a hop: 1500 ms (electron/core/health/check-health.ts).
    const HOP_MS = 1500;
    const raw = await proxyAnswer(NAME);
    const text = await k2sDns(['status']);
    const json = JSON.parse((await k2sDns(['status', '--json'])).stdout) as HostDnsStatus;
    const after = await proxyAnswer(NAME);
    console.log(`${engine}: raw A ${raw.rcode}, then ${after.rcode}; status:\n${text.stdout}`);
    expect(after.rcode, 'the raw answer changed during the run').toBe(raw.rcode);
    // A reply: `RCODE in N ms`; none: `does not answer (no reply in N ms)` (the verdict's words), a TIMEOUT here.
    const hops = [...text.stdout.matchAll(/^\s+\S k2s-dnsproxy on (\S+): (?:(\S+) in (\d+) ms|does not answer \(no reply in (\d+) ms\))/gm)].map((m) => (m[2] !== undefined ? { at: m[1]!, rcode: m[2], ms: Number(m[3]) } : { at: m[1]!, rcode: 'TIMEOUT', ms: Number(m[4]) }));
    expect(hops.length, text.stdout).toBeGreaterThan(0);
    for (const h of hops) expect(agrees(h.rcode, h.ms, HOP_MS, raw), `${h.at}: ${h.rcode} in ${h.ms} ms, the proxy answers ${raw.rcode}\n${text.stdout}`).toBe(true);
    const listeners = json.health!.hops.filter((h) => h.kind === 'listener' && h.type === 'A');
    expect(listeners.length).toBeGreaterThan(0);
    for (const h of listeners) expect(agrees(h.rcode!, h.latencyMs!, HOP_MS, raw), `${h.target}: ${h.rcode} in ${h.latencyMs} ms, the proxy answers ${raw.rcode}`).toBe(true);
  });

  for (const busy of [false, true]) {
    it.skipIf(skip)(`query --server proxy${busy ? ', while another client asks the same name' : ''}: the headline and every line for the name show the raw rcode`, async () => {
      // The CLI's deadline for one question: 2000 ms (queryDns's default).
      const QUERY_MS = 2000;
      const raw = await proxyAnswer(NAME);
      const other = busy ? otherClient(NAME, 150) : null;
      let q;
      try {
        q = await k2sDns(['query', NAME, '--server', 'proxy']);
      } finally {
        await other?.stop();
      }
      const after = await proxyAnswer(NAME);
      console.log(`${engine}${busy ? ' (busy)' : ''}: raw A ${raw.rcode}, then ${after.rcode}; query:\n${q.stdout}`);
      expect(after.rcode, 'the raw answer changed during the run').toBe(raw.rcode);
      const rcodes = queryRcodes(q.stdout, NAME);
      expect(rcodes.length, q.stdout).toBeGreaterThan(0);
      // One output, one rcode for the name and type, and it is the proxy's.
      expect(new Set(rcodes).size, q.stdout).toBe(1);
      const ms = Number(/ in ([\d.]+) ms$/m.exec(q.stdout)?.[1]);
      expect(agrees(rcodes[0]!, ms, QUERY_MS, raw), `${rcodes[0]} in ${ms} ms, the proxy answers ${raw.rcode}\n${q.stdout}`).toBe(true);
      // A SERVFAIL says where the route failed: CoreDNS gave the proxy no answer (shared/servfail-note.ts).
      if (rcodes[0] === 'SERVFAIL') expect(q.stdout).toMatch(/^;; note: SERVFAIL: the proxy could not get an answer from CoreDNS \(kube-dns [\d.]+:53\), where it sends the cluster zone cluster\.local; run .*k2s-dns status, which says why\.$/m);
    });
  }
});
