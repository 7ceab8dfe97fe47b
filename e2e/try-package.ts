/**
 * `sudo npm run try-package`: the INSTALLED .deb as a new user sees it, by hand. Inside a
 * throw-away network + mount namespace (e2e/bed/sandbox.sh) it starts the e2e test bed, boots the
 * Debian 13 test host (e2e/bed/debian-host.ts: its own systemd, dbus, polkitd), installs
 * out/packages/k2s-dns_*_amd64.deb with apt-get (offline), adds the desktop user `ada` with a
 * ~/.kube/config for the bed, drops a polkit rule that lets ada run the helper without a
 * password (no desktop agent runs there), and starts `k2s-dns ui` as ada. The URL is bridged to
 * 127.0.0.1:PORT outside (e2e/bed/port-bridge.ts, as `npm run sandbox` does); it prints
 * `nsenter` lines for a shell in the host as ada and as root, naming the host systemd's PID out
 * here (support/test-host-shell.ts). Ctrl-C tears it all down: the outer closes the inner's stdin
 * and sends SIGTERM to the inner's PID out here, checked first (support/verified-kill.ts); the
 * inner ends the test host, the test bed and the temp dir, and sandbox.sh deletes the namespace.
 * Usage: `npm run package && sudo npm run try-package [-- --port N]`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTcpToUnix, startUnixToTcp } from './bed/port-bridge';
import { debFreshnessWarning } from './support/deb-freshness';
import { STOP_SIGNALS, stopRequested } from './bed/stop-request';
import { outerPidOf, processIdentity, type ProcessIdentity } from './support/outer-pid';
import { TEST_HOST_DOCS } from './support/test-host-docs';
import { findTestHost, hostShellLines } from './support/test-host-shell';
import { signalIfSame } from './support/verified-kill';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = join(REPO, 'out', 'packages');
/** The default port, the same inside the sandbox and outside (the app checks the Host header's port). */
const DEFAULT_PORT = 18480;

/** What the inner side writes to DIR/ready.json. */
interface Ready {
  url: string;
  /**
   * PIDs in the sandbox's own PID namespace (e2e/bed/sandbox.sh), NOT PIDs out here (there the
   * same numbers name unrelated processes): the inner node process, and the test host's systemd
   * (PID 1 of a namespace further in). The outer side translates them (support/outer-pid.ts).
   */
  pid: number;
  hostPid1: number;
  deb: string;
}

/** Numeric order of the version in the name (0.10.0 after 0.9.0), as dpkg orders plain dotted versions. */
const VERSION_ORDER = new Intl.Collator('en', { numeric: true });

/** Newest `k2s-dns_<version>_amd64.deb` in out/packages, or null. */
export function findDeb(dir = PACKAGES): string | null {
  const debs = (() => {
    try {
      return readdirSync(dir).filter((f) => /^k2s-dns_.+_amd64\.deb$/.test(f)).sort(VERSION_ORDER.compare);
    } catch {
      return [];
    }
  })();
  const newest = debs.at(-1);
  return newest ? join(dir, newest) : null;
}

/** Resolves with the exit code once `child` exits, or null after `ms`. */
function exited(child: ChildProcess, ms: number): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  if (child.signalCode !== null) return Promise.resolve(128);
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

/** How long the inside gets to stop the app, the test host and the test bed before sandbox.sh ends what is left. */
const INNER_STOP_MS = 60_000;

/** Outer side (this machine's network namespace): starts the sandbox, bridges the port, waits for Ctrl-C. */
async function outer(port: number): Promise<number> {
  if (process.getuid?.() !== 0) {
    process.stderr.write('npm run try-package needs root (namespaces and a booted test host): run it in a root shell, or prefix it with sudo\n');
    return 77;
  }
  const deb = findDeb();
  if (!deb) {
    process.stderr.write('No out/packages/k2s-dns_*_amd64.deb: run npm run package first.\n');
    return 1;
  }
  // Older than the build output or the last commit: said, never rebuilt here (support/deb-freshness.ts).
  const stale = debFreshnessWarning(REPO, deb);
  if (stale) process.stderr.write(`${stale}\n`);
  const dir = await mkdtemp(join(tmpdir(), 'k2sdns-try-'));
  // Own process group: a terminal's Ctrl-C reaches only this process (and npm, which forwards it
  // here), which then stops the inside in order; sandbox.sh getting it at the same time would kill
  // the test host mid-teardown. Its stdin is the stop pipe (bed/stop-request.ts): only this
  // process holds the write end, so the inside stops also when this process is killed outright.
  const child = spawn('bash', [join(REPO, 'e2e/bed/sandbox.sh'), process.execPath, '--import', 'tsx', fileURLToPath(import.meta.url), '--inner', dir, '--port', String(port)], {
    cwd: REPO,
    stdio: ['pipe', 'inherit', 'inherit'],
    detached: true,
  });
  child.stdin!.on('error', () => {}); // EPIPE once the inside has gone; it is stopping then anyway
  let bridge: Awaited<ReturnType<typeof startTcpToUnix>> | null = null;
  /** The inner node process out here, checked again right before it is signalled. */
  let inside: { pid: number; identity: ProcessIdentity } | null = null;
  const stop = async (): Promise<number> => {
    await bridge?.close();
    // Both say "stop" to the inside (bed/stop-request.ts): end of file on its stdin, and SIGTERM
    // to its PID out here, only if that PID is still the process found at start.
    child.stdin!.end();
    if (inside) await signalIfSame(inside.pid, inside.identity, 'SIGTERM');
    let code = await exited(child, INNER_STOP_MS);
    // sandbox.sh is this process's own child (not reaped yet, so its PID is still ours): its
    // trap ends every process left in the sandbox and deletes the namespace.
    if (code === null && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      code = await exited(child, 15_000);
    }
    await rm(dir, { recursive: true, force: true });
    return code ?? 1;
  };
  const signalled = new Promise<void>((resolve) => {
    for (const sig of STOP_SIGNALS) process.on(sig, () => resolve());
  });
  const ready = await Promise.race([waitReady(dir, child), signalled.then(() => null)]);
  if (!ready) {
    if (child.exitCode === null && child.signalCode === null) process.stdout.write('Stopping: the test host, the test bed, the sandbox…\n');
    const code = await stop();
    return code === 130 || code === 143 ? 0 : code;
  }
  const insidePid = await outerPidOf(child.pid!, ready.pid);
  const insideId = insidePid === null ? null : await processIdentity(insidePid);
  const host = await findTestHost(child.pid!, ready.hostPid1);
  if (insidePid === null || insideId === null || host === null) {
    const what = host === null ? `test host's systemd (PID ${ready.hostPid1} inside it)` : `node process (PID ${ready.pid} inside it)`;
    process.stderr.write(`try-package: the sandbox's ${what} is not among its processes any more; stopping.\n`);
    await stop();
    return 1;
  }
  inside = { pid: insidePid, identity: insideId };
  try {
    bridge = await startTcpToUnix({ port, socketPath: join(dir, 'bridge.sock') });
  } catch (err) {
    process.stderr.write(`Port ${port} on 127.0.0.1 is taken here (${(err as Error).message}); rerun with: npm run try-package -- --port N\n`);
    await stop();
    return 1;
  }
  const url = ready.url;
  process.stdout.write(
    `\nThe installed ${ready.deb.split('/').pop()} as the desktop user ada: ${url}\n` +
      '(a booted Debian 13 test host in a throw-away network + mount namespace; your real /etc/resolv.conf is not touched. Ctrl-C stops everything.)\n' +
      `\nShells in the test host (its systemd is PID ${host.pid} out here; each line first checks that PID is still the test host's systemd: its mount namespace and start time):\n${hostShellLines(host, 'ada').join('\n')}\n${TEST_HOST_DOCS}\n`,
  );
  await Promise.race([signalled, exited(child, 2 ** 31 - 1)]);
  process.stdout.write('Stopping: the app, the test host, the test bed, the sandbox…\n');
  const started = Date.now();
  const code = await stop();
  process.stdout.write(`Stopped in ${((Date.now() - started) / 1000).toFixed(1)} s; the sandbox namespace is gone.\n`);
  return code === 130 || code === 143 ? 0 : code;
}

/** Inner side (inside the sandbox): test bed, booted host, apt-get install, user, polkit rule, app. */
async function inner(dir: string, port: number): Promise<number> {
  // From the start: a stop while the host boots or apt-get runs ends those at once.
  const stopped = stopRequested();
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
  const held: { fwd?: Awaited<ReturnType<typeof startUnixToTcp>> } = {};
  const setup = (async () => {
    await h.boot();
    await h.waitRunning();
    // systemd's own lines (units started and stopped, reloads) go to the journal, as on a real
    // Debian host, so `journalctl _PID=1` and `systemctl status` show them; the test host boots
    // with them on its console (debian-host.sh), which nobody reads here.
    await h.run(['systemd-analyze', 'set-log-target', 'journal']);
    say(`apt-get install ${deb.split('/').pop()}…`);
    const inst = await h.run(['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', '-y', '-o', 'Acquire::Retries=0', 'install', '--no-install-recommends', `${HOST_SRC}/${deb.slice(REPO_ROOT.length).replace(/^\/+/, '')}`], { timeoutMs: 180_000 });
    if (inst.code !== 0) throw new Error(`apt-get install failed:\n${inst.stdout}${inst.stderr}`);
    await addUser(h, { name: 'ada', uid: 1000, home: '/home/ada' }, await readFile(tb.kubeconfigPath, 'utf8'));
    const app = await startAppAs(h, { name: 'ada', uid: 1000, home: '/home/ada' }, port);
    held.fwd = await startUnixToTcp({ socketPath: join(dir, 'bridge.sock'), port: port });
    const ready: Ready = { url: app.url, pid: process.pid, hostPid1: h.pid1()!, deb };
    await writeFile(join(dir, 'ready.json'), JSON.stringify(ready), { mode: 0o600 });
  })();
  const outcome = await Promise.race([setup.then(() => 'ready' as const, (err: Error) => err), stopped.then(() => 'stop' as const)]);
  if (outcome === 'ready') await stopped;
  if (outcome instanceof Error) process.stderr.write(`try-package: ${outcome.message}\n`);
  // The app runs in the host: destroy() SIGKILLs the host's systemd, and the kernel ends every
  // process of its PID namespace with it (pid_namespaces(7)); a setup step still running fails then.
  await held.fwd?.close().catch(() => undefined);
  await h.destroy().catch(() => undefined);
  await tb.stop().catch(() => undefined);
  // DIR too (ready.json, the socket): the outer side may be gone already.
  await rm(dir, { recursive: true, force: true });
  return outcome instanceof Error ? 1 : 0;
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
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (innerDir) {
    // exit() rather than exitCode: after a stop mid-setup, that setup's pending steps (retry
    // timers, a run in the host that was killed) would keep this process alive.
    process.exit(await inner(innerDir, port));
  }
  process.exitCode = await outer(port);
}
