/**
 * `sudo npm run try-package`: the INSTALLED .deb as a new user sees it, by hand. Inside a
 * throw-away network + mount namespace (e2e/bed/sandbox.sh) it starts the e2e test bed, boots the
 * Debian 13 test host (e2e/bed/debian-host.ts: its own systemd, dbus, polkitd), installs
 * out/packages/k2s-dns_*_amd64.deb with apt-get (offline), adds the desktop user `ada` with a
 * ~/.kube/config for the bed, drops a polkit rule that lets ada run the helper without a
 * password (no desktop agent runs there), and starts `k2s-dns ui` as ada. The URL is bridged to
 * 127.0.0.1:PORT outside (e2e/bed/port-bridge.ts, as `npm run sandbox` does); it prints
 * `nsenter` lines for a shell in the host as ada and as root. Ctrl-C tears it all down.
 * Usage: `npm run package && sudo npm run try-package [-- --port N]`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTcpToUnix, startUnixToTcp } from './bed/port-bridge';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = join(REPO, 'out', 'packages');
/** The default port, the same inside the sandbox and outside (the app checks the Host header's port). */
const DEFAULT_PORT = 18480;

/** What the inner side writes to DIR/ready.json. */
interface Ready {
  url: string;
  /** PID of the inner node process (sandbox namespaces), and of the host's systemd (its own PID + mount namespaces). */
  pid: number;
  hostPid1: number;
  deb: string;
}

/** Newest `k2s-dns_<version>_amd64.deb` in out/packages, or null. */
export function findDeb(dir = PACKAGES): string | null {
  const debs = (() => {
    try {
      return readdirSync(dir).filter((f) => /^k2s-dns_.+_amd64\.deb$/.test(f)).sort();
    } catch {
      return [];
    }
  })();
  const newest = debs.at(-1);
  return newest ? join(dir, newest) : null;
}

/** Ready-to-paste shells inside the test host (nsenter(1) into the namespaces of its systemd). */
export function hostShellLines(hostPid1: number, user: string): string[] {
  const enter = `nsenter -t ${hostPid1} -m -u -p -n -C -r -w --`;
  return [`  as ${user}: ${enter} runuser -l ${user}`, `  as root: ${enter} bash -l`];
}

/** Resolves with the exit code once `child` exits, or null after `ms`. */
function exited(child: ChildProcess, ms: number): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(null), ms);
    child.once('exit', (code, signal) => {
      clearTimeout(t);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

async function waitReady(dir: string, child: ChildProcess): Promise<Ready | null> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) return null;
    const text = await readFile(join(dir, 'ready.json'), 'utf8').catch(() => null);
    if (text) return JSON.parse(text) as Ready;
    await new Promise((r) => setTimeout(r, 200)); // a file the other namespace writes
  }
}

/** Outer side (this machine's network namespace): starts the sandbox, bridges the port, waits for Ctrl-C. */
async function outer(port: number): Promise<number> {
  if (process.getuid?.() !== 0) {
    process.stderr.write('npm run try-package needs root (namespaces and a booted test host): sudo npm run try-package\n');
    return 77;
  }
  if (!findDeb()) {
    process.stderr.write('No out/packages/k2s-dns_*_amd64.deb: run npm run package first.\n');
    return 1;
  }
  const dir = await mkdtemp(join(tmpdir(), 'k2sdns-try-'));
  const child = spawn('bash', [join(REPO, 'e2e/bed/sandbox.sh'), process.execPath, '--import', 'tsx', fileURLToPath(import.meta.url), '--inner', dir, '--port', String(port)], { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
  let ready: Ready | null = null;
  let bridge: Awaited<ReturnType<typeof startTcpToUnix>> | null = null;
  const stop = async (): Promise<number> => {
    await bridge?.close();
    if (ready) process.kill(ready.pid, 'SIGTERM');
    let code = await exited(child, 120_000);
    if (code === null) {
      process.kill(child.pid!, 'SIGTERM');
      code = await exited(child, 15_000);
    }
    await rm(dir, { recursive: true, force: true });
    return code ?? 1;
  };
  const signalled = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  ready = await Promise.race([waitReady(dir, child), signalled.then(() => null)]);
  if (!ready) return stop();
  try {
    bridge = await startTcpToUnix({ port, socketPath: join(dir, 'bridge.sock') });
  } catch (err) {
    process.stderr.write(`Port ${port} on 127.0.0.1 is taken here (${(err as Error).message}); rerun with: sudo npm run try-package -- --port N\n`);
    await stop();
    return 1;
  }
  const url = ready.url;
  process.stdout.write(
    `\nThe installed ${ready.deb.split('/').pop()} as the desktop user ada: ${url}\n` +
      '(a booted Debian 13 test host in a throw-away network + mount namespace; your real /etc/resolv.conf is not touched. Ctrl-C stops everything.)\n' +
      `\nShells in the test host:\n${hostShellLines(ready.hostPid1, 'ada').join('\n')}\n`,
  );
  await Promise.race([signalled, exited(child, 2 ** 31 - 1)]);
  process.stdout.write('Stopping: the app, the test host, the test bed, the sandbox…\n');
  const code = await stop();
  process.stdout.write('Stopped; the sandbox namespace is gone.\n');
  return code === 130 || code === 143 ? 0 : code;
}

/** Inner side (inside the sandbox): test bed, booted host, apt-get install, user, polkit rule, app. */
async function inner(dir: string, port: number): Promise<number> {
  const { startTestbed } = await import('./bed/testbed');
  const { createDebianHost, debianHostMissing, HOST_SRC, REPO_ROOT } = await import('./bed/debian-host');
  const { PLAIN_NSSWITCH, PLAIN_RESOLV_CONF } = await import('./bed/debian-host-cli');
  const { addUser, helperRule, startAppAs } = await import('./bed/desktop-user');
  const missing = await debianHostMissing();
  if (missing) {
    process.stderr.write(`try-package: cannot boot the Debian 13 test host: ${missing}\n`);
    return 1;
  }
  const deb = findDeb()!;
  const say = (s: string) => process.stdout.write(`try-package: ${s}\n`);
  say('starting the test bed and booting the Debian 13 host…');
  const tb = await startTestbed();
  const h = await createDebianHost({
    files: { '/etc/resolv.conf': PLAIN_RESOLV_CONF, '/etc/nsswitch.conf': PLAIN_NSSWITCH, '/etc/polkit-1/rules.d/50-k2s-dns-try.rules': helperRule('ada', []) },
  });
  const down = async () => {
    await h.destroy().catch(() => undefined);
    await tb.stop().catch(() => undefined);
  };
  try {
    await h.boot();
    await h.waitRunning();
    say(`apt-get install ${deb.split('/').pop()}…`);
    const inst = await h.run(['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', '-y', '-o', 'Acquire::Retries=0', 'install', '--no-install-recommends', `${HOST_SRC}/${deb.slice(REPO_ROOT.length).replace(/^\/+/, '')}`], { timeoutMs: 180_000 });
    if (inst.code !== 0) throw new Error(`apt-get install failed:\n${inst.stdout}${inst.stderr}`);
    await addUser(h, { name: 'ada', uid: 1000, home: '/home/ada' }, await readFile(tb.kubeconfigPath, 'utf8'));
    const app = await startAppAs(h, { name: 'ada', uid: 1000, home: '/home/ada' }, port);
    const fwd = await startUnixToTcp({ socketPath: join(dir, 'bridge.sock'), port: port });
    const ready: Ready = { url: app.url, pid: process.pid, hostPid1: h.pid1()!, deb };
    await writeFile(join(dir, 'ready.json'), JSON.stringify(ready), { mode: 0o600 });
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    await fwd.close();
    await app.stop();
  } catch (err) {
    process.stderr.write(`try-package: ${(err as Error).message}\n`);
    await down();
    return 1;
  }
  await down();
  return 0;
}

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const innerDir = opt('--inner');
const port = Number(opt('--port') ?? DEFAULT_PORT);
if (!innerDir && (!Number.isInteger(port) || port < 1 || port > 65535)) {
  process.stderr.write('--port must be a TCP port number (1–65535).\n');
  process.exit(64);
}
if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = innerDir ? await inner(innerDir, port) : await outer(port);
