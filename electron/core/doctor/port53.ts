/**
 * Doctor check `port-53`: who holds 127.0.0.1:53 (docs/host-facts.md
 * "Host resolver traps"). Our own running k2s-dnsproxy is fine.
 */
import { cliCommand } from '../../../shared/fix';
import type { DoctorFinding } from '../../../shared/doctor';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import type { DoctorContext } from './context';

/** True when `holder` is the proxy K2s DNS started: the service PID, or a command on our config files. */
function isOurs(ctx: DoctorContext, holder: { pid: number; command: string }): boolean {
  if (!ctx.service.running) return false;
  if (ctx.service.pid !== null && holder.pid === ctx.service.pid) return true;
  return holder.command.includes(K2S_PATHS.proxyConfig) || holder.command.includes(K2S_PATHS.dnsmasqConfig);
}

/**
 * `port-53`: error when another process holds 127.0.0.1:53 (UDP or TCP), naming it and its PID;
 * when /proc cannot name it (not root) but TCP 127.0.0.1:53 accepts, error without a PID.
 */
export async function checkPort53(ctx: DoctorContext): Promise<DoctorFinding> {
  // Titles name the case found: "free" only when nothing holds the port.
  const base = { id: 'port-53' };
  for (const proto of ['udp', 'tcp'] as const) {
    const holder = await ctx.deps.portHolder(53, proto, '127.0.0.1');
    if (!holder) continue;
    if (isOurs(ctx, holder)) {
      return {
        ...base,
        severity: 'ok',
        title: '127.0.0.1:53 is held by k2s-dnsproxy (ours)',
        meaning: `127.0.0.1:53 is held by K2s DNS's own proxy (${holder.command}, PID ${holder.pid}).`,
        fix: null,
        detail: { proto, pid: holder.pid, command: holder.command, ours: true },
      };
    }
    const name = holder.command.split(' ')[0]!.split('/').pop() ?? holder.command;
    return {
      ...base,
      severity: 'error',
      title: `127.0.0.1:53 is held by ${name} (PID ${holder.pid})`,
      meaning: `127.0.0.1:53/${proto} is held by ${holder.command} (PID ${holder.pid}), so the proxy cannot bind and k2s-dns start refuses (PORT_IN_USE).`,
      fix: `Stop that process (e.g. \`systemctl stop ${name}\` or \`kill ${holder.pid}\`) or make it listen elsewhere, then start K2s DNS.`,
      // The app cannot stop a foreign process for the user: the shell step is the fix, then Start.
      remedy: { action: 'run-checks', gui: `Stop ${name} (PID ${holder.pid}) or make it listen elsewhere (e.g. \`systemctl stop ${name}\` in a terminal), then Check again and press Start.`, cli: `systemctl stop ${name} or kill ${holder.pid}, then ${cliCommand('start', true)}` },
      detail: { proto, pid: holder.pid, command: holder.command, ours: false },
    };
  }
  // /proc/<pid>/fd is only readable as root: a listener we cannot name still shows by connecting.
  if (!ctx.service.running && (await ctx.deps.tcpListening('127.0.0.1', 53, 500))) {
    return {
      ...base,
      severity: 'error',
      title: '127.0.0.1:53 is held by a process that could not be named',
      meaning: 'Something accepts TCP connections on 127.0.0.1:53 but its process could not be named (run doctor as root to see it), so k2s-dns start would refuse.',
      fix: `Run \`${cliCommand('doctor', true)}\` to name the process, stop it, then start K2s DNS.`,
      remedy: { action: 'run-checks', gui: 'The process could not be named without root: stop the DNS server you run on this host, then Check again and press Start.', cli: cliCommand('doctor', true) },
      detail: { proto: 'tcp', pid: null },
    };
  }
  return { ...base, severity: 'ok', title: '127.0.0.1:53 is free for the proxy', meaning: 'No other process holds 127.0.0.1:53.', fix: null };
}
