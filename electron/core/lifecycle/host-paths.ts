/**
 * The lookup paths host programs use on this host, each as one probe verify can ask: every nss source of the `hosts:` line that talks DNS (`getent -s dns|resolve`,
 * nsswitch.conf(5), getent(1)), systemd-resolved itself when it runs (`resolvectl query`, what
 * nss-resolve asks over D-Bus), and each nameserver of /etc/resolv.conf asked directly, as Go's
 * pure resolver, dig and musl do. The in-process getaddrinfo and the proxy's own listener are
 * verify's own checks already.
 */
import type { HostPath, LifecycleDeps } from './deps';

export type { HostPath } from './deps';
import type { QueryResult } from '../../../shared/types';
import { nsswitchHostsSources } from '../../../shared/resolved-link';
import { parseResolvConf } from '../../../shared/resolv-conf';
import { resolvectlQuery } from './resolved';

/** nss modules whose hosts lookups go to DNS (others — files, myhostname, mymachines — do not). */
const DNS_SOURCES = ['dns', 'resolve'] as const;

function result(name: string, server: string, started: number, now: number, answers: string[], error: string | null): QueryResult {
  return {
    name,
    type: 'A',
    server,
    transport: 'getaddrinfo',
    rcode: answers.length ? 'NOERROR' : error ? 'ERROR' : 'NXDOMAIN',
    answers: answers.map((data) => ({ name, type: 'A', ttl: null, data })),
    latencyMs: now - started,
    ...(error ? { error } : {}),
  };
}

/** glibc's nscd client socket (nscd(8)): while it exists, getaddrinfo may answer from nscd's cache. */
const NSCD_SOCKET = '/var/run/nscd/socket';

/**
 * True when `/etc/hosts` text has a line naming `name` (hosts(5): `ADDRESS NAME [ALIASES…]`,
 * names compared without case, `#` starts a comment).
 */
export function hostsFileNames(text: string, name: string): boolean {
  const want = name.replace(/\.$/, '').toLowerCase();
  return text.split('\n').some((line) => line.replace(/#.*$/, '').trim().split(/\s+/).slice(1).some((n) => n.replace(/\.$/, '').toLowerCase() === want));
}

/**
 * The paths to check for this host: `getent -s SOURCE hosts` for each DNS source of the hosts
 * line (glibc's default `files dns` without one; `resolve` only while resolved runs), `resolvectl query` when `resolved` is true,
 * and a direct query to each nameserver of `resolvConfText` (skipping `skip`, the ones verify
 * asks already). A `getent` exit 2 is "not found" (getent(1)); a source nss cannot load
 * (libnss-resolve not installed) is reported as the error it is.
 *
 * `name`, the name verify asks, is also resolved by verify through getaddrinfo in its own process
 * (systemLookup). When the hosts line is exactly `files dns` (no actions; nsswitch.conf(5)),
 * /etc/hosts does not name it and no nscd socket exists (so no cache answers for it), that
 * lookup can only be answered by nss dns — the `getent -s dns` path then asks the same thing of
 * the same module, and is not spawned a second time.
 */
export async function hostPaths(deps: LifecycleDeps, opts: { resolved: boolean; resolvConfText: string; skip?: string[]; name?: string }): Promise<HostPath[]> {
  const nsswitch = await deps.fs.readFile('/etc/nsswitch.conf').then((b) => b.toString('utf8'), () => '');
  // nss-resolve without a running resolved returns UNAVAIL and glibc goes on to the next source
  // (nss-resolve(8)): it is no path then.
  const sources = nsswitchHostsSources(nsswitch)
    .filter((s): s is (typeof DNS_SOURCES)[number] => (DNS_SOURCES as readonly string[]).includes(s))
    .filter((s) => s !== 'resolve' || opts.resolved);
  const sameAsGetaddrinfo = opts.name !== undefined && (await onlyDnsAnswers(deps, nsswitch, opts.name));
  const paths: HostPath[] = [];
  for (const source of [...new Set(sources)]) {
    if (source === 'dns' && sameAsGetaddrinfo) continue;
    paths.push({
      label: `nss ${source} (getent -s ${source} hosts, as nsswitch.conf lists it)`,
      async ask(name, timeoutMs) {
        const started = deps.now();
        const r = await deps.exec.run('getent', ['-s', source, 'ahostsv4', name], { timeoutMs }).catch((err: unknown) => ({ code: null, stdout: '', stderr: String(err) }));
        const answers = [...new Set(r.stdout.split('\n').map((l) => l.trim().split(/\s+/)[0] ?? '').filter((a) => /^\d+\.\d+\.\d+\.\d+$/.test(a)))];
        // getent(1): exit 2 = key not found; anything else non-zero is a failure of the lookup itself.
        const error = r.code === 0 || r.code === 2 ? null : (r.stderr.trim() || `getent exit ${r.code ?? 'signal'}`);
        return result(name, `nss:${source}`, started, deps.now(), answers, error);
      },
    });
  }
  if (opts.resolved) {
    paths.push({
      label: 'systemd-resolved (resolvectl query, as nss-resolve asks it)',
      async ask(name, timeoutMs) {
        const started = deps.now();
        const r = await resolvectlQuery(deps.exec, name, timeoutMs);
        // "not found" is an answer (NXDOMAIN), not a failure to ask.
        const notFound = r.error !== null && /not found|does not exist|NXDOMAIN/i.test(r.error);
        return result(name, 'resolved', started, deps.now(), r.answers.map((a) => a.address).filter((a) => a.includes('.')), notFound ? null : r.error);
      },
    });
  }
  const skip = new Set(opts.skip ?? []);
  for (const ns of parseResolvConf(opts.resolvConfText).nameservers) {
    if (skip.has(ns)) continue;
    skip.add(ns);
    paths.push({
      label: `nameserver ${ns} of /etc/resolv.conf (asked directly, as Go's resolver and dig do)`,
      ask: (name, timeoutMs) => deps.query({ name, type: 'A', server: ns.includes(':') ? `[${ns}]:53` : `${ns}:53`, timeoutMs }),
    });
  }
  return paths;
}

/**
 * True when glibc's getaddrinfo for `name` on this host can only be answered by nss dns: the
 * hosts line of `nsswitch` is `files dns` exactly (no `[STATUS=action]`, no other source),
 * /etc/hosts does not name `name`, and nscd's socket is absent. Unreadable files count as "no".
 */
async function onlyDnsAnswers(deps: LifecycleDeps, nsswitch: string, name: string): Promise<boolean> {
  const lines = nsswitch.split('\n').map((l) => l.replace(/#.*$/, '')).filter((l) => /^\s*hosts\s*:/.test(l));
  if (lines.length !== 1 || lines[0]!.replace(/^\s*hosts\s*:/, '').trim().split(/\s+/).join(' ') !== 'files dns') return false;
  if ((await deps.fs.lstat(NSCD_SOCKET).catch(() => 'unknown')) !== null) return false;
  const hosts = await deps.fs.readFile('/etc/hosts').then((b) => b.toString('utf8'), () => null);
  return hosts !== null && !hostsFileNames(hosts, name);
}
