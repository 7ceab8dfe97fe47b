import { cliCommand } from '../../shared/fix';
import type { ParseArgsConfig } from 'node:util';
import { commandUsage, helpAnswer, helpOutput, isHelpVerb, unknownCommandText, USAGE } from './usage';
import { cliInvocation } from '../core/cli-invocation';
import { INTERNAL_VERBS } from '../core/internal-help';
import { failedStepOf, printEvent, formatZones, formatStatus, formatQuery, type PrintedSteps } from './print';
import { EXIT } from '../../shared/lifecycle-events';
import { QUERY_TYPES, type QueryType } from '../../shared/types';
import { parseServer } from '../core/host/parse-server';
import { HOSTNAME_RE, START_FIELDS, STOP_FIELDS, ZONES_FIELDS } from '../../shared/operation-input';
import { parseIp } from '../../shared/cidr';
import { cliInputOf, cliOptionsOf, parseCliArgs, UsageError } from './flags';
import { needsSearchExplain } from '../../shared/search-explain';
import { versionOutput } from './quick-answer';
import { SYSTEM_RESOLVER_TYPES, systemTypeUsage } from '../../shared/system-resolver-types';
import { terminalSafe as t } from './terminal-safe';

const out = (s: string) => process.stdout.write(`${s}\n`);
const err = (s: string) => process.stderr.write(`${s}\n`);

type Options = NonNullable<ParseArgsConfig['options']>;
const json: Options = { json: { type: 'boolean' } };
const OPTIONS: Record<string, Options> = {
  // Operation flags come from shared/operation-input.ts; --kubeconfig is the lookup's own input.
  start: { ...json, kubeconfig: { type: 'string' }, ...cliOptionsOf(START_FIELDS) },
  stop: { ...json, ...cliOptionsOf(STOP_FIELDS) },
  uninstall: { ...json, ...cliOptionsOf(STOP_FIELDS) },
  status: json,
  recover: { ...json, force: { type: 'boolean' } },
  zones: { ...json, kubeconfig: { type: 'string' }, ...cliOptionsOf(ZONES_FIELDS) },
  query: { ...json, type: { type: 'string' }, server: { type: 'string' }, tcp: { type: 'boolean' } },
  diff: json,
  queries: { ...json, lines: { type: 'string' }, probes: { type: 'boolean' }, 'no-wait': { type: 'boolean' } },
  // Internal: the network follower k2s-dns start runs as root (host/follower.ts); not in --help.
  'follow-watch': {},
  // Internal: the exact query log's companion k2s-dns start runs as root (host/capture-companion.ts).
  'capture-watch': { listen: { type: 'string', multiple: true }, port: { type: 'string', multiple: true } },
  doctor: { ...json, kubeconfig: { type: 'string' }, dnsproxy: { type: 'string' } },
  ui: { port: { type: 'string' }, kubeconfig: { type: 'string' }, 'verify-name': { type: 'string' } },
  app: { port: { type: 'string' }, kubeconfig: { type: 'string' }, 'verify-name': { type: 'string' } },
};

/** Whether `text` is exactly an `IP`, `IP:PORT` or `[v6]:PORT` endpoint (no spaces, valid %zone). */
function isServerEndpoint(text: string): boolean {
  if (/[\s\u0000-\u001f\u007f]/.test(text)) return false;
  try {
    return parseIp(parseServer(text).address) !== null;
  } catch {
    return false;
  }
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, not "${String(value)}".`);
}

/** Runs the CLI with `argv` (without node and script); returns the exit status. Never throws. */
export async function main(argv: string[]): Promise<number> {
  const [command = '', ...rest] = argv;
  // `k2s-dns help [VERB]` (entry.ts answers it first; the same rule).
  const help = helpAnswer(argv, cliInvocation());
  if (help !== null) {
    process.stdout.write(help.stdout);
    process.stderr.write(help.stderr);
    return help.code;
  }
  if (command === '--version' || command === 'version') {
    process.stdout.write(versionOutput(rest));
    return EXIT.ok;
  }
  const options = OPTIONS[command];
  if (!options) {
    err(unknownCommandText(command, cliInvocation()));
    return EXIT.usage;
  }
  try {
    const { values, positionals } = parseCliArgs(rest, { ...options, help: { type: 'boolean', short: 'h' } }, command === 'query');
    // `k2s-dns start --help`: that command's usage, not the whole help (walk15).
    if (values.help) {
      process.stdout.write(helpOutput(isHelpVerb(command) ? commandUsage(command) : USAGE));
      return EXIT.ok;
    }
    return await run(command, values as Record<string, unknown>, positionals);
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      // A sentence of its own (node's parseArgs messages end without a period), then the command's own help.
      const said = (e as Error).message.trimEnd();
      err(`${/[.!?]$/.test(said) ? said : `${said}.`} Run ${cliCommand(isHelpVerb(command) || INTERNAL_VERBS.includes(command) ? `${command} --help` : '--help')} for usage.`);
      return EXIT.usage;
    }
    err(`k2s-dns ${command} failed: ${(e as Error).message}`);
    // K2S_DNS_DEBUG=1: the stack too (source-mapped to the .ts lines by bin/k2s-dns.mjs), for bug reports.
    if (process.env.K2S_DNS_DEBUG === '1' && e instanceof Error && e.stack) err(e.stack);
    return EXIT.failed;
  }
}

// Every command loads only the modules it needs (dynamic imports, split into chunks by
// scripts/build.mjs): stop and status never parse yaml or @kubernetes/client-node.
const nodeDeps = async () => (await import('../core/lifecycle/node-deps')).createNodeDeps();
const dnsStatusOf = async (deps: Awaited<ReturnType<typeof nodeDeps>>) => (await import('../core/lifecycle/status')).dnsStatus(deps);

/** name-kubeconfig.ts nameKubeconfig, loaded when a command reads a kubeconfig. */
const nameKubeconfig = async (path: string | null) => (await import('./name-kubeconfig')).nameKubeconfig(path);

async function run(command: string, v: Record<string, unknown>, positionals: string[]): Promise<number> {
  const asJson = v.json === true;
  // One memory per run: its result line refers to the step lines above (print.ts resultText).
  const printed: PrintedSteps = { steps: [] };
  const sink = (e: Parameters<typeof printEvent>[0]) => printEvent(e, asJson, out, printed, err);
  switch (command) {
    case 'start': {
      const input = cliInputOf(START_FIELDS, v);
      // @kubernetes/client-node (the largest module) loads in startDns, once the capture
      // companion's process began (deps.loadClusterClient): its start-up then overlaps the load.
      const [{ locateKubeconfig }, { startDns }, { startOptionsOf }] = await Promise.all([import('../core/cluster/kubeconfig'), import('../core/lifecycle/start'), import('../core/lifecycle/options')]);
      const found = await locateKubeconfig(typeof v.kubeconfig === 'string' ? { explicit: v.kubeconfig } : {});
      await nameKubeconfig((await import('./name-kubeconfig')).kubeconfigAsked(found));
      const deps = await nodeDeps();
      // `--engine` here is asked for this start: a running K2s DNS with another engine refuses it.
      const r = await startDns(deps, startOptionsOf(input, found, 'cli'), sink);
      return r.exitCode;
    }
    case 'follow-watch': {
      const [deps, { runFollower }] = await Promise.all([nodeDeps(), import('../core/lifecycle/follow-main')]);
      return runFollower(deps);
    }
    case 'capture-watch': {
      const [{ createHostFs }, { runCapture }] = await Promise.all([import('../core/host/host-fs-node'), import('../core/capture/capture-main')]);
      const args = [...((v.listen as string[] | undefined) ?? []).flatMap((l) => ['--listen', l]), ...((v.port as string[] | undefined) ?? []).flatMap((p) => ['--port', p])];
      return runCapture(createHostFs('/'), process.getuid?.() ?? -1, args, process.argv[1] ?? '');
    }
    case 'queries':
      return (await import('./queries-verb')).runQueries(v, asJson, out, err, nameKubeconfig);
    case 'stop':
    case 'uninstall': {
      const input = cliInputOf(STOP_FIELDS, v);
      const [deps, { stopDns, uninstallDns }] = await Promise.all([nodeDeps(), import('../core/lifecycle/stop')]);
      const op = command === 'stop' ? stopDns : uninstallDns;
      return (await op(deps, input, sink)).exitCode;
    }
    case 'recover': {
      const [deps, { recoverNow }] = await Promise.all([nodeDeps(), import('../core/lifecycle/recover')]);
      if (deps.uid() !== 0) {
        // A result event, printed as start's and stop's refusals: `REFUSED [NOT_ROOT]: …` on stdout, or with --json the event.
        const { recoverNotRootEvent } = await import('./recover-refusal');
        const refused = recoverNotRootEvent(v.force === true, Date.now());
        sink(refused);
        return refused.exitCode;
      }
      let done: string | null;
      try {
        done = await recoverNow(deps, sink, { force: v.force === true, corruptState: true });
      } catch (e) {
        // A step line said why already: the last line refers to it (walk 24: the long text twice).
        const said = asJson ? null : failedStepOf(e instanceof Error ? e.message : String(e), printed);
        if (said === null) throw e;
        err(`k2s-dns ${command} failed: see the ${said} step above.`);
        if (process.env.K2S_DNS_DEBUG === '1' && e instanceof Error && e.stack) err(e.stack);
        return EXIT.failed;
      }
      if (!asJson) out(done ?? 'Nothing to recover: no k2s-dns operation was interrupted.');
      return EXIT.ok;
    }
    case 'status': {
      const deps = await nodeDeps();
      // Its fix texts may say `sudo k2s-dns start`: name the kubeconfig that start would need
      // (the lookup's, or the running start's), or `--kubeconfig PATH` when neither the lookup
      // nor sudo's finds one, so the printed line works as is (the sandbox's kubeconfig is in no
      // default place); the kube-dns hop says `no kubeconfig` only then.
      const { kubeconfigOrStarted } = await import('../core/cluster/kubeconfig-default');
      const found = await kubeconfigOrStarted(deps.fs, undefined);
      const startFinds = (await nameKubeconfig(found.path)) !== null;
      // Any CLI call as root completes or rolls back an interrupted operation.
      // Status must always answer: a failed recovery is reported by dnsStatus's messages.
      if (deps.uid() === 0) {
        const { recoverNow } = await import('../core/lifecycle/recover');
        await recoverNow(deps, asJson ? () => undefined : sink).catch(() => undefined);
      }
      // The end-to-end path verdict is part of status: CoreDNS down is "degraded", never "running".
      const [{ statusWithHealth }, { healthProbes }] = await Promise.all([import('../core/health/status-with-health'), import('../core/health/probes')]);
      const s = await statusWithHealth(healthProbes(deps), 'cli', { kubeconfigFound: startFinds });
      out(asJson ? JSON.stringify(s) : formatStatus(s));
      // Degraded (the health verdict included) is not success: scripts test the exit status.
      return (await import('../../shared/status-exit')).statusExitCode(s);
    }
    case 'zones': {
      const [{ kubeconfigOrStarted }, { NoKubeconfigError }] = await Promise.all([import('../core/cluster/kubeconfig-default'), import('../core/cluster/errors')]);
      const { fs } = await nodeDeps();
      const found = await kubeconfigOrStarted(fs, typeof v.kubeconfig === 'string' ? v.kubeconfig : undefined);
      await nameKubeconfig(found.path);
      if (!found.path) {
        err(NoKubeconfigError.fromLookup(found, 'zones').message);
        return EXIT.refused;
      }
      const [{ discoverCluster }, { hostZonePolicy }] = await Promise.all([import('../core/cluster/discovery'), import('../core/cluster/host-zone-policy')]);
      const policy = await hostZonePolicy(fs, cliInputOf(ZONES_FIELDS, v).allowZones ?? []);
      // A kubeconfig that cannot be used (not a file, not valid YAML, too large…) is refused as a
      // missing one is, and as start refuses it (BAD_KUBECONFIG, exit 3); the API's failures stay 1.
      const d = await discoverCluster({ kubeconfigPath: found.path, ...policy }).catch((e: unknown) => {
        if (e instanceof NoKubeconfigError) return e;
        throw e;
      });
      if (d instanceof NoKubeconfigError) {
        err(d.message);
        return EXIT.refused;
      }
      out(asJson ? JSON.stringify(d) : formatZones(d));
      return EXIT.ok;
    }
    case 'query': {
      const [name, extra] = positionals;
      if (!name || extra !== undefined) throw new UsageError('query takes exactly one NAME.');
      if (!HOSTNAME_RE.test(name) && !isServerEndpoint(name) && name !== '.') {
        throw new UsageError(`NAME must be a DNS name of at most 253 characters or an IP address (for PTR), not "${name.slice(0, 64)}${name.length > 64 ? '…' : ''}".`);
      }
      const type = (oneOf(v.type, QUERY_TYPES, '--type') ?? 'A') as QueryType;
      const target = typeof v.server === 'string' ? v.server : 'system';
      if (!['system', 'proxy', 'coredns'].includes(target) && !isServerEndpoint(target)) {
        throw new UsageError(`--server must be system, proxy, coredns or IP[:PORT], not "${target.slice(0, 64)}".`);
      }
      // A type getaddrinfo cannot ask is the flags' mistake, not a server that did not answer (exit 2, not 1).
      if (target === 'system' && !SYSTEM_RESOLVER_TYPES.includes(type)) throw new UsageError(systemTypeUsage(type));
      const [deps, { resolveTarget }] = await Promise.all([nodeDeps(), import('../core/lifecycle/query-target')]);
      // K2s's default kube-dns address where no start discovered one: said to be a guess (new-user walk); one read of the state for both.
      const { server, guess } = await resolveTarget(deps, target, name);
      const r = server === 'system' ? await deps.systemQuery(name, type) : await deps.query({ name, type, server, transport: v.tcp ? 'tcp' : 'udp' });
      // NXDOMAIN for a relative or `.svc` name: which candidates glibc asks (search list + ndots
      // of /etc/resolv.conf), each asked as an absolute name at the same target (shared/search-explain.ts).
      const explain = needsSearchExplain(name, r.rcode, r.answers.length) ? await (await import('./query-explain')).searchExplanation(deps, name, type, server, v.tcp ? 'tcp' : 'udp', r) : null;
      out(asJson ? JSON.stringify(explain ? { ...r, searchList: explain } : r) : [formatQuery(r), ...(explain?.lines ?? []).map((l) => `;; ${t(l)}`)].join('\n'));
      if (guess && !asJson) out(`;; ${guess}`);
      // SERVFAIL for a name in a cluster zone: the proxy got no answer from CoreDNS; status says
      // why (the zones the running proxy routes: its saved plan, for a user its config).
      if (!asJson && target === 'proxy' && r.rcode === 'SERVFAIL') {
        const [{ clusterServfailNote }, s] = await Promise.all([import('../../shared/servfail-note'), dnsStatusOf(deps)]);
        const note = clusterServfailNote(name, type, r.rcode, s.zonesInUse ?? s.configFacts?.zones ?? [], `run ${cliCommand('status')}, which says why`);
        if (note !== null) out(`;; note: ${t(note)}`);
      }
      if (!asJson && target === 'proxy' && (r.rcode === 'TIMEOUT' || r.rcode === 'ERROR') && (await dnsStatusOf(deps)).state === 'stopped') {
        out(`;; K2s DNS is not running, so nothing answers on 127.0.0.1:53: run ${cliCommand('start', true)} first.`);
      }
      return r.rcode === 'TIMEOUT' || r.rcode === 'ERROR' ? EXIT.failed : EXIT.ok;
    }
    case 'doctor': {
      // Loaded on demand: the cluster check pulls in @kubernetes/client-node.
      const [{ runDoctor }, { formatDoctor }] = await Promise.all([import('../core/doctor/run-doctor'), import('./print-doctor')]);
      const [deps, { kubeconfigOrStarted }] = await Promise.all([nodeDeps(), import('../core/cluster/kubeconfig-default')]);
      const found = await kubeconfigOrStarted(deps.fs, typeof v.kubeconfig === 'string' ? v.kubeconfig : undefined);
      await nameKubeconfig(found.path);
      const findings = await runDoctor(deps, { kubeconfigPath: found.path, kubeconfigLookup: found, ...(typeof v.dnsproxy === 'string' ? { dnsproxyPath: v.dnsproxy } : {}) });
      out(asJson ? JSON.stringify(findings) : formatDoctor(findings));
      return findings.some((f) => f.severity === 'error') ? EXIT.failed : EXIT.ok;
    }
    case 'diff': {
      const [deps, { resolverDiff }, { formatResolverDiff }] = await Promise.all([nodeDeps(), import('../core/lifecycle/diff'), import('./print-diff')]);
      const d = await resolverDiff(deps);
      // A user while K2s DNS runs (STATE_UNREADABLE): a documented state, not a failure: its own
      // sentence on stderr, no "k2s-dns diff failed:" before it; still exit 1 (no diff shown).
      if (d.savedRootOnly && !asJson) err(formatResolverDiff(d));
      else out(asJson ? JSON.stringify(d) : formatResolverDiff(d));
      return d.savedRootOnly ? EXIT.failed : EXIT.ok;
    }
    case 'ui':
    case 'app':
    {
      if (typeof v.port === 'string' && !/^\d{1,5}$/.test(v.port)) throw new UsageError('--port must be a decimal number from 1 to 65535.');
      const port = typeof v.port === 'string' ? Number(v.port) : undefined;
      if (port !== undefined && (port < 1 || port > 65535)) throw new UsageError('--port must be a decimal number from 1 to 65535.');
      // --verify-name is passed on to every Start: checked now by the Start schema, not at the first Start.
      const { verifyName } = cliInputOf({ verifyName: START_FIELDS.verifyName }, v);
      const { runUi } = await import('./ui');
      return runUi(command, {
        ...(port !== undefined ? { port } : {}),
        ...(typeof v.kubeconfig === 'string' ? { kubeconfig: v.kubeconfig } : {}),
        ...(verifyName !== undefined ? { verifyName } : {}),
      });
    }
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}
