/**
 * `sudo npm run sandbox`: the app on the REAL backend against the e2e test bed, inside a
 * throw-away network + mount namespace (e2e/bed/sandbox.sh), reachable from a browser OUTSIDE
 * the sandbox through the port bridge (e2e/bed/port-bridge.ts):
 *
 *   outer (this process, host netns): 127.0.0.1:P → DIR/bridge.sock
 *   inner (`--inner DIR`, in the sandbox): test bed, web server on 127.0.0.1:P, DIR/bridge.sock → P
 *
 * DIR is a fresh temp dir under os.tmpdir() (/tmp is not replaced by the sandbox's mounts).
 * Stopping: the outer side holds the write end of the inner side's stdin (a pipe through
 * sandbox.sh and inner.sh). End of file there means "stop": the outer closes it on Ctrl-C,
 * SIGTERM or SIGHUP, and the kernel closes it when the outer dies in any other way (SIGKILL
 * too: pipe(7), a read returns 0 once every write end is closed). The inner side then stops
 * K2s DNS and the test bed and deletes DIR; inner.sh exits, which ends every process left in
 * the sandbox's PID namespace (pid_namespaces(7)), and sandbox.sh deletes the network
 * namespace. Usage: `npm run sandbox [-- --port N]`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTcpToUnix, startUnixToTcp } from './bed/port-bridge';
import { outerPidOf } from './support/outer-pid';
import { STOP_SIGNALS, stopRequested } from './bed/stop-request';
import { afterCloseCallbacks, openAfterStop } from './support/open-after-stop';
import { stillStoppingLine, stopSignals } from './support/stop-notice';
import { sandboxStopLine } from './support/sandbox-stop-line';
import { sandboxCliLines } from './support/sandbox-cli-lines';
import { engineSentence, type SandboxEngines } from './sandbox-dnsproxy';
import { sandboxControlLines } from './sandbox-control';
import { CLI_WRAPPER_ENV, SANDBOX_KUBECONFIG_ENV, SANDBOX_NAMESERVER_ENV, useCliInvocation } from '../electron/core/cli-invocation';
import { setSandboxKubeconfig } from '../shared/fix';
import { cliWrapperPath, sandboxHome, writeCliWrapper } from './sandbox-cli-wrapper';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const RENDERER = join(REPO, 'out', 'renderer');
/** DIR/STOP_STEP: what the inner side's stop waits for now, for the outer's "still stopping" line. */
const STOP_STEP = 'stop-step';

/** What the inner side writes to DIR/ready.json once its server and forwarder are up. */
interface Ready {
  port: number;
  url: string;
  /** PID of the inner node process in the sandbox's own PID namespace (e2e/bed/sandbox.sh): not a PID out here. */
  pid: number;
  /** The test bed's kubeconfig (under os.tmpdir(), visible inside and outside the sandbox). */
  kubeconfig: string;
  /** The engines offered inside (AdGuard when .tools/bin/dnsproxy was built: sandbox-dnsproxy.ts). */
  engines: SandboxEngines;
  /** The nameserver of the sandbox's network (the test bed's upstream), for $K2S_DNS_SANDBOX_NAMESERVER. */
  nameserver: string;
}

/**
 * What the root shell's PIDs are (walk 12 M4): the proxy's is the one `k2s-dns status` names; the
 * test bed's own servers run there too — its upstream is a dnsmasq as well, which `pgrep dnsmasq`
 * finds first — and `sandbox:ctl -- upstream up` brings that one back if it was killed.
 */
function rootShellPidLines(nameserver: string): string[] {
  return [
    "  The proxy's PID: take it from k2s-dns status above (engine: … (PID N)), not by name. The test bed's",
    `  own servers run in this shell too: its upstream, also a dnsmasq (on ${nameserver}) and the first one a`,
    '  search by name finds, and kube-dns; npm run sandbox:ctl -- upstream up brings a killed upstream back.',
  ];
}

/** Resolves when `ms` milliseconds have passed. */
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for DIR/ready.json or for the sandbox to exit first (then resolves null). */
async function waitReady(dir: string, child: ChildProcess): Promise<Ready | null> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) return null;
    const text = await readFile(join(dir, 'ready.json'), 'utf8').catch(() => null);
    if (text) return JSON.parse(text) as Ready;
    await delay(100); // polling a file the other namespace writes; inotify would work too
  }
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

/** Outer side: builds the UI if needed, starts the sandbox, bridges the port, waits for Ctrl-C. */
async function outer(port: number): Promise<number> {
  if (process.getuid?.() !== 0) {
    process.stderr.write('npm run sandbox needs root (it creates a network and a mount namespace); run it as: sudo npm run sandbox\n');
    return 77;
  }
  // What Start, Stop and the window run: the renderer and the bundles the privileged helper and
  // the CLI load (dist/, npm run build builds both). A checkout without them got a window whose
  // Start failed with "the helper is not built".
  const missing = [join(RENDERER, 'index.html'), join(REPO, 'dist', 'k2s-dns-helper.mjs'), join(REPO, 'dist', 'k2s-dns.mjs')].filter((f) => !existsSync(f));
  if (missing.length > 0) {
    process.stdout.write(`Building the app (npm run build, about 20 s: ${missing.map((f) => relative(REPO, f)).join(', ')} missing)…\n`);
    const build = spawn(process.execPath, [join(REPO, 'scripts/build.mjs')], { cwd: REPO, stdio: 'inherit' });
    if ((await exited(build, 300_000)) !== 0) {
      process.stderr.write('Building the app failed; run `npm run build` to see why.\n');
      return 1;
    }
  }
  const dir = await mkdtemp(join(tmpdir(), 'k2sdns-app-'));
  // The inside's start (namespaces, the test bed's CoreDNS, fake API server and upstream, the
  // web server) takes a few seconds with nothing else printed: said first (new-user report: 6 s of silence).
  process.stdout.write('sandbox: starting the sandbox (namespaces, the test bed: CoreDNS, a recorded Kubernetes API, an upstream nameserver) and the app…\n');
  // Own process group: Ctrl-C reaches only this process, which then stops the inside in order.
  // Its stdin is the stop pipe (see the top of this file): only this process holds the write end.
  const child = spawn('bash', [join(REPO, 'e2e/bed/sandbox.sh'), process.execPath, '--import', 'tsx', fileURLToPath(import.meta.url), '--inner', dir, '--port', String(port)], {
    cwd: REPO,
    stdio: ['pipe', 'inherit', 'inherit'],
    detached: true,
  });
  child.stdin!.on('error', () => {}); // EPIPE once the inside has gone; it is stopping then anyway
  let stopping = false;
  let stopStart = 0;
  /** What stop() waits for now; for 'inside', describeWait reads what the inner side wrote to DIR/STOP_STEP. */
  let waitsFor: 'bridge' | 'inside' | 'sigterm' | 'rm' = 'bridge';
  const describeWait = async (): Promise<string> => {
    if (waitsFor === 'bridge') return 'the port bridge out here to close';
    if (waitsFor === 'rm') return `${dir} to be deleted`;
    if (waitsFor === 'sigterm') return 'sandbox.sh (sent SIGTERM after 30 s) to end what is left in the sandbox';
    const step = await readFile(join(dir, STOP_STEP), 'utf8').catch(() => null);
    if (step) return `the inside: ${step}`;
    return existsSync(dir) ? 'the inside to begin its stop' : "the sandbox's last processes (the inside's node among them) to end and sandbox.sh to delete its network namespace";
  };
  let bridge: Awaited<ReturnType<typeof startTcpToUnix>> | null = null;
  let ready: Ready | null = null;
  const stop = async (): Promise<number> => {
    stopping = true;
    stopStart = Date.now();
    await bridge?.close();
    waitsFor = 'inside';
    // End of file on its stdin: the inner side stops K2s DNS (restoring the sandbox's
    // resolver) and the test bed, even when it is still starting them…
    child.stdin!.end();
    let code = await exited(child, 30_000);
    // …and sandbox.sh kills whatever is left in the namespace and deletes it.
    if (code === null) {
      waitsFor = 'sigterm';
      process.kill(child.pid!, 'SIGTERM');
      code = await exited(child, 15_000);
    }
    waitsFor = 'rm';
    await rm(dir, { recursive: true, force: true });
    return code ?? 1;
  };
  // `on`, not `once`: a terminal's Ctrl-C signals the whole group and npm then forwards the same
  // SIGINT to this process (@npmcli/run-script signal-manager.js); a second signal with no
  // listener left would kill this process before the inside stopped (walk 7 M3).
  // A further Ctrl-C during the stop says what the stop still waits for (npm's copy of the
  // first one says nothing: e2e/support/stop-notice.ts).
  const signalKind = stopSignals();
  const signalled = new Promise<void>((resolve) => {
    for (const sig of STOP_SIGNALS)
      process.on(sig, () => {
        resolve();
        if (signalKind() === 'again' && stopping) void describeWait().then((w) => process.stdout.write(stillStoppingLine(Date.now() - stopStart, w)));
      });
  });

  ready = await Promise.race([waitReady(dir, child), signalled.then(() => null)]);
  if (!ready) {
    const code = await stop();
    if (code === 77) process.stderr.write('The sandbox needs root: run sudo npm run sandbox.\n');
    return code === 0 || code === 130 || code === 143 ? 0 : code;
  }
  const hostPid = await outerPidOf(child.pid!, ready.pid);
  if (hostPid === null) {
    process.stderr.write(`The sandbox's app (PID ${ready.pid} inside it) is not among the sandbox's processes any more; stopping.\n`);
    await stop();
    return 1;
  }
  try {
    bridge = await startTcpToUnix({ port: ready.port, socketPath: join(dir, 'bridge.sock') });
  } catch (err) {
    process.stderr.write(`Port ${ready.port} on 127.0.0.1 is taken on this host (${(err as Error).message}); rerun with another one: sudo npm run sandbox -- --port N\n`);
    await stop();
    return 1;
  }
  process.stdout.write(
    `\nK2s DNS on the e2e test bed: ${ready.url}\n` +
      '(the app and its test bed run in a throw-away network + mount namespace; your real /etc/resolv.conf is not touched.\n' +
      ` ${engineSentence(ready.engines)} Ctrl-C stops everything.)\n` +
      '\nThe CLI inside the sandbox (as root, from any shell, the sandbox\'s root shell below too):\n' +
      `${sandboxCliLines(await writeCliWrapper(dir, hostPid, ready.kubeconfig, [process.execPath, join(REPO, 'bin', 'k2s-dns.mjs')], ready.nameserver), ready.kubeconfig).join('\n')}\n` +
      '\nA root shell inside the sandbox (its own /etc/resolv.conf, its PIDs, dig and getent: the window\'s "Copy" commands work here):\n' +
      `  nsenter -t ${hostPid} -n -m -p -- env HOME=${sandboxHome(dir)} bash\n` +
      `${rootShellPidLines(ready.nameserver).join('\n')}\n` +
      '\nFake an outage or a network change and undo it (as root, in this checkout, from another shell):\n' +
      `${sandboxControlLines(dir).join('\n')}\n`,
  );
  await Promise.race([signalled, exited(child, 2 ** 31 - 1)]);
  if (!stopping) process.stdout.write('Stopping: K2s DNS, the test bed, the sandbox…\n');
  const code = await stop();
  process.stdout.write(`Stopped in ${((Date.now() - stopStart) / 1000).toFixed(1)} s; the sandbox namespace is gone.\n`);
  return code === 130 || code === 143 ? 0 : code;
}

/** Inner side (inside the sandbox): test bed, real backend, web server, Unix-socket forwarder. */
async function inner(dir: string, port: number): Promise<number> {
  // Fix texts the window and the helper print name the sandbox's own k2s-dns (writeCliWrapper),
  // and, where a resolver file is asked for, its network's nameserver (SANDBOX_NAMESERVER_ENV).
  const stopped = stopRequested();
  const { startTestbed, TESTBED_ADDRESSES } = await import('./bed/testbed');
  process.env[CLI_WRAPPER_ENV] = cliWrapperPath(dir);
  process.env[SANDBOX_NAMESERVER_ENV] = TESTBED_ADDRESSES.upstream;
  useCliInvocation();
  const { createNodeDeps } = await import('../electron/core/lifecycle/node-deps');
  const { createRealBackend } = await import('../electron/core/backend-real');
  const { startWebServer } = await import('../electron/web/server');
  // Printed kubectl lines (the CoreDNS-down fix's `kubectl --kubeconfig … logs`) reach its API as pasted.
  const tb = await startTestbed({ anonymousApiReads: true });
  // Only this kubeconfig's API is the sandbox's test API in the texts (shared/fix.ts clusterStartWays).
  process.env[SANDBOX_KUBECONFIG_ENV] = tb.kubeconfigPath;
  setSandboxKubeconfig(tb.kubeconfigPath);
  // AdGuard at /opt/k2s/bin/dnsproxy inside the sandbox's private /opt, where K2s installs it.
  const { installSandboxDnsproxy } = await import('./sandbox-dnsproxy');
  const engines = await installSandboxDnsproxy();
  if (engines.note.startsWith('skipped:')) process.stdout.write(`sandbox: ${engines.note}\n`);
  const backend = createRealBackend({ deps: await createNodeDeps(), warmUp: true, kubeconfig: tb.kubeconfigPath, verifyName: 'www.example.test' });
  const server = await startWebServer({ backend, staticDir: RENDERER, port });
  const serverPort = Number(new URL(server.url).port);
  const fwd = await startUnixToTcp({ socketPath: join(dir, 'bridge.sock'), port: serverPort });
  // `npm run sandbox:ctl -- coredns down` etc. (e2e/sandbox-ctl.ts) reach the test bed here.
  const { startControlServer } = await import('./sandbox-control');
  // `sandbox:ctl -- network change|back`: NetworkManager-style writes of the sandbox's resolv.conf.
  const { createSandboxNetwork } = await import('./sandbox-network');
  const { BED_RESOLV_OPTIONS } = await import('./bed/resolv-layout');
  const network = createSandboxNetwork({ nameserver: TESTBED_ADDRESSES.upstream, search: 'example.test', options: BED_RESOLV_OPTIONS });
  const control = await startControlServer(tb, join(dir, 'control.sock'), network);
  // Root's only: DIR becomes searchable for the CLI wrapper (sandbox-cli-wrapper.ts writeCliWrapper).
  await Promise.all(['bridge.sock', 'control.sock'].map((s) => chmod(join(dir, s), 0o600)));
  const ready: Ready = { port: serverPort, url: server.url, pid: process.pid, kubeconfig: tb.kubeconfigPath, engines, nameserver: TESTBED_ADDRESSES.upstream };
  await writeFile(join(dir, 'ready.json'), JSON.stringify(ready), { mode: 0o600 });
  await stopped;
  // What the outer side's "still stopping" line names (a missing DIR: the outer may be gone).
  const step = (what: string) => writeFile(join(dir, STOP_STEP), what, { mode: 0o600 }).catch(() => {});
  await step('closing the web server, the bridge and the control socket');
  await control.close();
  await fwd.close();
  await server.close();
  // Restore the sandbox's resolver if someone left K2s DNS running, then undo the test bed.
  await step("stopping K2s DNS (putting the sandbox's resolver back)");
  const r = await backend.dnsStop({ onDrift: 'restore' }).catch((err: Error) => ({ message: err.message }));
  process.stdout.write(sandboxStopLine(r.message));
  await step('stopping the test bed (CoreDNS, its dnsmasq servers, the Kubernetes API)');
  await network.close();
  await tb.stop();
  // DIR too (ready.json, the CLI wrapper, the sockets): the outer side may be gone already.
  await rm(dir, { recursive: true, force: true });
  process.stdin.destroy(); // the stop pipe would keep this process running
  // Anything still open would keep this process, and so the sandbox, running: name it.
  await afterCloseCallbacks();
  const left = openAfterStop();
  process.stdout.write(left.length === 0 ? 'sandbox: the inside has stopped; nothing is left open.\n' : `sandbox: the inside has stopped, but its process still waits for: ${left.join(', ')}\n`);
  return 0;
}

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const portArg = Number(opt('--port') ?? 0);
if (!Number.isInteger(portArg) || portArg < 0 || portArg > 65535) {
  process.stderr.write('--port must be a TCP port number (1–65535), or 0 for a free one.\n');
  process.exit(64);
}
const innerDir = opt('--inner');
process.exitCode = innerDir ? await inner(innerDir, portArg) : await outer(portArg);
