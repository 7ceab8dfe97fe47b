/**
 * Regenerates fixtures/logs/: real log output of AdGuard dnsproxy (the pinned build in
 * .tools/bin, or $DNSPROXY) and Debian's dnsmasq, run with the config the product renders
 * (shared/dnsproxy-config.ts, shared/dnsmasq-config.ts) adapted to loopback high ports, so it
 * needs no root, no namespace and never touches port 53 or /etc/resolv.conf.
 *
 * Bed (all 127.0.0.1): the proxy under test on 15353; "kube-dns" = CoreDNS (.tools/bin/coredns,
 * `file` and `template` plugins, when built; else a dnsmasq stand-in) on 15354 for cluster.local and
 * 21.172.in-addr.arpa; the "LAN" nameserver = dnsmasq on 15355 (example.org, printer.lan and
 * its PTR 192.168.1.20, nx.example.org NXDOMAIN); a UDP sink on 15356 that never answers
 * (timeout.test, a timeout); nothing on 15357 (refused.test, refused → SERVFAIL).
 * Queries are sent with dig, one at a time, in the order of QUERIES (UDP unless marked TCP).
 *
 * Run: `npx tsx scripts/capture-engine-logs.ts` (or with --out DIR). Every process it starts is
 * killed by its PID; temp files live in a fresh os.tmpdir() folder that is removed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, closeSync } from 'node:fs';
import { createSocket } from 'node:dgram';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderDnsmasqArgs, renderDnsmasqConfig } from '../shared/dnsmasq-config';
import { renderDnsproxyArgs, renderDnsproxyConfig } from '../shared/dnsproxy-config';
import type { EngineName, ProxyPlan, ZoneRoute } from '../shared/types';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outArg = process.argv.indexOf('--out');
const OUT = outArg > 0 ? path.resolve(process.argv[outArg + 1]!) : path.join(ROOT, 'fixtures/logs');
const DNSPROXY = process.env.DNSPROXY ?? path.join(ROOT, '.tools/bin/dnsproxy');
const COREDNS = process.env.COREDNS ?? path.join(ROOT, '.tools/bin/coredns');
const DNSMASQ = process.env.DNSMASQ ?? '/usr/sbin/dnsmasq';

const PROXY_PORT = 15353;
const KUBE_DNS = '127.0.0.1:15354';
const LAN = '127.0.0.1:15355';
const SINK = '127.0.0.1:15356';
const REFUSED = '127.0.0.1:15357';

/** Queries sent to the proxy, in order: [name, type, tcp?]. */
export const QUERIES: [string, string, boolean][] = [
  ['kubernetes.default.svc.cluster.local', 'A', false],
  ['kubernetes.default.svc.cluster.local', 'A', false], // again: a cache hit
  ['broken.default.svc.cluster.local', 'A', false], // SERVFAIL from kube-dns
  ['nothere.default.svc.cluster.local', 'A', false], // NXDOMAIN from kube-dns
  ['10.0.21.172.in-addr.arpa', 'PTR', false], // cluster PTR → kube-dns
  ['20.1.168.192.in-addr.arpa', 'PTR', false], // LAN PTR → the LAN nameserver (private rDNS)
  ['www.example.org', 'A', false], // external name → the LAN nameserver
  ['nx.example.org', 'A', false], // external NXDOMAIN
  ['kube-dns.kube-system.svc.cluster.local', 'A', true], // over TCP
  ['www.example.org', 'AAAA', false], // REFUSED (the LAN nameserver has no upstream for it)
  ['slow.timeout.test', 'A', false], // upstream never answers
  ['any.refused.test', 'A', false], // upstream port closed
];

function zone(z: string, upstream: string, reason: string, clusterDomain = false, reverse = false): ZoneRoute {
  return { zone: z, upstream, source: 'corefile', reason, clusterDomain, reverse };
}

/** The plan the product would build, on loopback high ports. */
function plan(engine: EngineName, logFile: string, verbose: boolean): ProxyPlan {
  return {
    engine,
    listeners: [{ address: '127.0.0.1', port: PROXY_PORT }],
    zones: [
      zone('cluster.local', KUBE_DNS, 'Corefile block ".:53", plugin kubernetes', true),
      zone('21.172.in-addr.arpa', KUBE_DNS, 'service CIDR 172.21.0.0/16', false, true),
      zone('timeout.test', SINK, 'capture bed: a nameserver that never answers'),
      zone('refused.test', REFUSED, 'capture bed: a closed port'),
    ],
    upstreams: [LAN],
    clusterCidrs: ['172.21.0.0/16'],
    logFile,
    timeoutMs: 2000,
    verbose,
  };
}

const started: ChildProcess[] = [];

/** Spawns `file args` with stdout+stderr appended to `log` (like the supervised service). */
function startLogged(file: string, args: string[], log: string): ChildProcess {
  const fd = openSync(log, 'a');
  const child = spawn(file, args, { stdio: ['ignore', fd, fd] });
  closeSync(fd);
  started.push(child);
  return child;
}

/** Polls `cond` every 50 ms until true or `ms` passes; throws with `what` on timeout. */
async function waitFor(cond: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Resolves with the exit code once `child` exits (or at once if it already has). */
function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((r) => child.once('exit', (code) => r(code)));
}

/** SIGTERM to `child` by PID, then waits for it to exit (SIGKILL after 5 s). */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  process.kill(child.pid, 'SIGTERM');
  const t = setTimeout(() => child.pid !== undefined && child.exitCode === null && process.kill(child.pid, 'SIGKILL'), 5000);
  await exited(child);
  clearTimeout(t);
}

/** One dig through the proxy; returns its status line (`status: NOERROR` …) or the error. */
function dig(name: string, type: string, tcp: boolean, port = PROXY_PORT): string {
  const args = [`@127.0.0.1`, '-p', String(port), name, type, '+tries=1', '+time=5', '+noall', '+comments'];
  if (tcp) args.push('+tcp');
  const r = spawnSync('dig', args, { encoding: 'utf8', timeout: 10_000 });
  return /status: (\w+)/.exec(r.stdout)?.[1] ?? `no answer (${r.stdout.trim().split('\n').pop() ?? r.status})`;
}

/** True when a dig to 127.0.0.1:`port` gets any DNS reply. */
function answers(port: number, name: string): boolean {
  return /status: /.test(spawnSync('dig', ['@127.0.0.1', '-p', String(port), name, '+tries=1', '+time=1', '+noall', '+comments'], { encoding: 'utf8' }).stdout);
}

/** Starts kube-dns (CoreDNS when built, else dnsmasq) and the LAN nameserver; returns a UDP sink closer. */
async function startBed(dir: string): Promise<{ kubeDns: string; close: () => void }> {
  let kubeDns: string;
  if (existsSync(COREDNS)) {
    const corefile = path.join(dir, 'Corefile');
    const soa = (origin: string) => `${origin}. 5 IN SOA ns.dns.cluster.local. hostmaster.cluster.local. 1 7200 1800 86400 5`;
    writeFileSync(path.join(dir, 'db.cluster.local'), [
      soa('cluster.local'),
      'kubernetes.default.svc.cluster.local. 5 IN A 172.21.0.1',
      'kube-dns.kube-system.svc.cluster.local. 5 IN A 172.21.0.10',
      '',
    ].join('\n'));
    writeFileSync(path.join(dir, 'db.21.172'), [
      soa('21.172.in-addr.arpa'),
      '1.0.21.172.in-addr.arpa. 5 IN PTR kubernetes.default.svc.cluster.local.',
      '10.0.21.172.in-addr.arpa. 5 IN PTR kube-dns.kube-system.svc.cluster.local.',
      '',
    ].join('\n'));
    writeFileSync(corefile, [
      'cluster.local:15354 21.172.in-addr.arpa:15354 {',
      '  bind 127.0.0.1',
      '  # broken.* gets SERVFAIL (what an unsynced kubernetes plugin answers); other unknown names NXDOMAIN with the SOA.',
      '  template ANY ANY cluster.local {',
      '    match "^broken[.]"',
      '    rcode SERVFAIL',
      '    fallthrough',
      '  }',
      `  file ${path.join(dir, 'db.cluster.local')} cluster.local`,
      `  file ${path.join(dir, 'db.21.172')} 21.172.in-addr.arpa`,
      '}',
      '',
    ].join('\n'));
    startLogged(COREDNS, ['-conf', corefile], path.join(dir, 'coredns.log'));
    kubeDns = spawnSync(COREDNS, ['-version'], { encoding: 'utf8' }).stdout.split('\n')[0] ?? 'CoreDNS';
  } else {
    writeFileSync(path.join(dir, 'kube.conf'), [
      'no-resolv', 'no-hosts', 'bind-interfaces', 'listen-address=127.0.0.1', 'port=15354',
      'local=/cluster.local/', 'local=/21.172.in-addr.arpa/',
      'host-record=kubernetes.default.svc.cluster.local,172.21.0.1',
      'host-record=kube-dns.kube-system.svc.cluster.local,172.21.0.10', '',
    ].join('\n'));
    startLogged(DNSMASQ, ['--keep-in-foreground', `--conf-file=${path.join(dir, 'kube.conf')}`, '--pid-file=', '--user=root'], path.join(dir, 'kube.log'));
    kubeDns = 'dnsmasq stand-in';
  }
  writeFileSync(path.join(dir, 'lan.conf'), [
    'no-resolv', 'no-hosts', 'bind-interfaces', 'listen-address=127.0.0.1', 'port=15355',
    'address=/example.org/93.184.215.14', 'address=/nx.example.org/', 'local=/lan/',
    'host-record=printer.lan,192.168.1.20', '',
  ].join('\n'));
  startLogged(DNSMASQ, ['--keep-in-foreground', `--conf-file=${path.join(dir, 'lan.conf')}`, '--pid-file=', '--user=root'], path.join(dir, 'lan.log'));
  const sink = createSocket('udp4');
  sink.on('message', () => undefined); // swallow: the timeout case
  await new Promise<void>((r) => sink.bind(15356, '127.0.0.1', () => r()));
  await waitFor(() => answers(15354, 'kubernetes.default.svc.cluster.local') && answers(15355, 'www.example.org'), 15_000, 'kube-dns and LAN nameservers');
  return { kubeDns, close: () => sink.close() };
}

/** Runs the proxy engine once with the product's config; writes `<name>.log` (stdout+stderr as the service appends them). */
async function captureRun(dir: string, engine: EngineName, name: string, verbose: boolean, queries: typeof QUERIES): Promise<string[]> {
  const log = path.join(dir, `${name}.log`);
  writeFileSync(log, '');
  const p = plan(engine, log, verbose);
  let child: ChildProcess;
  if (engine === 'adguard') {
    const conf = path.join(dir, `${name}.yaml`);
    writeFileSync(conf, renderDnsproxyConfig(p));
    child = startLogged(DNSPROXY, renderDnsproxyArgs(conf, verbose), log);
  } else {
    const conf = path.join(dir, `${name}.conf`);
    writeFileSync(conf, renderDnsmasqConfig(p));
    child = startLogged(DNSMASQ, renderDnsmasqArgs(conf, p.listeners.map((l) => l.address)), log);
  }
  await waitFor(() => answers(PROXY_PORT, 'kube-dns.kube-system.svc.cluster.local') || child.exitCode !== null, 15_000, `${name} to answer`);
  // The readiness probe above is a query too; mark where the scripted queries begin.
  const statuses: string[] = [];
  for (const [qname, type, tcp] of queries) statuses.push(`${qname} ${type}${tcp ? ' tcp' : ''}: ${dig(qname, type, tcp)}`);
  // A second instance on the same port: the bind failure, then the clean SIGTERM shutdown.
  await new Promise((r) => setTimeout(r, 300)); // let the last query's lines reach the log (not a sync point: output only)
  await stop(child);
  copyOut(log, `${name}.log`);
  return statuses;
}

/** The same engine started while the port is held: its bind-failure output. */
async function captureBindFailure(dir: string, engine: EngineName, name: string): Promise<void> {
  const holder = createSocket('udp4');
  await new Promise<void>((r) => holder.bind(PROXY_PORT, '127.0.0.1', () => r()));
  const log = path.join(dir, `${name}.log`);
  writeFileSync(log, '');
  const p = plan(engine, log, false);
  let child: ChildProcess;
  if (engine === 'adguard') {
    const conf = path.join(dir, `${name}.yaml`);
    writeFileSync(conf, renderDnsproxyConfig(p));
    child = startLogged(DNSPROXY, renderDnsproxyArgs(conf, false), log);
  } else {
    const conf = path.join(dir, `${name}.conf`);
    writeFileSync(conf, renderDnsmasqConfig(p));
    child = startLogged(DNSMASQ, renderDnsmasqArgs(conf, p.listeners.map((l) => l.address)), log);
  }
  const t = setTimeout(() => void stop(child), 10_000);
  const code = await exited(child);
  clearTimeout(t);
  holder.close();
  appendFileSync(path.join(OUT, 'exit-codes.txt'), `${name}: exit ${code}\n`);
  copyOut(log, `${name}.log`);
}

/**
 * Copies a captured log into OUT. The only edit: the temp folder in dnsproxy's `config path:`
 * line becomes /etc/k2s (where the product writes its config), so no machine path is committed.
 */
function copyOut(from: string, to: string): void {
  const bytes = readFileSync(from, 'latin1').split(path.dirname(from)).join('/etc/k2s');
  writeFileSync(path.join(OUT, to), bytes, 'latin1');
}

/**
 * e2e/support/backend-fake-logs.ts: the verbose captures as string constants, so the fake backend
 * (also bundled into the renderer, which cannot read files) serves real engine lines.
 */
function writeFakeLogsModule(): void {
  const text = (f: string) => JSON.stringify(readFileSync(path.join(OUT, f), 'utf8'));
  writeFileSync(path.join(ROOT, 'e2e/support/backend-fake-logs.ts'), [
    '/**',
    ' * Real engine log captures for the fake backend: generated by scripts/capture-engine-logs.ts from',
    ' * fixtures/logs/ (a test checks they are equal byte for byte). Do not edit.',
    ' */',
    '',
    '/** fixtures/logs/dnsproxy-verbose.log: AdGuard dnsproxy v0.83.1 with -v, one run. */',
    `export const DNSPROXY_VERBOSE_LOG = ${text('dnsproxy-verbose.log')};`,
    '',
    '/** fixtures/logs/dnsmasq-verbose.log: dnsmasq 2.90 with log-queries=extra, one run. */',
    `export const DNSMASQ_VERBOSE_LOG = ${text('dnsmasq-verbose.log')};`,
    '',
  ].join('\n'));
}

async function main(): Promise<void> {
  if (!existsSync(DNSPROXY)) throw new Error(`No dnsproxy at ${DNSPROXY}: run scripts/setup.sh first.`);
  mkdirSync(OUT, { recursive: true });
  writeFileSync(path.join(OUT, 'exit-codes.txt'), '');
  const dir = mkdtempSync(path.join(tmpdir(), 'k2s-dns-logs-'));
  const version = spawnSync(DNSPROXY, ['--version'], { encoding: 'utf8' });
  writeFileSync(path.join(OUT, 'dnsproxy-version.txt'), version.stdout + version.stderr);
  const dv = spawnSync(DNSMASQ, ['--version'], { encoding: 'utf8' });
  writeFileSync(path.join(OUT, 'dnsmasq-version.txt'), dv.stdout.split('\n')[0] + '\n');
  let bed: { kubeDns: string; close: () => void } | null = null;
  try {
    bed = await startBed(dir);
    const summary: string[] = [`kube-dns: ${bed.kubeDns}`, `dnsproxy: ${version.stdout.trim()}`, `dnsmasq: ${dv.stdout.split('\n')[0]}`, ''];
    for (const [engine, name, verbose] of [
      ['adguard', 'dnsproxy-verbose', true],
      ['adguard', 'dnsproxy-quiet', false],
      ['dnsmasq', 'dnsmasq-verbose', true],
      ['dnsmasq', 'dnsmasq-quiet', false],
    ] as const) {
      summary.push(`## ${name}`, ...(await captureRun(dir, engine, name, verbose, QUERIES)), '');
    }
    await captureBindFailure(dir, 'adguard', 'dnsproxy-bind-failure');
    await captureBindFailure(dir, 'dnsmasq', 'dnsmasq-bind-failure');
    writeFileSync(path.join(OUT, 'queries.txt'), `${summary.join('\n')}\n`);
    if (outArg < 0) writeFakeLogsModule(); // only when regenerating the committed fixtures
  } finally {
    bed?.close();
    for (const c of started) await stop(c);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
