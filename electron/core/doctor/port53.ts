/**
 * Doctor check `port-53`: who holds 127.0.0.1:53 (docs/host-facts.md
 * "Host resolver traps"). K2s DNS's own proxy is never a foreign holder: while K2s DNS runs it is
 * fine, while an operation runs it is that operation's, and with no start recorded it is one left
 * running (stop stops it). Facts that change while the checks run (the service, the state, the
 * journal) are read when the holder is found, not taken from the run's start: a CLI
 * `stop; start` passing meanwhile made a stale "not running" call our new proxy foreign (issue 20, H1).
 */
import { cliCommand, shellCommand } from '../../../shared/fix';
import type { DoctorFinding } from '../../../shared/doctor';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { inOtherMountNamespace, isOwnProxyArgv, ownProxyMarkers } from '../host/own-proxy';
import { readState } from '../host/resolver-state';
import { isK2sProxyCommand } from '../lifecycle/preflight';
import type { DoctorContext } from './context';
import { checkedAgainWords, operationNow, operationSentenceStart, operationWords, type OperationNow } from './operation-now';
import { codeSpan } from '../../../shared/code-span';

/** A process holding the port: its PID and command line (arguments joined by spaces). */
interface Holder {
  pid: number;
  command: string;
}

/**
 * True when `holder` is K2s DNS's own proxy: the service's PID, or a command line carrying K2s
 * DNS's exact config argument (host/own-proxy.ts markers; the host path and this machine's real
 * path) in this mount namespace. Never asks whether the service runs: a proxy that a start still
 * in its service step spawned is ours before any state names it.
 */
async function isOurs(ctx: DoctorContext, holder: Holder): Promise<boolean> {
  if (ctx.service.pid !== null && holder.pid === ctx.service.pid) return true;
  const markers = [`--config-path=${K2S_PATHS.proxyConfig}`, `--conf-file=${K2S_PATHS.dnsmasqConfig}`, ...ownProxyMarkers(ctx.deps.fs)];
  if (!isOwnProxyArgv(holder.command.split(' '), markers)) return false;
  // The same path in another mount namespace (a container, a sandbox) is another K2s DNS's file.
  return !(await inOtherMountNamespace(holder.pid));
}

/** Whether a start is recorded now: the state file read now; one that cannot be read (corrupt, root only) counts as recorded (lifecycle-state says which). */
async function startRecordedNow(ctx: DoctorContext): Promise<boolean> {
  return readState(ctx.deps.fs).then(
    (s) => s !== null,
    () => true,
  );
}

/** `info` while `op` runs: what holds the port now is that operation's business, not a fix. */
function midOperation(ctx: DoctorContext, op: OperationNow, proto: 'udp' | 'tcp', holder: Holder | null): DoctorFinding {
  return {
    id: 'port-53',
    severity: 'info',
    title: `127.0.0.1:53 is ${holder ? 'held by k2s-dnsproxy (ours)' : 'in use'} during ${operationWords({ ...op, pid: null, step: null })}`,
    meaning: holder
      ? `${operationSentenceStart(op)} is changing K2s DNS right now; K2s DNS's own proxy (${holder.command}, PID ${holder.pid}) holds 127.0.0.1:53/${proto} meanwhile. ${checkedAgainWords(ctx.opts.frontEnd ?? 'cli')}`
      : `${operationSentenceStart(op)} is changing K2s DNS right now and 127.0.0.1:53 accepts connections (the holder cannot be named without root). ${checkedAgainWords(ctx.opts.frontEnd ?? 'cli')}`,
    fix: null,
    detail: { proto, pid: holder?.pid ?? null, ...(holder ? { command: holder.command, ours: true } : {}), operation: op },
  };
}

/**
 * `port-53`: error when another process holds 127.0.0.1:53 (UDP or TCP), naming it and its PID;
 * when /proc cannot name it (not root) but TCP 127.0.0.1:53 accepts, error without a PID. K2s
 * DNS's own proxy: ok while a start is recorded, info during an operation (journal, or the
 * lifecycle lock), warn when left running with no start recorded (stop stops it).
 */
export async function checkPort53(ctx: DoctorContext, again = true): Promise<DoctorFinding> {
  // Titles name the case found: "free" only when nothing holds the port.
  const base = { id: 'port-53' };
  for (const proto of ['udp', 'tcp'] as const) {
    const holder = await ctx.deps.portHolder(53, proto, '127.0.0.1');
    if (!holder) continue;
    if (await isOurs(ctx, holder)) {
      const journaled = await operationNow(ctx.deps.fs);
      if (journaled) return midOperation(ctx, journaled, proto, holder);
      if (ctx.k2sOwnsResolver || (await startRecordedNow(ctx))) {
        return {
          ...base,
          severity: 'ok',
          title: '127.0.0.1:53 is held by k2s-dnsproxy (ours)',
          meaning: `127.0.0.1:53 is held by K2s DNS's own proxy (${holder.command}, PID ${holder.pid}).`,
          fix: null,
          detail: { proto, pid: holder.pid, command: holder.command, ours: true },
        };
      }
      // A lock without a journal: a start in preflight (it restarts this proxy), or the follower's look.
      const locked = await operationNow(ctx.deps.fs, true);
      if (locked) return midOperation(ctx, locked, proto, holder);
      // The port may have changed hands while the facts were read (an operation just ended): look once more.
      const still = await ctx.deps.portHolder(53, proto, '127.0.0.1');
      if (again && still?.pid !== holder.pid) return checkPort53(ctx, false);
      // Found by its config argument, as stop and start find it (host/supervised-service.ts
      // stop, lifecycle/preflight.ts): stop ends it with no start recorded, start restarts it.
      return {
        ...base,
        severity: 'warn',
        title: `127.0.0.1:53 is held by K2s DNS's own proxy left running (PID ${holder.pid})`,
        meaning: `No K2s DNS start is recorded (no saved state), yet K2s DNS's own proxy (${holder.command}, PID ${holder.pid}) still runs on its config and holds 127.0.0.1:53/${proto}, e.g. after k2s-dns was killed. Start does not refuse: it restarts that proxy.`,
        fix: `Run \`${cliCommand('stop', true)}\`: it stops K2s DNS's own proxy, found by its config argument, also when no start is recorded (if PID ${holder.pid} still runs after that, \`${shellCommand(`kill ${holder.pid}`, true)}\`). Or start K2s DNS: start restarts it.`,
        remedy: { action: 'stop', gui: `Press Stop: it stops K2s DNS's own proxy (PID ${holder.pid}) also when no start is recorded (or press Start: it restarts that proxy).`, cli: cliCommand('stop', true) },
        detail: { proto, pid: holder.pid, command: holder.command, ours: true, leftOver: true },
      };
    }
    const name = holder.command.split(' ')[0]!.split('/').pop() ?? holder.command;
    if (isK2sProxyCommand(holder.command)) {
      // Another K2s DNS's proxy is no system service called "dnsmasq" (lifecycle/preflight.ts portHeldMessage).
      return {
        ...base,
        severity: 'error',
        title: `127.0.0.1:53 is held by another K2s DNS proxy (${name}, PID ${holder.pid})`,
        meaning: `127.0.0.1:53/${proto} is held by ${holder.command} (PID ${holder.pid}), a K2s DNS proxy that this k2s-dns does not own (another installation's, or one in a container or sandbox), so the proxy cannot bind and k2s-dns start refuses (PORT_IN_USE).`,
        fix: `Run \`${cliCommand('stop', true)}\` where it was started (or \`sudo k2s stop\`), or \`${shellCommand(`kill ${holder.pid}`, true)}\`, then start K2s DNS.`,
        remedy: { action: 'run-checks', gui: `Stop K2s DNS where that proxy was started, or end it with \`${shellCommand(`kill ${holder.pid}`, true)}\` in a terminal, then Check again and press Start.`, cli: `${shellCommand(`kill ${holder.pid}`, true)}, then ${cliCommand('start', true)}` },
        detail: { proto, pid: holder.pid, command: holder.command, ours: false },
      };
    }
    // `systemctl stop UNIT` only for the system service its cgroup names (host/cgroup-unit.ts), never the process name.
    const stop = shellCommand(holder.unit ? `systemctl stop ${holder.unit}` : `kill ${holder.pid}`, true);
    return {
      ...base,
      severity: 'error',
      title: `127.0.0.1:53 is held by ${name} (PID ${holder.pid})`,
      meaning: `127.0.0.1:53/${proto} is held by ${holder.command} (PID ${holder.pid}), so the proxy cannot bind and k2s-dns start refuses (PORT_IN_USE).`,
      fix: `Stop that process (\`${stop}\`${holder.unit ? `: it runs as the system service ${holder.unit}` : ''}) or make it listen elsewhere, then start K2s DNS.`,
      // The app cannot stop a foreign process for the user: the shell step is the fix, then Start.
      remedy: { action: 'run-checks', gui: `Stop ${name} (PID ${holder.pid}) or make it listen elsewhere (e.g. \`${stop}\` in a terminal), then Check again and press Start.`, cli: `${stop}, then ${cliCommand('start', true)}` },
      detail: { proto, pid: holder.pid, command: holder.command, ours: false },
    };
  }
  // /proc/<pid>/fd is only readable as root: a listener we cannot name still shows by connecting.
  // Whether our proxy runs is asked now, not at the run's start (a start may have bound it since).
  if (await ctx.deps.tcpListening('127.0.0.1', 53, 500)) {
    const op = await operationNow(ctx.deps.fs, true);
    if (op) return midOperation(ctx, op, 'tcp', null);
    const service = ctx.service.running ? ctx.service : await ctx.deps.services.status().catch(() => ({ running: false, pid: null }));
    if (service.running) {
      return {
        ...base,
        severity: 'ok',
        title: '127.0.0.1:53 is held by k2s-dnsproxy (ours)',
        meaning: `127.0.0.1:53 accepts connections and K2s DNS's own proxy runs${service.pid !== null ? ` (PID ${service.pid})` : ''}; without root the holder's name is not read.`,
        fix: null,
        detail: { proto: 'tcp', pid: service.pid, ours: true },
      };
    }
    return {
      ...base,
      severity: 'error',
      title: '127.0.0.1:53 is held by a process that could not be named',
      meaning: 'Something accepts TCP connections on 127.0.0.1:53 but its process could not be named (run doctor as root to see it), so k2s-dns start would refuse.',
      fix: `Run ${codeSpan(cliCommand('doctor', true))} to name the process, stop it, then start K2s DNS.`,
      remedy: { action: 'run-checks', gui: 'The process could not be named without root: stop the DNS server you run on this host, then Check again and press Start.', cli: cliCommand('doctor', true) },
      detail: { proto: 'tcp', pid: null },
    };
  }
  return { ...base, severity: 'ok', title: '127.0.0.1:53 is free for the proxy', meaning: 'No other process holds 127.0.0.1:53.', fix: null };
}
