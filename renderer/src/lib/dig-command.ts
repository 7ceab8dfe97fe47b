/** "Copy as dig command" for the query tester. */
import type { QueryType } from '../../../shared/types';

/** One query as the tester ran it; `server` is `system` or `IP:PORT` / `[IPv6]:PORT`. */
export interface DigInput {
  name: string;
  type: QueryType;
  server: string;
  transport: 'udp' | 'tcp' | 'getaddrinfo';
}

/** Splits `IP:PORT`, `[v6]:PORT`, bare IPv4 or bare IPv6 into address and port (default 53). */
export function splitServer(server: string): { address: string; port: number } {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(server);
  if (v6) return { address: v6[1]!, port: v6[2] ? Number(v6[2]) : 53 };
  const v4 = /^([0-9.]+)(?::(\d+))?$/.exec(server);
  if (v4) return { address: v4[1]!, port: v4[2] ? Number(v4[2]) : 53 };
  return { address: server, port: 53 };
}

/**
 * The shell command that asks the same question: `dig @SERVER -p PORT NAME TYPE +tcp` (dig(1));
 * for the system target `getent ahosts NAME` (getent(1)), which goes through getaddrinfo and
 * nsswitch.conf exactly like the tester did (dig would bypass /etc/hosts and nsswitch), and
 * `getent hosts IP` for a PTR (getnameinfo).
 */
export function digCommand(q: DigInput): string {
  if (q.server === 'system') return q.type === 'PTR' ? `getent hosts ${q.name}` : `getent ahosts ${q.name}`;
  const { address, port } = splitServer(q.server);
  return `dig @${address} -p ${port} ${q.name} ${q.type}${q.transport === 'tcp' ? ' +tcp' : ''}`;
}
