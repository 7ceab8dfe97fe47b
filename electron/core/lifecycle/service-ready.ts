import type { LifecycleDeps } from './deps';
import type { ProxyPlan } from '../../../shared/types';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { failed } from './errors';
import { portHeldMessage } from './preflight';

/** Last lines of the proxy log (best effort), to explain why it exited. */
async function logTail(deps: LifecycleDeps, lines: number): Promise<string[]> {
  const buf = await deps.fs.readFile(K2S_PATHS.log).catch(() => Buffer.alloc(0));
  return buf.toString('utf8').trimEnd().split('\n').slice(-lines);
}

/**
 * Whether every listener of `plan` accepts a TCP connection now (deps.tcpListening, one connect
 * each, in parallel, at most `timeoutMs` ms each; a loopback refusal answers at once). On systemd
 * the non-loopback listeners (the KubeSwitch address) run in a second unit (lateListenersFor in
 * proxy-config.ts) that the main unit's status() does not report: this sees both.
 */
export async function listenersUp(deps: LifecycleDeps, plan: ProxyPlan, timeoutMs = 300): Promise<boolean> {
  const up = await Promise.all(plan.listeners.map((l) => deps.tcpListening(l.address, l.port, timeoutMs).catch(() => false)));
  return up.every(Boolean);
}

/** Polls of waitForListeners at most 4 ms apart: 127 ms in all, where the doubling from 1 ms polls the 8th time. */
export const READY_POLL_FAST = 33;

/**
 * ms waitForListeners waits after poll `attempt` (0-based): 1, 2, then 4 until READY_POLL_FAST
 * polls (127 ms), then 128, 200, 200 … — from there the polls of a wait doubling from 1 ms (at
 * most 200), so a listener is never found later than that doubling found it.
 */
export function readyPollWait(attempt: number): number {
  return attempt < READY_POLL_FAST ? Math.min(4, 2 ** attempt) : Math.min(200, 2 ** (attempt - READY_POLL_FAST + 7));
}

/**
 * Waits until the proxy accepts connections on every listener (TCP connect: it needs no
 * upstream, so a dead CoreDNS shows up in verify with its own message), polling after 1, 2,
 * then every 4 ms up to 127 ms, then 128 and 200 ms apart (readyPollWait): a proxy binds within
 * milliseconds of its exec, which the service manager's start waited for, so a first wait of
 * 10 ms was most of this one, and a wait doubling from 1 ms (8, 16, 32 …) found one that bound
 * meanwhile up to that long after (2–11 ms in traces of the lifecycle bench) — for at most
 * `timeoutMs` ms in all. Fails with SERVICE_EXITED (with the log's
 * last error and, for a bind failure, the port's holder) or SERVICE_NOT_READY. `started`: what
 * the service manager's start just read (ServiceManager.start): a service it saw running needs no
 * status read before the first poll, and while its main process (`started.pid`) still runs
 * (deps.processRunning, a read of /proc) none before the later ones either: on systemd each status
 * read is a `systemctl show` process (~20 ms on the booted Debian 13 host, where a proxy took 2–3
 * polls to bind), and a new process is what a crash-restart or an exit leaves, which the status
 * read then judges.
 */
export async function waitForListeners(deps: LifecycleDeps, plan: ProxyPlan, timeoutMs: number, started?: { running?: boolean; pid?: number | null }): Promise<void> {
  const deadline = deps.now() + timeoutMs;
  const pending = new Set(plan.listeners.map((l) => `${l.address}:${l.port}`));
  const mainRuns = async () => started?.running === true && typeof started.pid === 'number' && deps.processRunning !== undefined && (await deps.processRunning(started.pid));
  for (let attempt = 0; pending.size > 0; attempt++) {
    const status = (attempt === 0 && started?.running === true) || (attempt > 0 && (await mainRuns())) ? { running: true } : await deps.services.status();
    if (!status.running) {
      const tail = await logTail(deps, 20);
      const bind = tail.find((l) => /address already in use/i.test(l));
      if (bind) {
        const l = plan.listeners[0]!;
        const holder = await deps.portHolder(l.port, 'udp', l.address);
        throw failed('PORT_IN_USE', holder ? `k2s-dnsproxy could not bind: ${portHeldMessage(`${l.address}:${l.port}`, holder)}` : `k2s-dnsproxy could not bind port 53 (address already in use); find the holder with \`ss -lunp 'sport = :53'\` and stop it.`);
      }
      const last = [...tail].reverse().find((l) => /error|fail|fatal|bad|unknown/i.test(l)) ?? tail.at(-1) ?? '(empty log)';
      throw failed('SERVICE_EXITED', `k2s-dnsproxy exited right after start: "${last.trim()}"; see ${K2S_PATHS.log}.`);
    }
    await Promise.all([...pending].map(async (server) => {
      const l = plan.listeners.find((x) => `${x.address}:${x.port}` === server)!;
      if (await deps.tcpListening(l.address, l.port, 300)) pending.delete(server);
    }));
    if (pending.size === 0) break;
    if (deps.now() >= deadline) {
      throw failed('SERVICE_NOT_READY', `k2s-dnsproxy did not answer on ${[...pending].join(', ')} within ${timeoutMs} ms; see ${K2S_PATHS.log}.`);
    }
    await deps.sleep(readyPollWait(attempt));
  }
}
