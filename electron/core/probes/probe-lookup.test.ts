import { describe, expect, it } from 'vitest';
import type { Exec, ExecResult } from '../host/exec';
import type { QueryResult } from '../../../shared/types';
import { probeLookup, type ProbeLookupIo } from './probe-lookup';

const NAME = 'KUBERNETES.DEFAULT.svc.cluster.local';
const TWO = 'search example.test\nnameserver 192.0.2.53\nnameserver 192.0.2.54\n';
const FAILED: ExecResult = { code: 2, stdout: '', stderr: '' };

/** The canned answer of every nameserver, or of each by `ip:53` (`{ perServer: … }`). */
type Answers = Partial<QueryResult> | { perServer: Record<string, Partial<QueryResult>> };

/** Io with a canned getent result and canned DNS answers; records what was run and asked. */
function io(getent: ExecResult | Error, dns: Answers = {}, resolvConf: string | null = TWO, getentMs = 0) {
  const runs: string[][] = [];
  const asked: { name: string; server: string; timeoutMs: number }[] = [];
  const exec: Exec = {
    async run(file, args) {
      runs.push([file, ...args]);
      if (getentMs > 0) await new Promise((resolve) => setTimeout(resolve, getentMs)); // glibc waiting on a silent nameserver
      if (getent instanceof Error) throw getent;
      return getent;
    },
  };
  const value: ProbeLookupIo = {
    exec,
    query: async (q) => {
      asked.push({ name: q.name, server: q.server, timeoutMs: q.timeoutMs });
      const answer = 'perServer' in dns ? (dns.perServer[q.server] ?? {}) : dns;
      return { name: q.name, type: 'A', server: q.server, transport: 'udp', rcode: 'NOERROR', answers: [], latencyMs: 1, ...answer };
    },
    resolvConfText: async () => resolvConf,
    gai: async (name) => ({ name, type: 'A', server: 'system', transport: 'getaddrinfo', rcode: 'NOERROR', answers: [{ name, type: 'A', ttl: null, data: '203.0.113.9' }], latencyMs: 1 }),
  };
  return { value, runs, asked };
}

const A = (data: string) => ({ name: `${NAME}.`, type: 'A', ttl: 5, data });

describe('probeLookup (the health check’s getaddrinfo probe through getent)', () => {
  it('runs getent ahosts with the name exactly as given (capitals kept) and returns its addresses', async () => {
    const t = io({ code: 0, stdout: '172.21.0.1      STREAM kubernetes.default.svc.cluster.local\n172.21.0.1      DGRAM  \n', stderr: '' });
    const r = await probeLookup(NAME, 4000, t.value);
    expect(t.runs).toEqual([['getent', 'ahosts', '--', NAME]]);
    expect(r.rcode).toBe('NOERROR');
    expect(r.answers.map((a) => `${a.type} ${a.data}`)).toEqual(['A 172.21.0.1']);
    expect(t.asked).toEqual([]); // success needs no second question
  });

  it('exit 2: asks every nameserver the same name at once, so NXDOMAIN is told from SERVFAIL and silence', async () => {
    const nx = io(FAILED, { rcode: 'NXDOMAIN' });
    expect((await probeLookup(NAME, 4000, nx.value)).rcode).toBe('NXDOMAIN');
    expect(nx.asked.map((a) => `${a.name} ${a.server}`)).toEqual([`${NAME} 192.0.2.53:53`, `${NAME} 192.0.2.54:53`]);
    const servfail = await probeLookup(NAME, 4000, io(FAILED, { rcode: 'SERVFAIL' }).value);
    expect(servfail.rcode).toBe('SERVFAIL'); // not TIMEOUT: a fast TIMEOUT would read "refused" in the window
    expect(servfail.error).toBe('getaddrinfo gave up (EAI_AGAIN): 192.0.2.53:53 answered SERVFAIL; 192.0.2.54:53 answered SERVFAIL');
    const refused = await probeLookup(NAME, 4000, io(FAILED, { rcode: 'REFUSED' }).value);
    expect(refused.rcode).toBe('REFUSED');
  });

  it('silence: getent failing at once means the port refused; failing after a wait means no answer', async () => {
    const quick = await probeLookup(NAME, 4000, io(FAILED, { rcode: 'TIMEOUT', error: 'no answer' }).value);
    expect(quick.rcode).toBe('TIMEOUT');
    expect(quick.error).toBe('getaddrinfo gave up at once (EAI_AGAIN): 192.0.2.53:53 refuses: nothing listens on its port (ICMP port unreachable); 192.0.2.54:53 refuses: nothing listens on its port (ICMP port unreachable)');
    const slow = await probeLookup(NAME, 4000, io(FAILED, { rcode: 'TIMEOUT', error: 'no answer' }, TWO, 600).value);
    expect(slow.error).toBe('getaddrinfo gave up (EAI_AGAIN): 192.0.2.53:53 did not answer; 192.0.2.54:53 did not answer');
  });

  it('getent failing at once, but the proxy answers SERVFAIL after its upstream timeout: SERVFAIL, not "port unreachable"', async () => {
    // dnsproxy with CoreDNS down (UI e2e coredns-down-engines): silent within 500 ms, SERVFAIL after ~1 s.
    const t = io(FAILED);
    t.value.query = async (q) => {
      t.asked.push({ name: q.name, server: q.server, timeoutMs: q.timeoutMs });
      const rcode = q.timeoutMs > 1000 ? 'SERVFAIL' : 'TIMEOUT';
      return { name: q.name, type: 'A', server: q.server, transport: 'udp', rcode, answers: [], latencyMs: 1 };
    };
    const r = await probeLookup(NAME, 4000, t.value);
    expect(t.asked.map((a) => a.timeoutMs)).toEqual([500, 500, 1500, 1500]);
    expect(r.rcode).toBe('SERVFAIL');
    expect(r.error).toBe('getaddrinfo gave up (EAI_AGAIN): 192.0.2.53:53 answered SERVFAIL; 192.0.2.54:53 answered SERVFAIL');
  });

  it('walks the servers as glibc does: past SERVFAIL, REFUSED and silence to the first decisive answer', async () => {
    const t = io(FAILED, { perServer: { '192.0.2.53:53': { rcode: 'SERVFAIL' }, '192.0.2.54:53': { rcode: 'NXDOMAIN' } } });
    const r = await probeLookup(NAME, 4000, t.value);
    expect(r.rcode).toBe('NXDOMAIN');
    expect(r.error).toBe('getaddrinfo found no address: 192.0.2.54:53 says the name does not exist (NXDOMAIN)');
  });

  it('an A record from a nameserver blames NSS; a CNAME without an A record is no address, not NSS', async () => {
    const nss = await probeLookup(NAME, 4000, io(FAILED, { rcode: 'NOERROR', answers: [A('172.21.0.1')] }).value);
    expect(nss.rcode).toBe('ERROR');
    expect(nss.error).toBe('getaddrinfo found no address although 192.0.2.53:53 answers 172.21.0.1: check the hosts line of /etc/nsswitch.conf');
    const cname = await probeLookup(NAME, 4000, io(FAILED, { rcode: 'NOERROR', answers: [{ name: `${NAME}.`, type: 'CNAME', ttl: 5, data: 'gone.example.test.' }] }).value);
    expect(cname.rcode).toBe('NXDOMAIN');
    expect(cname.error).toContain('has no A record for it (NOERROR, no address)');
  });

  it('options rotate with servers that disagree: both answers named', async () => {
    const conf = 'nameserver 192.0.2.53\nnameserver 192.0.2.54\noptions rotate\n';
    const r = await probeLookup(NAME, 4000, io(FAILED, { perServer: { '192.0.2.53:53': { rcode: 'NOERROR', answers: [A('172.21.0.1')] }, '192.0.2.54:53': { rcode: 'NXDOMAIN' } } }, conf).value);
    expect(r.rcode).toBe('ERROR');
    expect(r.error).toBe('getaddrinfo found no address (options rotate: 192.0.2.54:53 says NXDOMAIN, so lookups differ by the server glibc starts at)');
  });

  it('no nameserver line: glibc asks 127.0.0.1 (resolv.conf(5)); an IPv6 nameserver is bracketed; at most three', async () => {
    const none = io(FAILED, { rcode: 'NXDOMAIN' }, 'search example.test\n');
    await probeLookup(NAME, 4000, none.value);
    expect(none.asked.map((a) => a.server)).toEqual(['127.0.0.1:53']);
    const many = io(FAILED, { rcode: 'NXDOMAIN' }, 'nameserver fd00::53\nnameserver 10.0.0.2\nnameserver 10.0.0.3\nnameserver 10.0.0.4\n');
    await probeLookup(NAME, 4000, many.value);
    expect(many.asked.map((a) => a.server)).toEqual(['[fd00::53]:53', '10.0.0.2:53', '10.0.0.3:53']);
  });

  it('the question stays within the probe deadline (at least 200 ms)', async () => {
    const t = io(FAILED, { rcode: 'TIMEOUT' }, TWO, 600);
    await probeLookup(NAME, 700, t.value);
    expect(t.asked[0]!.timeoutMs).toBe(200);
  });

  it('a name glibc refuses (label over 63) is named as such, nobody asked', async () => {
    const t = io(FAILED, { rcode: 'TIMEOUT' });
    const r = await probeLookup(`KUBERNETES.DEFAULT.svc.${'x'.repeat(64)}.local`, 4000, t.value);
    expect(r.rcode).toBe('ERROR');
    expect(r.error).toContain('is 64 characters long, over the 63 a DNS label can have (RFC 1035 §2.3.4)');
    expect(t.asked).toEqual([]);
  });

  it('getent killed at the deadline is TIMEOUT; getent missing or not executable falls back to in-process getaddrinfo', async () => {
    expect((await probeLookup(NAME, 4000, io({ code: null, stdout: '', stderr: '' }).value)).rcode).toBe('TIMEOUT');
    for (const code of ['ENOENT', 'EACCES']) {
      const r = await probeLookup(NAME, 4000, io(Object.assign(new Error(`spawn getent ${code}`), { code })).value);
      expect(r.answers.map((a) => a.data), code).toEqual(['203.0.113.9']);
    }
  });
});
