/**
 * A kubeconfig's exec credential plugin (users[].user.exec, client.authentication.k8s.io),
 * bounded. client-node 1.4 runs it (dist/exec_auth.js ExecAuth.getCredential: child_process.spawn,
 * its stdout kept whole, waited for until 'close') before each request's own timeout starts
 * (kube-api.ts applySecurityAuthentication), so a plugin that hangs held `k2s-dns start` in its
 * discover step for ever, and one printing without end grew this process's memory (sandbox,
 * brk30: 200 MB in 12 s, then reported as the API server answering "something that is not JSON").
 * Here its spawn is given a deadline and an output bound — past either it is killed (SIGKILL) and
 * its pipes closed, so a child it left holding them does not keep the wait — and a failure of the
 * plugin is reported as the plugin's, never the API server's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { KubeConfig, RequestContext } from './client-node-parts';
import type { RequestAuth } from './kube-api';
import { ClusterResponseError } from './errors';

/** Longest a plugin may run, ms (cloud token plugins print within a few seconds; one waiting for a login never ends). */
export const EXEC_PLUGIN_TIMEOUT_MS = 15_000;
/**
 * How long after the plugin exits its output pipes may stay open, ms: what it wrote before exit is
 * read by then; a child it left holding them (`helper &`) kept client-node waiting for 'close'.
 */
export const EXEC_PLUGIN_EXIT_DRAIN_MS = 500;
/** Bytes a plugin may print on stdout: an ExecCredential is a token or a certificate and key, a few KiB. */
export const EXEC_PLUGIN_MAX_BYTES = 1024 * 1024;

/** What client-node's ExecAuth keeps its spawn in (dist/exec_auth.js). */
interface ExecAuthLike {
  execFn: (command: string, args: readonly string[] | undefined, opts: object) => ChildProcess;
}

/**
 * `kc`'s credentials with its exec plugin bounded (`timeoutMs`, `maxBytes`): a RequestAuth whose
 * failures while a plugin ran are ClusterResponseError naming the plugin's command and why
 * (did not finish, printed too much, exit status, no ExecCredential JSON); other failures pass
 * through as client-node threw them. Mutates `kc`'s own ExecAuth (each KubeConfig has its own).
 */
export function boundedExecAuth(kc: KubeConfig, kubeconfigPath: string, timeoutMs = EXEC_PLUGIN_TIMEOUT_MS, maxBytes = EXEC_PLUGIN_MAX_BYTES): RequestAuth {
  /** The plugin's runs, oldest first: requests go out in parallel, each may run it (no token cached yet). */
  const runs: { command: string; why: string | null; code: number | null }[] = [];
  const execAuth = ((kc as unknown as { authenticators?: unknown[] }).authenticators ?? []).find((a): a is ExecAuthLike => typeof (a as Partial<ExecAuthLike>)?.execFn === 'function');
  if (execAuth) {
    execAuth.execFn = (command, args, opts) => {
      const run: { command: string; why: string | null; code: number | null } = { command, why: null, code: null };
      runs.push(run);
      const child = spawn(command, args ?? [], { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
      const end = (why: string) => {
        if (run.why !== null || child.exitCode !== null) return;
        run.why = why;
        child.kill('SIGKILL');
        // Its pipes closed too: 'close' waits for them, and a child of the plugin may hold them.
        child.stdout?.destroy();
        child.stderr?.destroy();
      };
      const timer = setTimeout(() => end(`did not finish within ${timeoutMs} ms`), timeoutMs);
      let bytes = 0;
      child.stdout?.on('data', (b: Buffer | string) => {
        bytes += Buffer.byteLength(b);
        if (bytes > maxBytes) end(`printed more than ${maxBytes} bytes`);
      });
      // Exited, yet a child it started (an agent, a browser for a login) may hold its output open for
      // ever and 'close' would wait for it: the pipes are closed shortly after, what it printed kept.
      let drain: NodeJS.Timeout | undefined;
      child.on('exit', (code) => {
        run.code = code;
        clearTimeout(timer);
        drain = setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
        }, EXEC_PLUGIN_EXIT_DRAIN_MS);
      });
      child.on('close', () => clearTimeout(drain));
      child.on('error', () => clearTimeout(timer));
      return child;
    };
  }
  return {
    async applySecurityAuthentication(context: RequestContext): Promise<void> {
      const before = runs.length;
      try {
        await kc.applySecurityAuthentication(context);
      } catch (err) {
        // The failed run of those since this call began (one killed here first), else none: not the plugin's failure.
        const mine = runs.slice(before);
        const r = mine.find((x) => x.why !== null) ?? mine.find((x) => x.code !== 0) ?? mine.at(-1);
        if (r === undefined) throw err;
        const why = r.why ?? (err instanceof SyntaxError ? 'printed no ExecCredential JSON' : (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : r.code !== null && r.code !== 0 ? `exited with status ${r.code}` : `failed (${(err as Error).name})`);
        throw new ClusterResponseError(`The kubeconfig ${kubeconfigPath}'s exec credential plugin ${r.command} ${why}, so no request could be sent to the Kubernetes API server; run it by hand, or pass a kubeconfig with a token or client certificate with --kubeconfig.`);
      }
    },
  };
}
