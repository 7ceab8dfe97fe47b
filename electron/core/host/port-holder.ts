/**
 * Names the process that holds a port (docs/host-facts.md "Host resolver
 * traps"), from /proc/net/* and the `socket:[inode]` links in /proc/<pid>/fd.
 */
import dgram from 'node:dgram';
import { promises as fsp } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { boundAddressCovers, parseProcNet, TCP_LISTEN } from '../../../shared/proc-net';
import { serviceUnitOfCgroup } from './cgroup-unit';

/** A process that holds a port; `unit`: the system service it runs in (/proc/PID/cgroup), absent when none. */
export interface PortHolder {
  pid: number;
  command: string;
  unit?: string;
}

/** Socket inodes bound so that they receive `proto` traffic for `address:port`. */
export async function socketInodesFor(port: number, proto: 'udp' | 'tcp', address: string, procDir = '/proc'): Promise<Set<number>> {
  const littleEndian = os.endianness() === 'LE';
  const inodes = new Set<number>();
  for (const file of [proto, `${proto}6`]) {
    let text: string;
    try {
      text = await fsp.readFile(path.join(procDir, 'net', file), 'utf8');
    } catch {
      continue; // no IPv6 in this kernel/namespace
    }
    for (const s of parseProcNet(text, littleEndian)) {
      if (s.localPort !== port || s.inode === 0) continue;
      if (proto === 'tcp' && s.state !== TCP_LISTEN) continue; // only a listener holds a TCP port
      if (boundAddressCovers(s.localAddress, address)) inodes.add(s.inode);
    }
  }
  return inodes;
}

async function commandOf(procDir: string, pid: string): Promise<string> {
  try {
    const cmdline = (await fsp.readFile(path.join(procDir, pid, 'cmdline'), 'utf8')).split('\0').filter((s) => s !== '').join(' ');
    if (cmdline !== '') return cmdline;
  } catch {
    // fall through to comm (kernel threads, races)
  }
  return (await fsp.readFile(path.join(procDir, pid, 'comm'), 'utf8').catch(() => '?')).trim();
}

/**
 * Whether a socket of `proto` can bind `address:port` now, held for no longer than that: then no
 * socket findPortHolder looks for holds it (a UDP socket bound there, or on 0.0.0.0/`::`, and a
 * TCP listener make the bind fail with EADDRINUSE; neither test socket asks for SO_REUSEPORT,
 * and a UDP one not for SO_REUSEADDR). A bind takes well under a millisecond, where reading
 * /proc/net/tcp walks the kernel's whole TCP hash table: ~4 ms per file even with no socket in
 * it (measured on the test bed), twice per TCP check. Any failure (EADDRINUSE, EACCES without
 * root, EADDRNOTAVAIL) is false: the caller looks in /proc. The test socket is closed on every
 * path before the promise settles.
 */
export function canBind(port: number, proto: 'udp' | 'tcp', address: string): Promise<boolean> {
  // `address` is an IP literal (a listener's): only IPv6 has a colon. Not net.isIPv6, whose
  // first call compiles its large regular expression (~2–4 ms of start's preflight).
  const family = address.includes(':') ? 6 : 4;
  return new Promise((resolve) => {
    if (proto === 'udp') {
      const s = dgram.createSocket({ type: family === 6 ? 'udp6' : 'udp4' });
      // A failed bind leaves the socket open (Node's dgram emits 'error' and keeps the handle, measured on Node 20;
      // net.Server closes its own on a failed listen): closed here, or each check of a held port
      // (doctor's port-53 while the proxy runs, any port below 1024 as a user) kept one open
      // socket in the long-running app.
      s.once('error', () => s.close(() => resolve(false)));
      s.bind({ port, address, exclusive: true }, () => s.close(() => resolve(true)));
      return;
    }
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: address, exclusive: true, backlog: 1 }, () => server.close(() => resolve(true)));
  });
}

/**
 * The lowest pid whose fd table holds a socket bound to `address:port` (0.0.0.0 and `::` also
 * hold 127.0.0.1), with its command line and the system service it runs in (cgroup-unit.ts, from
 * `procDir`/PID/cgroup; absent when it runs in none); null when none is found (or /proc/<pid>/fd is not
 * readable, i.e. not root). On the real /proc, a port that can be bound (canBind) is held by
 * none, and /proc is not read.
 */
export async function findPortHolder(
  port: number,
  proto: 'udp' | 'tcp',
  address: string,
  procDir = '/proc',
): Promise<PortHolder | null> {
  if (procDir === '/proc' && (await canBind(port, proto, address))) return null;
  const inodes = await socketInodesFor(port, proto, address, procDir);
  if (inodes.size === 0) return null;
  const pids = (await fsp.readdir(procDir)).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(a) - Number(b));
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = await fsp.readdir(path.join(procDir, pid, 'fd'));
    } catch {
      continue; // exited, or not ours to read
    }
    for (const fd of fds) {
      const link = await fsp.readlink(path.join(procDir, pid, 'fd', fd)).catch(() => '');
      const m = /^socket:\[(\d+)\]$/.exec(link);
      if (!m || !inodes.has(Number(m[1]))) continue;
      const unit = serviceUnitOfCgroup(await fsp.readFile(path.join(procDir, pid, 'cgroup'), 'utf8').catch(() => ''));
      return { pid: Number(pid), command: await commandOf(procDir, pid), ...(unit === null ? {} : { unit }) };
    }
  }
  return null;
}
