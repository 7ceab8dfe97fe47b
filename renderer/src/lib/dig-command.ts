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
 * `dig @SERVER -p PORT NAME TYPE +tcp` (dig(1)); the system resolver has no server, so plain
 * `dig NAME TYPE` (which reads /etc/resolv.conf, like getaddrinfo does).
 */
export function digCommand(q: DigInput): string {
  if (q.server === 'system') return `dig ${q.name} ${q.type}`;
  const { address, port } = splitServer(q.server);
  return `dig @${address} -p ${port} ${q.name} ${q.type}${q.transport === 'tcp' ? ' +tcp' : ''}`;
}
