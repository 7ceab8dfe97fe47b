/**
 * What would keep this process running once its work is done: the handles (servers, sockets,
 * child processes, pipes) and timers that hold Node's event loop open. The inner side of
 * `npm run sandbox` prints them after its stop, so a forgotten one is named instead of showing
 * up as a silent wait: a 10 s deadline timer left by the test bed's CoreDNS stop (coredns-pod.ts)
 * kept it running 10 s after everything had stopped.
 */

/**
 * A handle as Node lists it (process._getActiveHandles, undocumented but present since Node 0.x).
 * `remoteAddress` is a string on a TCP socket (net.Socket) and a method on a UDP one
 * (dgram.Socket, Node's dgram docs: socket.remoteAddress() and socket.address()).
 */
interface HandleLike {
  constructor?: { name?: string };
  pid?: number;
  spawnargs?: string[];
  address?: () => unknown;
  remoteAddress?: string | (() => unknown);
  remotePort?: number;
  hasRef?: () => boolean;
}

/** `ADDRESS:PORT` of an AddressInfo-like value (`[ADDRESS]:PORT` for IPv6), null for anything else. */
function hostPort(a: unknown): string | null {
  if (!a || typeof a !== 'object') return null;
  const { address, port } = a as { address?: unknown; port?: unknown };
  if (typeof address !== 'string' || typeof port !== 'number') return null;
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}

/** What `get` returns, or null when it throws (an unbound or unconnected dgram socket does). */
function orNull(get: () => unknown): unknown {
  try {
    return get();
  } catch {
    return null;
  }
}

/**
 * A UDP socket: `udp LOCAL` (its bound address), with ` to REMOTE` when connected, or
 * `udp (not bound)`.
 */
function describeUdp(h: HandleLike & { remoteAddress: () => unknown }): string {
  const local = hostPort(orNull(() => h.address?.()));
  const remote = hostPort(orNull(() => h.remoteAddress()));
  return `udp ${local ?? '(not bound)'}${remote ? ` to ${remote}` : ''}`;
}

/** One line for a handle: its kind and whatever names it (PID and command, address). */
function describe(h: HandleLike): string {
  const kind = h.constructor?.name ?? 'handle';
  if (typeof h.pid === 'number') return `${kind} PID ${h.pid} (${(h.spawnargs ?? []).join(' ')})`;
  if (typeof h.remoteAddress === 'function') return describeUdp(h as HandleLike & { remoteAddress: () => unknown });
  if (h.remoteAddress !== undefined) return `${kind} to ${h.remoteAddress}:${h.remotePort}`;
  if (typeof h.address === 'function') {
    try {
      const a = h.address();
      if (a) return `${kind} on ${typeof a === 'string' ? a : JSON.stringify(a)}`;
    } catch {
      /* a closed server throws */
    }
  }
  return kind;
}

/**
 * The handles and timers that keep the event loop alive, but this process's own stdin, stdout
 * and stderr (which end with it): empty when the process ends as soon as its code returns.
 * Timers come from process.getActiveResourcesInfo() (Node ≥ 17.3), which counts only those
 * that are ref'd (an unref'd timer does not hold the process: timers.html#timeoutunref).
 */
export function openAfterStop(): string[] {
  const stdio = new Set<unknown>([process.stdin, process.stdout, process.stderr]);
  const handles = (process as unknown as { _getActiveHandles(): HandleLike[] })._getActiveHandles();
  const open = handles.filter((h) => !stdio.has(h) && (h.hasRef?.() ?? true)).map(describe);
  const timers = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  if (timers > 0) open.push(`${timers} timer${timers === 1 ? '' : 's'}`);
  return open;
}

/**
 * Resolves once libuv has run the close callbacks of the handles closed so far: a closed server
 * stays in Node's list until then, and its 'close' event comes before (net.Server emits it on
 * the next tick). An immediate runs in the check phase, close callbacks after it in the same
 * loop iteration, and an immediate queued from an immediate in the next one (Node's "The Node.js
 * Event Loop" guide, phases overview).
 */
export async function afterCloseCallbacks(): Promise<void> {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
}
