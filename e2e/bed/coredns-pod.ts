/**
 * Real CoreDNS as the cluster's kube-dns, run like a pod: in its own network namespace (see
 * pod-netns.ts; the fixture Corefile's `.:53` binds 0.0.0.0:53 there, never beside the K2s
 * proxy) and its own mount namespace with
 *   - /etc/resolv.conf of its own, read by `forward . /etc/resolv.conf`, and
 *   - /var/run/secrets/kubernetes.io/serviceaccount/{token,ca.crt}, which with
 *     KUBERNETES_SERVICE_HOST/PORT is client-go's in-cluster config (rest.InClusterConfig), so
 *     the `kubernetes` plugin needs no `endpoint` line and the Corefile stays byte-identical.
 * Processes in such namespaces are not seen by sandbox.sh's cleanup: stop() kills by PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How to start CoreDNS in a pod namespace. */
export interface CoreDnsPodOptions {
  /** Network namespace (`ip netns` name) to run in. */
  netns: string;
  /** The coredns binary (.tools/bin/coredns). */
  binary: string;
  /** Corefile text, written as is. */
  corefile: string;
  /** The pod's /etc/resolv.conf text. */
  resolvConf: string;
  /** In-cluster API: host, port, bearer token and the CA (PEM) that signed its certificate. */
  api?: { host: string; port: number; token: string; caCert: string };
  /**
   * What "started" means: `ready` polls the `ready` plugin at http://readyAddress:8181/ready
   * until 200 (the kubernetes plugin has synced); `none` returns once spawned (the loop test
   * waits for the exit instead). Default `ready`.
   */
  waitFor?: 'ready' | 'none';
  /** Address the ready plugin is reached on from the bed (the pod's address). */
  readyAddress?: string;
  /** Budget for `ready` in ms (default 30000: the plugin's startup_timeout is 5 s). */
  readyTimeoutMs?: number;
}

/** A running CoreDNS. */
export interface CoreDnsPod {
  pid: number;
  /** Its stdout+stderr (CoreDNS logs to stdout). */
  logFile: string;
  /** Resolves with the exit code (or 128+signal) once it exits. */
  exited: Promise<number>;
  /** The log so far. */
  log(): Promise<string>;
  /** SIGKILL by PID (a pod killed; `health`'s lameduck would add 5 s to SIGTERM), wait, remove the temp dir. Idempotent. */
  stop(): Promise<void>;
}

/** Shell run inside `ip netns exec` (own mount namespace, slave of the sandbox's): $1 work dir, $2 binary. */
const POD_SCRIPT = [
  'set -e',
  'mount -t tmpfs -o mode=0755 tmpfs /run',
  'mkdir -p /run/secrets/kubernetes.io/serviceaccount',
  'if [ -f "$1/token" ]; then cp "$1/token" "$1/ca.crt" /run/secrets/kubernetes.io/serviceaccount/; fi',
  // The pod's own /etc (resolv.conf, hosts); bound last, as nothing but the static Go binary runs after it.
  'mount --bind "$1/etc" /etc',
  'cd "$1"',
  'exec "$2" -conf "$1/Corefile"',
].join('\n');

/** GET http://host:port/path → status code, or 0 on any error within `timeoutMs`. */
function httpStatus(host: string, port: number, path: string, timeoutMs: number): Promise<number> {
  return new Promise((res) => {
    const req = http.get({ host, port, path, timeout: timeoutMs }, (r) => {
      r.resume();
      res(r.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => res(0));
  });
}

/** Starts CoreDNS (see the file comment); throws with its log if it exits or is not ready in time. */
export async function startCoreDnsPod(opts: CoreDnsPodOptions): Promise<CoreDnsPod> {
  const dir = await mkdtemp(join(tmpdir(), 'k2sdns-coredns-'));
  await mkdir(join(dir, 'etc'));
  await writeFile(join(dir, 'Corefile'), opts.corefile);
  await writeFile(join(dir, 'etc', 'resolv.conf'), opts.resolvConf);
  await writeFile(join(dir, 'etc', 'hosts'), '127.0.0.1 localhost\n');
  const env: NodeJS.ProcessEnv = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' };
  if (opts.api) {
    await writeFile(join(dir, 'token'), opts.api.token, { mode: 0o600 });
    await writeFile(join(dir, 'ca.crt'), opts.api.caCert);
    env.KUBERNETES_SERVICE_HOST = opts.api.host;
    env.KUBERNETES_SERVICE_PORT = String(opts.api.port);
  }
  const logFile = join(dir, 'coredns.log');
  const out = await open(logFile, 'a');
  let child: ChildProcess;
  try {
    // `ip netns exec` execs in place (iproute2 cmd_exec without batch mode), so child.pid ends
    // up being CoreDNS; setpriv --pdeathsig KILL (kept across exec) kills it should this test
    // process die without stop(): sandbox.sh's cleanup does not see other namespaces.
    child = spawn('ip', ['netns', 'exec', opts.netns, 'setpriv', '--pdeathsig', 'KILL', 'sh', '-c', POD_SCRIPT, 'coredns-pod', dir, opts.binary], {
      env,
      stdio: ['ignore', out.fd, out.fd],
    });
  } finally {
    await out.close();
  }
  const exited = new Promise<number>((res) => child.once('exit', (code, sig) => res(code ?? 128 + (sig ? 9 : 0))));
  let done = false;
  void exited.then(() => (done = true));
  const log = (): Promise<string> => readFile(logFile, 'utf8').catch(() => '');
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    if (!done && child.pid) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
      // The deadline's timer is cleared once CoreDNS has exited: left running, it kept the
      // process that stops the test bed (npm run sandbox's inner side) alive 10 s longer.
      let deadline: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((r) => (deadline = setTimeout(r, 10_000)))]);
      clearTimeout(deadline);
    }
    await rm(dir, { recursive: true, force: true });
  };
  if (!child.pid) {
    await stop();
    throw new Error('could not spawn `ip netns exec … coredns`');
  }
  if ((opts.waitFor ?? 'ready') === 'ready') {
    const host = opts.readyAddress ?? '127.0.0.1';
    const deadline = Date.now() + (opts.readyTimeoutMs ?? 30_000);
    for (;;) {
      if (done) {
        const text = await log();
        await stop();
        throw new Error(`CoreDNS exited before it was ready; its log:\n${text}`);
      }
      if ((await httpStatus(host, 8181, '/ready', 1000)) === 200) break;
      if (Date.now() > deadline) {
        const text = await log();
        await stop();
        throw new Error(`CoreDNS was not ready (ready plugin on ${host}:8181) within ${opts.readyTimeoutMs ?? 30_000} ms; its log:\n${text}`);
      }
      await new Promise((r) => setTimeout(r, 200)); // poll interval of a condition with a deadline
    }
  }
  return { pid: child.pid, logFile, exited, log, stop };
}
