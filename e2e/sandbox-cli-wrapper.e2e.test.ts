/**
 * The sandbox's `k2s-dns` wrapper (e2e/sandbox-cli-wrapper.ts) works from a shell outside the
 * sandbox and from the sandbox's own root shell (`nsenter -t PID -n -m -p -- bash`), where the
 * outside PID is not in its /proc (walk5 M1: "nsenter: cannot open /proc/5825/ns/net"). A
 * nested network + mount + PID namespace stands in for the sandbox (unshare(1) --mount-proc, as
 * e2e/bed/sandbox.sh makes it), and a probe stands in for the CLI: it prints the namespace it
 * runs in, the environment the wrapper sets and its arguments.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outerPidOf } from './support/outer-pid';
import { writeCliWrapper } from './sandbox-cli-wrapper';
import { setCliName, shellCommand } from '../shared/fix';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: sandbox-cli-wrapper e2e runs only inside e2e/bed/sandbox.sh (as root)');

/** Runs argv; resolves with its exit code and output. */
function run(argv: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (b) => (stdout += b));
    child.stderr!.on('data', (b) => (stderr += b));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A nested network + mount + PID namespace (the sandbox's stand-in): unshare's process, and the nested init's PID out here (PID 1 inside). */
async function nestedNamespace(): Promise<{ holder: ChildProcess; pid: number }> {
  const holder = spawn('unshare', ['--net', '--mount', '--pid', '--fork', '--mount-proc', '--kill-child', 'sleep', '600'], { stdio: 'ignore' });
  const deadline = Date.now() + 20_000;
  let found: number | null = null;
  while (found === null && Date.now() < deadline) found = await outerPidOf(holder.pid!, 1);
  if (found === null) throw new Error('the nested namespace did not start within 20 s');
  return { holder, pid: found };
}

describe.skipIf(!inSandbox)('the sandbox CLI wrapper, from any shell', () => {
  let dir: string;
  let holder: ChildProcess;
  let pid: number;
  let wrapper: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'k2s-wrapper-'));
    ({ holder, pid } = await nestedNamespace());
    const probe = join(dir, 'probe');
    await writeFile(probe, '#!/bin/sh\nprintf "%s\\n" "$(readlink /proc/self/ns/net)" "$K2S_DNS_CLI" "$KUBECONFIG" "$HOME" "$@"\n', { mode: 0o755 });
    wrapper = await writeCliWrapper(dir, pid, '/tmp/sandbox kubeconfig', ['/bin/sh', probe]);
  }, 60_000);
  afterAll(async () => {
    // The nested init: its PID namespace ends with it (pid_namespaces(7)), and unshare then exits.
    if (pid) process.kill(pid, 'SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('from a shell out here: runs the CLI in the sandbox\'s namespaces, with K2S_DNS_CLI and KUBECONFIG set and the arguments as given', async () => {
    const inner = await readlink(`/proc/${pid}/ns/net`);
    expect(inner).not.toBe(await readlink('/proc/self/ns/net'));
    const r = await run([wrapper, 'status', 'a b']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout.split('\n')).toEqual([inner, wrapper, '/tmp/sandbox kubeconfig', join(dir, 'home'), 'status', 'a b', '']);
  }, 60_000);

  it('run by a user who is not root (`runuser -u nobody -- DIR/k2s-dns status`): "run it as root", exit 77 as npm run sandbox — not the shell\'s "Permission denied" (126, a new user\'s finding)', async () => {
    const r = await run(['runuser', '-u', 'nobody', '--', wrapper, 'status']);
    expect(r).toEqual({ code: 77, stdout: '', stderr: `${wrapper} needs root: it runs k2s-dns inside the sandbox's namespaces (npm run sandbox runs as root too); run it as root: sudo ${wrapper} status\n` });
    // Without arguments: the same, with none named.
    expect((await run(['runuser', '-u', 'nobody', '--', wrapper])).stderr).toBe(`${wrapper} needs root: it runs k2s-dns inside the sandbox's namespaces (npm run sandbox runs as root too); run it as root: sudo ${wrapper}\n`);
  }, 60_000);

  it('from the sandbox\'s root shell (nsenter -t PID -n -m -p): the same, not "cannot open /proc/PID/ns/net"', async () => {
    const inner = await readlink(`/proc/${pid}/ns/net`);
    // That shell's own /proc has no such PID (the reason nsenter failed there).
    expect((await run(['nsenter', '-t', String(pid), '-n', '-m', '-p', '--', '/bin/sh', '-c', `test -e /proc/${pid}/ns/net || echo absent`])).stdout).toBe('absent\n');
    const r = await run(['nsenter', '-t', String(pid), '-n', '-m', '-p', '--', wrapper, 'status', 'a b']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout.split('\n')).toEqual([inner, wrapper, '/tmp/sandbox kubeconfig', join(dir, 'home'), 'status', 'a b', '']);
  }, 60_000);

  it('a fix\'s other command as the CLI prints it under the wrapper (shared/fix.ts shellCommand) runs in the sandbox\'s namespaces, from either shell (sixth walk M2: `chmod o-w /etc/resolv.conf` named the host\'s file)', async () => {
    const inner = await readlink(`/proc/${pid}/ns/net`);
    const mnt = await readlink(`/proc/${pid}/ns/mnt`);
    setCliName(wrapper, false, true);
    let line: string;
    try {
      // Quotes and a `;` inside: one shell word for the wrapper's sh -c.
      line = shellCommand(`readlink /proc/self/ns/net; readlink /proc/self/ns/mnt; echo "it's $KUBECONFIG"`, true);
    } finally {
      setCliName('npx k2s-dns');
    }
    expect(line.startsWith(`${wrapper} sh -c '`)).toBe(true);
    const want = [inner, mnt, "it's /tmp/sandbox kubeconfig", ''];
    // Pasted into a shell out here…
    const out = await run(['/bin/sh', '-c', line]);
    expect(out).toMatchObject({ code: 0, stderr: '' });
    expect(out.stdout.split('\n')).toEqual(want);
    // …and into the sandbox's root shell.
    const there = await run(['nsenter', '-t', String(pid), '-n', '-m', '-p', '--', '/bin/sh', '-c', line]);
    expect(there).toMatchObject({ code: 0, stderr: '' });
    expect(there.stdout.split('\n')).toEqual(want);
  }, 60_000);

  it("a program run through it (a fix's `kubectl … logs`, which writes ~/.kube/cache) has the sandbox's HOME, DIR/home (0700, gone with DIR), not the host's /root (a new user's finding: /root/.kube/cache appeared on the host)", async () => {
    const r = await run(['env', 'HOME=/root', wrapper, 'sh', '-c', 'mkdir -p "$HOME/.kube/cache" && echo "$HOME" && stat -c %a "$HOME"']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toBe(`${join(dir, 'home')}\n700\n`);
  }, 60_000);

  it("under sudo: the caller's ~/.kube/config (the host's cluster, before $KUBECONFIG in the lookup) is not looked at — SUDO_USER and PKEXEC_UID are unset — and the sandbox's kubeconfig is named for the texts (walk 18 H1)", async () => {
    const r = await run(['env', 'SUDO_USER=alice', 'PKEXEC_UID=1000', wrapper, 'sh', '-c', 'echo "${SUDO_USER-unset} ${PKEXEC_UID-unset} $KUBECONFIG|$K2S_DNS_SANDBOX_KUBECONFIG"']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toBe('unset unset /tmp/sandbox kubeconfig|/tmp/sandbox kubeconfig\n');
  }, 60_000);
});

/** Resolves once `child` has exited, with its code or signal; null after `ms`. */
function exitOf(child: ChildProcess, ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(null), ms);
    child.once('exit', (code, signal) => {
      clearTimeout(t);
      resolve({ code, signal });
    });
  });
}

describe.skipIf(!inSandbox)('the sandbox CLI wrapper passes a stop signal on to the command it runs', () => {
  let dir: string;
  let holder: ChildProcess;
  let pid: number;
  let wrapper: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'k2s-wrapper-sig-'));
    ({ holder, pid } = await nestedNamespace());
    wrapper = await writeCliWrapper(dir, pid, '/tmp/sandbox kubeconfig', ['/bin/sh']);
  }, 60_000);
  afterAll(async () => {
    if (pid) process.kill(pid, 'SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
    it(`${sig} to the wrapper's PID ends the command it runs and the wrapper exits with the command's status (a new user's finding: \`kill %1\` left \`k2s-dns ui\` running with PPID 1)`, async () => {
      // The command: prints its PID (in the nested namespace), then waits; on the signal it exits 7.
      const short = sig.slice(3);
      const w = spawn(wrapper, ['sh', '-c', `trap 'exit 7' ${short}; echo $$; while :; do sleep 1; done`], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      const printed = new Promise<string>((resolve) => w.stdout!.on('data', (b) => (out += b) && out.includes('\n') && resolve(out)));
      const innerPid = Number((await printed).trim());
      expect(innerPid).toBeGreaterThan(1);
      const hostPid = await outerPidOf(w.pid!, innerPid);
      expect(hostPid).not.toBeNull();
      expect(existsSync(`/proc/${hostPid}`)).toBe(true);
      process.kill(w.pid!, sig);
      expect(await exitOf(w, 30_000)).toEqual({ code: 7, signal: null });
      // The command (by its PID) is gone, not reparented and still running.
      expect(existsSync(`/proc/${hostPid}`)).toBe(false);
    }, 60_000);
});
