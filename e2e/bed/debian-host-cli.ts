/**
 * The product inside a booted Debian host (debian-host.ts): the CLI from the read-only checkout,
 * the host's resolver fingerprint, and the disk layout of a plain Debian 13 K2s server (a
 * /etc/resolv.conf file naming the bed's upstream, `hosts: files dns`, the bed's kubeconfig).
 */
import { readFile } from 'node:fs/promises';
import type { LifecycleEvent, ResultEvent } from '../../shared/lifecycle-events';
import { createDebianHost, HOST_CLI, type DebianHost, type DiskFile } from './debian-host';
import { startTestbed, type Testbed } from './testbed';
import { until } from '../support/until';

/** Where the bed's kubeconfig lies on the host's disk. */
export const HOST_KUBECONFIG = '/root/.kube/config';
/** The original /etc/resolv.conf of the plain host (the bed's upstream, TEST-NET-1). */
export const PLAIN_RESOLV_CONF = 'nameserver 192.0.2.53\nsearch example.test\noptions edns0\n';
/** Debian's nsswitch.conf without libnss-resolve (base-files default hosts line). */
export const PLAIN_NSSWITCH = 'passwd: files\ngroup: files\nshadow: files\nhosts: files dns\nnetworks: files\nprotocols: db files\nservices: db files\nethers: db files\nrpc: db files\n';

/** Disk files of a plain Debian 13 K2s host on bed `tb`. */
export async function plainHostFiles(tb: Testbed): Promise<Record<string, DiskFile>> {
  return {
    '/etc/resolv.conf': PLAIN_RESOLV_CONF,
    '/etc/nsswitch.conf': PLAIN_NSSWITCH,
    [HOST_KUBECONFIG]: await readFile(tb.kubeconfigPath, 'utf8'),
  };
}

/** One CLI run inside the host. */
export interface HostCliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  events: LifecycleEvent[];
  result: ResultEvent | undefined;
}

/** Parses `--json` event lines of CLI stdout. */
export function parseEvents(stdout: string): { events: LifecycleEvent[]; result: ResultEvent | undefined } {
  const events = stdout
    .split('\n')
    .filter((l) => l.startsWith('{"type":'))
    .map((l) => JSON.parse(l) as LifecycleEvent);
  return { events, result: events.findLast((e): e is ResultEvent => e.type === 'result') };
}

/** `node /opt/k2s-dns-src/bin/k2s-dns.mjs ARGS` as root inside the host (90 s bound). */
export async function hostCli(h: DebianHost, args: readonly string[]): Promise<HostCliRun> {
  const r = await h.run([...HOST_CLI, ...args], { timeoutMs: 90_000 });
  return { code: r.code, stdout: r.stdout, stderr: r.stderr, ...parseEvents(r.stdout) };
}

/** `start` arguments for `engine` on the bed (K2s's dnsproxy is at its default /opt/k2s/bin/dnsproxy). */
export function hostStartArgs(engine: 'adguard' | 'dnsmasq'): string[] {
  return ['start', '--kubeconfig', HOST_KUBECONFIG, '--engine', engine, '--verify-name', 'www.example.test', '--json'];
}

/**
 * /etc/resolv.conf inside the host as one comparable line: file type, mode, owner, link target
 * and the sha256 of what it reads as (stat(1), readlink(1), sha256sum(1)).
 */
export async function hostResolver(h: DebianHost): Promise<string> {
  const r = await h.sh("f=/etc/resolv.conf; stat -c '%F %a %u:%g' $f; readlink $f || true; sha256sum < $f 2>/dev/null || echo unreadable");
  return r.stdout.trim().replace(/\n/g, ' | ');
}

/** `getent hosts NAME` inside the host → its addresses ([] when it fails). */
export async function hostGetent(h: DebianHost, name: string): Promise<string[]> {
  const r = await h.run(['getent', 'hosts', name], { timeoutMs: 20_000 });
  return r.code === 0 ? r.stdout.split('\n').filter(Boolean).map((l) => l.split(/\s+/)[0]!) : [];
}

/** `systemctl is-active UNIT` inside the host (active, inactive, failed, activating…). */
export async function isActive(h: DebianHost, unit = 'k2s-dnsproxy.service'): Promise<string> {
  return (await h.run(['systemctl', 'is-active', unit])).stdout.trim();
}

/** The network follower's journal inside the host (its lines for each change, and those of a stop it runs itself). */
export async function followerJournal(h: DebianHost): Promise<string> {
  return (await h.run(['journalctl', '-u', 'k2s-dnsproxy-follow', '-o', 'cat', '--no-pager'])).stdout;
}

/**
 * `start` of `engine` inside the host (hostStartArgs), then waits (30 s bound) until its follower
 * says it watches the network (one more such line in followerJournal than before the start).
 * Resolves the journal's length then: a case reads the lines after it. Throws when start fails.
 */
export async function startWatched(h: DebianHost, engine: 'adguard' | 'dnsmasq' = 'adguard'): Promise<number> {
  const watches = async () => (await followerJournal(h)).split('watches the network').length;
  const n = await watches();
  const start = await hostCli(h, hostStartArgs(engine));
  if (start.result?.ok !== true) throw new Error(`start (${engine}) failed: ${start.stdout}${start.stderr}`);
  await until('the follower watches', 30_000, async () => (await watches()) > n);
  return (await followerJournal(h)).length;
}

/** The unit's MainPID inside the host (0 when none). */
export async function mainPid(h: DebianHost, unit = 'k2s-dnsproxy.service'): Promise<number> {
  return Number((await h.run(['systemctl', 'show', '-P', 'MainPID', unit])).stdout.trim());
}

/**
 * The bed, then a Debian 13 host booted on it with the plain layout (plainHostFiles), running:
 * what each Debian suite's beforeAll needs. `original` is the host's /etc/resolv.conf before any
 * start, `bootMs` the time to `running`. On failure whatever came up is torn down, then it throws.
 */
export async function bootPlainHost(): Promise<{ tb: Testbed; h: DebianHost; original: string; bootMs: number }> {
  const tb = await startTestbed();
  let h: DebianHost | undefined;
  try {
    h = await createDebianHost({ files: await plainHostFiles(tb) });
    await h.boot();
    const { bootMs } = await h.waitRunning();
    return { tb, h, original: await hostResolver(h), bootMs };
  } catch (err) {
    await h?.destroy();
    await tb.stop();
    throw err;
  }
}
