import { isIP } from 'node:net';

/** A DNS server endpoint. `address` is an IP literal (IPv6 may keep its `%zone`). */
export interface ServerEndpoint {
  address: string;
  /** UDP/TCP port, 1–65535. */
  port: number;
  family: 4 | 6;
}

/**
 * Parses `IP`, `IP:PORT`, `[v6]:PORT`, `[v6]`, `v6` and `v6%zone` (the resolv.conf and dig
 * spellings) into an endpoint; the port defaults to `defaultPort` (53, RFC 1035 §4.2).
 * Throws when the text is not one of those forms.
 */
export function parseServer(text: string, defaultPort = 53): ServerEndpoint {
  const s = text.trim();
  const bad = (why: string): Error =>
    new Error(`DNS server "${text}" ${why}; write it as IP, IP:PORT or [IPv6]:PORT, e.g. 172.21.0.10 or [fd00::a]:53.`);
  let address: string;
  let portText: string | null = null;
  if (s.startsWith('[')) {
    const close = s.indexOf(']');
    if (close < 0) throw bad('has no closing "]"');
    address = s.slice(1, close);
    const rest = s.slice(close + 1);
    if (rest !== '') {
      if (!rest.startsWith(':')) throw bad('has text after "]" that is not ":PORT"');
      portText = rest.slice(1);
    }
  } else {
    const colons = s.split(':').length - 1;
    if (colons === 1) {
      // Exactly one colon: IPv4:PORT (bare IPv6 always has two or more).
      [address, portText] = s.split(':') as [string, string];
    } else {
      address = s;
    }
  }
  const family = isIP(stripZone(address));
  if (family === 0) throw bad('is not an IP address');
  if (family === 4 && address.includes('%')) throw bad('has a %zone on an IPv4 address');
  let port = defaultPort;
  if (portText !== null) {
    if (!/^[0-9]{1,5}$/.test(portText)) throw bad('has a port that is not a number');
    port = Number(portText);
    if (port < 1 || port > 65535) throw bad('has a port outside 1–65535');
  }
  return { address, port, family: family as 4 | 6 };
}

/** Renders an endpoint as `IP:PORT`, or `[v6]:PORT` for IPv6 (the form QueryResult.server uses). */
export function formatServer(endpoint: { address: string; port: number }): string {
  return endpoint.address.includes(':') ? `[${endpoint.address}]:${endpoint.port}` : `${endpoint.address}:${endpoint.port}`;
}

/**
 * A nameserver as resolv.conf(5) and the rest of K2s's output name it: the bare address
 * (IPv6 unbracketed, `%zone` kept) when its port is DNS's default 53 (RFC 1035 §4.2), so
 * `10.0.0.1:53` reads `10.0.0.1` and `[fd00::1]:53` reads `fd00::1`; any other port stays as
 * written (`10.0.0.1:5353`). A text that is no server is returned as is.
 */
export function defaultPortOmitted(server: string): string {
  try {
    const e = parseServer(server);
    return e.port === 53 ? e.address : server.trim();
  } catch {
    return server;
  }
}

/** The address without its IPv6 `%zone` suffix. */
function stripZone(address: string): string {
  const pct = address.indexOf('%');
  return pct >= 0 ? address.slice(0, pct) : address;
}
