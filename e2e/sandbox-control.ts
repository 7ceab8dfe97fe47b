/**
 * The sandbox's control channel (`npm run sandbox:ctl -- coredns down`): lets someone trying
 * the app fake the outages the app is built to explain — CoreDNS (kube-dns) down, the
 * Kubernetes API down, the network's nameserver (the upstream) down — and undo them, without a
 * cluster or network to break. `upstream up` also brings back an upstream someone killed in
 * the sandbox's root shell (walk 12 M4: `pgrep dnsmasq` there finds it before the proxy).
 *
 * A Unix socket in the sandbox's temp dir (DIR/control.sock, like the port bridge's socket: a
 * file-system object both sides of the network namespace see; DIR is root's and the socket
 * 0600 (e2e/sandbox-app.ts), so only root can use it). One request per connection: a line `TARGET ACTION` (`coredns down`), answered by
 * one line `ok: …` or `error: …`, then the server ends the connection. The actions run on the
 * inner side's test bed (e2e/bed/testbed.ts): stopCoreDns/startCoreDns, api.setMode,
 * stopUpstream/startUpstream; `network change|back` on e2e/sandbox-network.ts.
 */
import { createConnection, createServer, type Server } from 'node:net';
import type { Testbed } from './bed/testbed';
import type { SandboxNetwork } from './sandbox-network';

/** What the test bed must offer the control channel (a Testbed has it). */
export type ControlledBed = Pick<Testbed, 'stopCoreDns' | 'startCoreDns' | 'coreDnsPid' | 'stopUpstream' | 'startUpstream' | 'upstreamPid' | 'addresses' | 'kubeDnsKind'> & {
  api: Pick<Testbed['api'], 'setMode' | 'mode' | 'url'>;
};

/** One control command: its words and what it does (the usage text and the printed lines use these). */
export interface SandboxControl {
  /** `coredns down`, `api up` … */
  command: string;
  /** What it fakes, and what the app shows then. */
  does: string;
}

/**
 * What a name outside the cluster that the proxy has not cached gets while the upstream is down,
 * per engine (measured in e2e/sandbox-upstream-engines.e2e.test.ts): AdGuard dnsproxy answers
 * SERVFAIL once its exchange fails (measured: within 1 ms); dnsmasq sends no answer at all (none
 * within 15 s, measured with a longer wait), so the asker times out —
 * `k2s-dns query` after its 2 s (electron/core/probes/dns-query.ts), glibc after its
 * `options timeout` (5 s by default, resolv.conf(5)) per try.
 */
export const UPSTREAM_DOWN_UNCACHED = 'names outside the cluster that the proxy has not cached get SERVFAIL with AdGuard dnsproxy, and no answer with dnsmasq (the query times out: k2s-dns query says TIMEOUT after 2 s)';

/** Every command, in the order usage lists them. */
export const SANDBOX_CONTROLS: readonly SandboxControl[] = [
  { command: 'coredns down', does: 'stops CoreDNS (kube-dns 172.21.0.10 stops answering): within about 7 s the verdict says "CoreDNS … does not answer" — amber while cluster names still resolve from the proxy\'s cache, red once they do not' },
  { command: 'coredns up', does: 'starts CoreDNS again: the verdict turns green by itself' },
  { command: 'api down', does: 'closes the Kubernetes API server (connection refused): the Cluster card says Unreachable within 5 s' },
  { command: 'api up', does: 'opens it again: the Cluster card says Reachable by itself' },
  { command: 'upstream down', does: `stops the sandbox network's nameserver (dnsmasq on 192.0.2.53, which answers www.example.test): ${UPSTREAM_DOWN_UNCACHED}; cached ones (once asked through this run of the proxy) still answer from its cache while it lasts, cluster names still resolve` },
  { command: 'upstream up', does: 'starts it again, the same server (also after a kill of its PID): names outside the cluster resolve again' },
  { command: 'network change', does: 'a network change as NetworkManager makes one: writes a NetworkManager-style /etc/resolv.conf (the sandbox\'s) naming another nameserver, 192.0.2.99 (search newnet.test; it alone answers only.newnet.test): while K2s DNS runs it follows within about 2 s (Host DNS card: network change followed: NetworkManager)' },
  { command: 'network back', does: "writes the sandbox network's NetworkManager-style file again (nameserver 192.0.2.53, search example.test, options timeout:1 attempts:1): followed the same way" },
  { command: 'status', does: 'says whether CoreDNS, the API and the upstream are up, and which network\'s file was written last' },
];

/**
 * The outage controls as the sandbox in `dir` prints them, lines to paste in another root shell in
 * this checkout (e2e/sandbox-ctl.ts), each with `--dir DIR`: a line without it fails once a second
 * sandbox runs ("2 sandboxes run; name one with --dir", a new user's finding).
 */
export function sandboxControlLines(dir: string): string[] {
  const shown = SANDBOX_CONTROLS.filter((c) => c.command !== 'status');
  const width = Math.max(...shown.map((c) => c.command.length));
  return shown.map((c) => `  npm run sandbox:ctl -- --dir ${dir} ${c.command.padEnd(width)}   # ${c.does}`);
}

/** Longest request line accepted, bytes (the commands are a few words). */
const MAX_REQUEST = 64;

/**
 * Runs one command on `bed` (`network …` on `network`: without one they answer an error); returns
 * the reply line (`ok: …` / `error: …`). Never throws.
 */
export async function runControl(bed: ControlledBed, request: string, network?: SandboxNetwork): Promise<string> {
  const words = request.trim().toLowerCase().split(/\s+/).join(' ');
  const coredns = `${bed.kubeDnsKind === 'coredns' ? 'CoreDNS' : 'the CoreDNS stand-in (dnsmasq)'} (kube-dns ${bed.addresses.kubeDns}:53)`;
  const upstream = `the upstream (dnsmasq, the sandbox network's nameserver ${bed.addresses.upstream}:53)`;
  try {
    switch (words) {
      case 'coredns down':
        if (bed.coreDnsPid() === null) return `ok: ${coredns} is already down`;
        await bed.stopCoreDns();
        return `ok: ${coredns} stopped; the app's verdict says it does not answer within about 7 s (its check runs every 5 s while K2s DNS runs): amber while cached answers last, then red`;
      case 'coredns up':
        if (bed.coreDnsPid() !== null) return `ok: ${coredns} is already up (PID ${bed.coreDnsPid()})`;
        await bed.startCoreDns();
        return `ok: ${coredns} answers again (PID ${bed.coreDnsPid()}); the verdict recovers by itself`;
      case 'api down':
        await bed.api.setMode('down');
        return `ok: the Kubernetes API ${bed.api.url} refuses connections; the Cluster card says Unreachable within 5 s`;
      case 'api up':
        await bed.api.setMode('ok');
        return `ok: the Kubernetes API ${bed.api.url} answers again; the Cluster card says Reachable by itself`;
      case 'upstream down':
        if (bed.upstreamPid() === null) return `ok: ${upstream} is already down`;
        await bed.stopUpstream();
        return `ok: ${upstream} stopped: ${UPSTREAM_DOWN_UNCACHED}; cached ones (www.example.test once asked through this run of the proxy: a fresh start begins with an empty cache) still answer from its cache while it lasts; cluster names still resolve`;
      case 'upstream up':
        if (bed.upstreamPid() !== null) return `ok: ${upstream} is already up (PID ${bed.upstreamPid()})`;
        await bed.startUpstream();
        return `ok: ${upstream} answers again (PID ${bed.upstreamPid()}); names outside the cluster resolve again`;
      case 'network change':
      case 'network back':
        if (!network) return `error: ${words} is not offered here (no sandbox network to change)`;
        return words === 'network change' ? await network.change() : await network.back();
      case 'status': {
        const pid = bed.coreDnsPid();
        const api = bed.api.mode();
        const up = bed.upstreamPid();
        const net = network ? `; network: ${network.current() === 'other' ? "the other one's file (after network change)" : "the sandbox's own"}` : '';
        return `ok: ${coredns} ${pid === null ? 'down' : `up (PID ${pid})`}; Kubernetes API ${bed.api.url} ${api === 'ok' ? 'up' : api === 'down' ? 'down (refuses connections)' : `answering "${api}"`}; ${upstream} ${up === null ? 'down' : `up (PID ${up})`}${net}`;
      }
      default:
        return `error: unknown command "${words.slice(0, MAX_REQUEST)}"; one of: ${SANDBOX_CONTROLS.map((c) => c.command).join(', ')}`;
    }
  } catch (err) {
    return `error: ${words} failed: ${(err as Error).message}`;
  }
}

/** The listening control channel. */
export interface ControlServer {
  socketPath: string;
  close(): Promise<void>;
}

/** Serves `bed` (and `network`'s changes) on `socketPath` (one `TARGET ACTION` line per connection, one reply line). */
export async function startControlServer(bed: ControlledBed, socketPath: string, network?: SandboxNetwork): Promise<ControlServer> {
  // One command at a time: a second `coredns up` waits for the first instead of racing it.
  let queue: Promise<unknown> = Promise.resolve();
  const server: Server = createServer((conn) => {
    let buf = '';
    let taken = false;
    conn.setEncoding('utf8');
    conn.on('error', () => conn.destroy());
    conn.on('data', (chunk: string) => {
      if (taken) return;
      buf += chunk;
      const nl = buf.indexOf('\n');
      if (nl === -1 && buf.length <= MAX_REQUEST) return;
      taken = true;
      const line = nl === -1 ? '' : buf.slice(0, nl);
      const reply = nl === -1 ? Promise.resolve('error: request too long') : (queue = queue.then(() => runControl(bed, line, network)));
      void reply.then((r) => conn.end(`${String(r)}\n`));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    socketPath,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Sends one command to the control channel at `socketPath`; resolves with the reply line. */
export function sendControl(socketPath: string, command: string, timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const conn = createConnection(socketPath);
    let out = '';
    const timer = setTimeout(() => {
      conn.destroy();
      reject(new Error(`no reply from ${socketPath} within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    conn.setEncoding('utf8');
    conn.on('connect', () => conn.write(`${command}\n`));
    conn.on('data', (d: string) => (out += d));
    conn.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    conn.on('end', () => {
      clearTimeout(timer);
      resolve(out.trim());
    });
  });
}
