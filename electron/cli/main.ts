import { parseArgs, type ParseArgsConfig } from 'node:util';
import { createPatch } from 'diff';
import { USAGE } from './usage';
import { printEvent, formatZones, formatStatus, formatQuery } from './print';
import { EXIT } from '../../shared/lifecycle-events';
import { QUERY_TYPES, type QueryType } from '../../shared/types';
import { createNodeDeps } from '../lifecycle/node-deps';
import { startDns } from '../lifecycle/start';
import { stopDns, uninstallDns } from '../lifecycle/stop';
import { dnsStatus } from '../lifecycle/status';
import { resolverDiff } from '../lifecycle/diff';
import { resolveTarget } from '../lifecycle/query-target';
import { recoverNow } from '../lifecycle/recover';
import { parseServer } from '../probes/parse-server';
import { isHostnameText, isIpv4Text } from '../helper/request';
import { parseIp } from '../../shared/cidr';
import { locateKubeconfig } from '../cluster/kubeconfig';
import { kubeconfigOrStarted } from '../cluster/kubeconfig-default';
import { NoKubeconfigError } from '../cluster/errors';

const out = (s: string) => process.stdout.write(`${s}\n`);
const err = (s: string) => process.stderr.write(`${s}\n`);

type Options = NonNullable<ParseArgsConfig['options']>;
const json: Options = { json: { type: 'boolean' } };
const OPTIONS: Record<string, Options> = {
  start: { ...json, kubeconfig: { type: 'string' }, engine: { type: 'string' }, dnsproxy: { type: 'string' }, kubeswitch: { type: 'string' }, upstream: { type: 'string', multiple: true }, 'verify-name': { type: 'string' }, 'no-log-queries': { type: 'boolean' } },
  stop: { ...json, 'on-drift': { type: 'string' } },
  uninstall: { ...json, 'on-drift': { type: 'string' } },
  status: json,
  recover: json,
  zones: { ...json, kubeconfig: { type: 'string' } },
  query: { ...json, type: { type: 'string' }, server: { type: 'string' }, tcp: { type: 'boolean' } },
  diff: json,
  doctor: { ...json, kubeconfig: { type: 'string' } },
  ui: { port: { type: 'string' }, kubeconfig: { type: 'string' }, 'verify-name': { type: 'string' } },
  app: { port: { type: 'string' }, kubeconfig: { type: 'string' }, 'verify-name': { type: 'string' } },
};

class UsageError extends Error {}

/** Whether `text` is exactly an `IP`, `IP:PORT` or `[v6]:PORT` endpoint (no spaces, valid %zone). */
function isServerEndpoint(text: string): boolean {
  if (/[\s\u0000-\u001f\u007f]/.test(text)) return false;
  try {
    return parseIp(parseServer(text).address) !== null;
  } catch {
    return false;
  }
}

/** A unicast address the KubeSwitch listener could sit on: not 0/8, loopback or multicast+. */
function isKubeSwitchAddress(text: string): boolean {
  const first = Number(text.split('.')[0]);
  return isIpv4Text(text) && first !== 0 && first !== 127 && first < 224;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, not "${String(value)}".`);
}

/** Runs the CLI with `argv` (without node and script); returns the exit status. Never throws. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    out(USAGE);
    return command ? EXIT.ok : EXIT.usage;
  }
  const options = OPTIONS[command];
  if (!options) {
    err(`Unknown command "${command}"; run k2s-dns --help for the list.`);
    return EXIT.usage;
  }
  try {
    const { values, positionals } = parseArgs({ args: rest, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: command === 'query', strict: true });
    if (values.help) {
      out(USAGE);
      return EXIT.ok;
    }
    return await run(command, values as Record<string, unknown>, positionals);
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      err(`${(e as Error).message} Run k2s-dns --help for usage.`);
      return EXIT.usage;
    }
    err(`k2s-dns ${command} failed: ${(e as Error).message}`);
    return EXIT.failedRolledBack;
  }
}

async function run(command: string, v: Record<string, unknown>, positionals: string[]): Promise<number> {
  const asJson = v.json === true;
  const sink = (e: Parameters<typeof printEvent>[0]) => printEvent(e, asJson, out);
  switch (command) {
    case 'start': {
      const engine = oneOf(v.engine, ['adguard', 'dnsmasq'] as const, '--engine');
      for (const u of (v.upstream as string[] | undefined) ?? []) {
        if (!isServerEndpoint(u)) throw new UsageError(`--upstream must be an IP or IP:PORT, e.g. 192.168.1.1 or [fd00::1]:53, not "${u.slice(0, 64)}".`);
      }
      if (typeof v.kubeswitch === 'string' && v.kubeswitch !== 'none' && !isKubeSwitchAddress(v.kubeswitch)) {
        throw new UsageError(`--kubeswitch must be a unicast IPv4 address of this host (K2s uses 172.19.1.1) or none, not "${v.kubeswitch.slice(0, 64)}".`);
      }
      if (typeof v['verify-name'] === 'string' && (!isHostnameText(v['verify-name']) || isIpv4Text(v['verify-name']))) {
        throw new UsageError(`--verify-name must be a DNS name such as kubernetes.io, not "${v['verify-name'].slice(0, 64)}".`);
      }
      const found = await locateKubeconfig(typeof v.kubeconfig === 'string' ? { explicit: v.kubeconfig } : {});
      const deps = await createNodeDeps();
      const r = await startDns(deps, {
        kubeconfigPath: found.path,
        kubeconfigLookup: found,
        ...(engine ? { engine } : {}),
        ...(typeof v.dnsproxy === 'string' ? { dnsproxyPath: v.dnsproxy } : {}),
        ...(typeof v.kubeswitch === 'string' ? { kubeSwitch: v.kubeswitch } : {}),
        ...(Array.isArray(v.upstream) ? { upstreams: v.upstream as string[] } : {}),
        ...(typeof v['verify-name'] === 'string' ? { verifyExternalName: v['verify-name'] } : {}),
        logQueries: v['no-log-queries'] !== true,
      }, sink);
      return r.exitCode;
    }
    case 'stop':
    case 'uninstall': {
      const onDrift = oneOf(v['on-drift'], ['keep', 'restore'] as const, '--on-drift');
      const deps = await createNodeDeps();
      const op = command === 'stop' ? stopDns : uninstallDns;
      return (await op(deps, onDrift ? { onDrift } : {}, sink)).exitCode;
    }
    case 'recover': {
      const deps = await createNodeDeps();
      if (deps.uid() !== 0) {
        err('k2s-dns recover puts the saved resolver back: run it as root (sudo k2s-dns recover).');
        return EXIT.refused;
      }
      const done = await recoverNow(deps, sink);
      if (!asJson) out(done ?? 'Nothing to recover: no k2s-dns operation was interrupted.');
      return EXIT.ok;
    }
    case 'status': {
      const deps = await createNodeDeps();
      // Any CLI call as root completes or rolls back an interrupted operation (issue #4).
      // Status must always answer: a failed recovery is reported by dnsStatus's messages.
      if (deps.uid() === 0) await recoverNow(deps, asJson ? () => undefined : sink).catch(() => undefined);
      const s = await dnsStatus(deps);
      out(asJson ? JSON.stringify(s) : formatStatus(s));
      return EXIT.ok;
    }
    case 'zones': {
      const found = await kubeconfigOrStarted((await createNodeDeps()).fs, typeof v.kubeconfig === 'string' ? v.kubeconfig : undefined);
      if (!found.path) {
        err(NoKubeconfigError.fromLookup(found).message);
        return EXIT.refused;
      }
      const { discoverCluster } = await import('../cluster/discovery');
      const d = await discoverCluster({ kubeconfigPath: found.path });
      out(asJson ? JSON.stringify(d) : formatZones(d));
      return EXIT.ok;
    }
    case 'query': {
      const [name, extra] = positionals;
      if (!name || extra !== undefined) throw new UsageError('query takes exactly one NAME.');
      if (!isHostnameText(name) && !isServerEndpoint(name) && name !== '.') {
        throw new UsageError(`NAME must be a DNS name of at most 253 characters or an IP address (for PTR), not "${name.slice(0, 64)}${name.length > 64 ? '…' : ''}".`);
      }
      const type = (oneOf(v.type, QUERY_TYPES, '--type') ?? 'A') as QueryType;
      const target = typeof v.server === 'string' ? v.server : 'system';
      if (!['system', 'proxy', 'coredns'].includes(target) && !isServerEndpoint(target)) {
        throw new UsageError(`--server must be system, proxy, coredns or IP[:PORT], not "${target.slice(0, 64)}".`);
      }
      const deps = await createNodeDeps();
      const server = await resolveTarget(deps, target);
      const r = server === 'system' ? await deps.systemQuery(name, type) : await deps.query({ name, type, server, transport: v.tcp ? 'tcp' : 'udp' });
      out(asJson ? JSON.stringify(r) : formatQuery(r));
      if (!asJson && target === 'proxy' && (r.rcode === 'TIMEOUT' || r.rcode === 'ERROR') && (await dnsStatus(deps)).state === 'stopped') {
        out(';; K2s DNS is not running, so nothing answers on 127.0.0.1:53: run sudo k2s-dns start first.');
      }
      return r.rcode === 'TIMEOUT' || r.rcode === 'ERROR' ? EXIT.failedRolledBack : EXIT.ok;
    }
    case 'doctor': {
      // Loaded on demand: the cluster check pulls in @kubernetes/client-node.
      const [{ runDoctor }, { formatDoctor }] = await Promise.all([import('../doctor/run-doctor'), import('./print-doctor')]);
      const deps = await createNodeDeps();
      const found = await kubeconfigOrStarted(deps.fs, typeof v.kubeconfig === 'string' ? v.kubeconfig : undefined);
      const findings = await runDoctor(deps, { kubeconfigPath: found.path });
      out(asJson ? JSON.stringify(findings) : formatDoctor(findings));
      return findings.some((f) => f.severity === 'error') ? EXIT.failedRolledBack : EXIT.ok;
    }
    case 'diff': {
      const d = await resolverDiff(await createNodeDeps());
      if (asJson) out(JSON.stringify(d));
      else if (!d.saved) out('Nothing saved: K2s DNS has not been started, so there is nothing to compare.');
      else if (d.identical) out('No difference: /etc/resolv.conf is the saved original (content, link target, mode, owner).');
      else {
        for (const c of d.changes) out(`* ${c}`);
        out(createPatch('/etc/resolv.conf', d.savedText ?? '', d.currentText ?? '', 'saved original', 'current'));
      }
      return EXIT.ok;
    }
    case 'ui':
    case 'app':
    {
      if (typeof v.port === 'string' && !/^\d{1,5}$/.test(v.port)) throw new UsageError('--port must be a decimal number from 1 to 65535.');
      const port = typeof v.port === 'string' ? Number(v.port) : undefined;
      if (port !== undefined && (port < 1 || port > 65535)) throw new UsageError('--port must be a decimal number from 1 to 65535.');
      const { runUi } = await import('./ui');
      return runUi(command, {
        ...(port !== undefined ? { port } : {}),
        ...(typeof v.kubeconfig === 'string' ? { kubeconfig: v.kubeconfig } : {}),
        ...(typeof v['verify-name'] === 'string' ? { verifyName: v['verify-name'] } : {}),
      });
    }
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}
