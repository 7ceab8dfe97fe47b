/**
 * What `k2s-dns ui` (and `app` in web mode) says when its web server cannot listen because the
 * port is taken (listen(2) EADDRINUSE): the README's code, PORT_IN_USE (shared/error-codes.ts),
 * the holder when this user may see it, and the way out; exit 1 (the ui exit status, usage.ts EXIT_UI).
 */
import { findPortHolder, type PortHolder } from '../core/host/port-holder';
import { terminalSafe } from './terminal-safe';

/** Characters of the holder's command line shown (a command line can be long; --json is not offered by ui). */
const MAX_COMMAND = 160;

/** True for the error Node's net.Server emits when the address and port are taken (errno EADDRINUSE). */
export function isAddressInUse(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === 'EADDRINUSE';
}

/**
 * The line for `verb` (`ui`, `app`) when 127.0.0.1:`port` is taken, naming `holder` when known
 * (found through /proc, so another user's process only as root): `k2s-dns ui failed
 * [PORT_IN_USE]: 127.0.0.1:PORT is in use by CMD (PID N); pick another --port, or leave --port
 * out for a free one.`
 */
export function portInUseLine(verb: string, port: number, holder: PortHolder | null): string {
  const command = holder ? terminalSafe(holder.command) : '';
  const by = holder ? ` by ${command.length > MAX_COMMAND ? `${command.slice(0, MAX_COMMAND - 1)}…` : command} (PID ${holder.pid})` : ' by another program';
  return `k2s-dns ${verb} failed [PORT_IN_USE]: 127.0.0.1:${port} is in use${by}; pick another --port, or leave --port out for a free one.`;
}

/** portInUseLine with the holder looked up now (findPortHolder, TCP listener on 127.0.0.1); a lookup that fails names none. */
export async function portInUseNow(verb: string, port: number, find: typeof findPortHolder = findPortHolder): Promise<string> {
  return portInUseLine(verb, port, await find(port, 'tcp', '127.0.0.1').catch(() => null));
}
