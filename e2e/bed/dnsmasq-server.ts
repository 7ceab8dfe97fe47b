import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { queryDns } from '../../electron/core/probes/dns-query';
import { formatServer } from '../../electron/core/host/parse-server';

/** Debian dnsmasq-base's binary. */
export const DNSMASQ_BIN = '/usr/sbin/dnsmasq';

/** Records a test DNS server serves; every name lower-case, without trailing dot. */
export interface DnsmasqRecords {
  /** `host-record=NAME,IP`: A/AAAA plus the matching PTR (dnsmasq(8)). */
  hosts?: [name: string, ip: string][];
  /** `local=/ZONE/`: answered only from local data, so unknown names are NXDOMAIN. */
  localZones?: string[];
  /** `ptr-record=ARPA-NAME,TARGET`. */
  ptrs?: [arpaName: string, target: string][];
  /** `cname=ALIAS,TARGET` (target must be a local record). */
  cnames?: [alias: string, target: string][];
  /** `txt-record=NAME,"s1","s2"`. */
  txts?: [name: string, strings: string[]][];
  /** `srv-host=NAME,TARGET,PORT,PRIORITY,WEIGHT`. */
  srvs?: { name: string; target: string; port: number; priority: number; weight: number }[];
  /** `mx-host=NAME,EXCHANGE,PREFERENCE`. */
  mxs?: { name: string; exchange: string; preference: number }[];
}

/** How to start one dnsmasq. */
export interface DnsmasqOptions {
  /** IP to bind (`--listen-address` with `--bind-interfaces`); must already be assigned. */
  listenAddress: string;
  /** UDP+TCP port; omitted: a random high port (retried when taken), so no root is needed. */
  port?: number;
  records: DnsmasqRecords;
  /** TTL in seconds of local answers (`local-ttl`; dnsmasq's default 0 would hide TTL bugs). Default 30. */
  localTtl?: number;
  /** Readiness budget in ms (default 10000). */
  readyTimeoutMs?: number;
  /** Log every query to the log file (`log-queries`). */
  logQueries?: boolean;
}

/** A running dnsmasq started by startDnsmasq. */
export interface DnsmasqServer {
  pid: number;
  address: string;
  port: number;
  /** `IP:PORT`, ready for queryDns. */
  server: string;
  /** Temp dir with dnsmasq.conf, the pid file and dnsmasq.log. */
  workDir: string;
  logFile: string;
  /** SIGTERM by PID, wait for exit (SIGKILL after 3 s), remove the temp dir. Idempotent. */
  stop(): Promise<void>;
  /** Whether the process still runs: false once it exited, also when something else killed it (a `kill PID` in the sandbox). */
  running(): boolean;
}

/** Renders the records and TTL as a dnsmasq.conf (dnsmasq(8) long options without `--`). */
export function renderDnsmasqConfig(records: DnsmasqRecords, localTtl = 30, logQueries = false): string {
  const lines: string[] = [`local-ttl=${localTtl}`];
  if (logQueries) lines.push('log-queries');
  for (const z of records.localZones ?? []) lines.push(`local=/${z}/`);
  for (const [name, ip] of records.hosts ?? []) lines.push(`host-record=${name},${ip}`);
  for (const [arpa, target] of records.ptrs ?? []) lines.push(`ptr-record=${arpa},${target}`);
  for (const [alias, target] of records.cnames ?? []) lines.push(`cname=${alias},${target}`);
  for (const [name, strings] of records.txts ?? [])
    lines.push(`txt-record=${name},${strings.map((s) => `"${s}"`).join(',')}`);
  for (const s of records.srvs ?? []) lines.push(`srv-host=${s.name},${s.target},${s.port},${s.priority},${s.weight}`);
  for (const m of records.mxs ?? []) lines.push(`mx-host=${m.name},${m.exchange},${m.preference}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Starts Debian's dnsmasq in the foreground as an authoritative-only test server (no
 * resolv.conf, no /etc/hosts, no upstreams) and resolves once a query is answered on UDP.
 * Throws with dnsmasq's own error (e.g. `Address already in use`, `Cannot assign requested
 * address` when the listen IP is not configured) if it exits or is not ready in time.
 */
export async function startDnsmasq(opts: DnsmasqOptions): Promise<DnsmasqServer> {
  const attempts = opts.port === undefined ? 5 : 1;
  let lastError: Error | undefined;
  for (let i = 0; i < attempts; i++) {
    const port = opts.port ?? randomInt(20000, 60000);
    try {
      return await startOnce(opts, port);
    } catch (err) {
      lastError = err as Error;
      // Only a taken random port is worth another try.
      if (!/address already in use/i.test(lastError.message)) throw lastError;
    }
  }
  throw lastError ?? new Error('dnsmasq did not start');
}

/** One start attempt on a fixed port. */
async function startOnce(opts: DnsmasqOptions, port: number): Promise<DnsmasqServer> {
  const workDir = await mkdtemp(join(tmpdir(), 'k2sdns-dnsmasq-'));
  const confFile = join(workDir, 'dnsmasq.conf');
  const logFile = join(workDir, 'dnsmasq.log');
  await writeFile(confFile, renderDnsmasqConfig(opts.records, opts.localTtl ?? 30, opts.logQueries ?? false));
  const args = [
    '--keep-in-foreground',
    `--conf-file=${confFile}`,
    '--no-resolv',
    '--no-hosts',
    '--no-poll',
    '--bind-interfaces',
    `--listen-address=${opts.listenAddress}`,
    `--port=${port}`,
    `--pid-file=${join(workDir, 'dnsmasq.pid')}`,
    `--log-facility=${logFile}`,
  ];
  // As root dnsmasq drops to user `dnsmasq`, which dnsmasq-base does not create.
  if (process.getuid?.() === 0) args.push('--user=root', '--group=root');
  const child = spawn(DNSMASQ_BIN, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.on('error', () => resolve(-1));
  });
  const server = formatServer({ address: opts.listenAddress, port });
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await killAndWait(child, exited);
    await rm(workDir, { recursive: true, force: true });
  };
  const ready = await waitReady(server, exited, opts.readyTimeoutMs ?? 10_000);
  if (ready !== 'ready') {
    const log = await readFile(logFile, 'utf8').catch(() => '');
    await stop();
    const why = (stderr.trim() || log.trim().split('\n').slice(-3).join(' / ') || 'no output').replace(/\s+/g, ' ');
    throw new Error(
      ready === 'exited'
        ? `dnsmasq on ${server} exited at start: ${why}; check that the address is assigned and the port is free.`
        : `dnsmasq on ${server} did not answer within the readiness budget: ${why}; check its log.`,
    );
  }
  const running = () => child.exitCode === null && child.signalCode === null;
  return { pid: child.pid ?? -1, address: opts.listenAddress, port, server, workDir, logFile, stop, running };
}

/** Polls with real queries (each bounded by its own timeout) until dnsmasq answers, exits, or time runs out. */
async function waitReady(server: string, exited: Promise<number | null>, budgetMs: number): Promise<'ready' | 'exited' | 'timeout'> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = performance.now() + budgetMs;
  while (performance.now() < deadline) {
    if (gone) return 'exited';
    const r = await queryDns({ name: 'k2sdns-readiness.invalid', type: 'A', server, timeoutMs: 250 });
    // Any DNS answer (even REFUSED for a name outside our zones) proves the listener is up.
    if (r.rcode !== 'TIMEOUT' && r.rcode !== 'ERROR') return 'ready';
    if (r.rcode === 'ERROR') await new Promise((res) => setTimeout(res, 50)); // back off a failing send
  }
  return gone ? 'exited' : 'timeout';
}

/** SIGTERM the child by PID, wait for its exit, SIGKILL after 3 s. */
export async function killAndWait(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const forced = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, 3000);
  });
  await Promise.race([exited, forced]);
  await exited;
  clearTimeout(timer);
}
