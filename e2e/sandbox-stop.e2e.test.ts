/**
 * `npm run sandbox` ends whole (walk 7 M3): a Ctrl-C as a terminal sends it (SIGINT to the whole
 * process group: npm, the outer node, and npm forwards another SIGINT to it) and a SIGKILL of
 * the outer process both leave no process of the sandbox running, no network namespace and
 * nothing in its temp dir. Before, npm's forwarded second SIGINT killed the outer node in the
 * middle of its stop, and the inside (sandbox.sh in its own session, inner.sh, the inner node,
 * dnsmasq, CoreDNS) kept running with /tmp/k2sdns-app-*\/ready.json left behind.
 *
 * Runs the real `npm run sandbox` nested in this e2e sandbox, with TMPDIR set to a fresh
 * directory so every temp dir it makes (e2e/sandbox-app.ts, inner.sh, the test bed) is there.
 * Kills only the processes it started (the tree under the npm it spawned, by PID).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { findDeb } from './try-package';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
const built = existsSync(join(REPO, 'out', 'renderer', 'index.html')) && existsSync(join(REPO, 'dist', 'k2s-dns-helper.mjs'));
if (!inSandbox) console.warn('skipped: sandbox-stop e2e runs only inside e2e/bed/sandbox.sh (as root)');
else if (!built) console.warn('skipped: sandbox-stop e2e needs `npm run build` first');
const packaged = findDeb() !== null;
if (inSandbox && !packaged) console.warn('skipped: the try-package half of sandbox-stop e2e needs `npm run package` first');

/** Resolves after `ms` milliseconds (a poll interval, never a synchronisation). */
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** PID → the command line of each live (non-zombie) process in the tree under `root`, by proc(5). */
async function tree(root: number): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (out.has(pid) || !(await alive(pid))) continue;
    out.set(pid, (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0').join(' ').trim());
    for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
      const kids = await readFile(`/proc/${pid}/task/${tid}/children`, 'utf8').catch(() => '');
      for (const k of kids.trim().split(/\s+/)) if (k !== '') queue.push(Number(k));
    }
  }
  return out;
}

/** Whether `pid` runs (exists and is not a zombie: state Z in /proc/PID/stat, proc(5)). */
async function alive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat !== null && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

/** The network namespaces named by `ip netns list`. */
async function netnsNames(): Promise<string[]> {
  const { stdout } = await promisify(execFile)('ip', ['netns', 'list']);
  return stdout.split('\n').map((l) => l.split(' ')[0]!).filter((n) => n !== '');
}

/** What is left in the sandbox's TMPDIR, but tsx's compile cache (tsx-UID, which tsx keeps on purpose). */
async function leftInTmp(sb: Sandbox): Promise<string[]> {
  return (await readdir(sb.tmp)).filter((name) => !/^tsx-\d+$/.test(name));
}

interface Sandbox {
  npm: ChildProcess;
  tmp: string;
  /** Every process of the sandbox once it is ready: PID → command line. */
  pids: Map<number, string>;
  /** The network namespace it made. */
  netns: string;
  output: () => string;
}

let started: Sandbox | null = null;

/** `npm run SCRIPT -- ARGS` (default: the sandbox on any port) in its own process group, as from a terminal; resolves once ready. */
async function startSandbox(script = 'sandbox', args = ['--port', '0'], readyMs = 120_000): Promise<Sandbox> {
  const tmp = await mkdtemp(join(tmpdir(), 'k2s-sandbox-stop-'));
  const before = new Set(await netnsNames());
  const npm = spawn('npm', ['run', script, '--', ...args], { cwd: REPO, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: tmp } });
  let out = '';
  npm.stdout!.on('data', (b) => (out += b));
  npm.stderr!.on('data', (b) => (out += b));
  const sb: Sandbox = { npm, tmp, pids: new Map(), netns: '', output: () => out };
  started = sb;
  const deadline = Date.now() + readyMs;
  while (!out.includes('nsenter -t ')) {
    if (npm.exitCode !== null || Date.now() > deadline) throw new Error(`npm run ${script} did not get ready:\n${out}`);
    await delay(200);
  }
  sb.pids = await tree(npm.pid!);
  sb.netns = (await netnsNames()).find((n) => !before.has(n)) ?? '';
  return sb;
}

/** Waits up to `ms` for every PID of `sb` to end → the command lines of those still running. */
async function waitGone(sb: Sandbox, ms: number): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left: string[] = [];
    for (const [pid, cmd] of sb.pids) if (await alive(pid)) left.push(`${pid} ${cmd}`);
    if (left.length === 0 || Date.now() > deadline) return left;
    await delay(200);
  }
}

afterEach(async () => {
  const sb = started;
  started = null;
  if (!sb) return;
  // Whatever a failed run left: sandbox.sh's own cleanup first (it kills the namespace's
  // processes and deletes it), then the rest of what this test started, by PID.
  for (const [pid, cmd] of sb.pids) if (cmd.includes('sandbox.sh') && (await alive(pid))) process.kill(pid, 'SIGTERM');
  await waitGone(sb, 30_000);
  for (const [pid] of sb.pids) if (await alive(pid)) process.kill(pid, 'SIGKILL');
  await rm(sb.tmp, { recursive: true, force: true });
}, 60_000);

describe.skipIf(!inSandbox || !built)('npm run sandbox ends whole', () => {
  it('Ctrl-C (SIGINT to the process group): every process of the sandbox ends, its netns and temp dirs are gone', async () => {
    const sb = await startSandbox();
    const cmds = [...sb.pids.values()].join('\n');
    expect(cmds).toContain('sandbox.sh');
    expect(cmds).toContain('--inner');
    expect(sb.netns).toMatch(/^k2sdns-/);
    // Its first line says what the seconds before the URL are for (new-user report: 6 s of silence).
    expect(sb.output().split('\n').find((l) => l.startsWith('sandbox: '))).toBe('sandbox: starting the sandbox (namespaces, the test bed: CoreDNS, a recorded Kubernetes API, an upstream nameserver) and the app…');
    // Its printout: where the proxy's PID comes from in the root shell, and the upstream's control (walk 12 M4).
    expect(sb.output()).toContain("The proxy's PID: take it from k2s-dns status above (engine: … (PID N)), not by name.");
    expect(sb.output()).toContain('its upstream, also a dnsmasq (on 192.0.2.53)');
    // Each control line names this sandbox's DIR (pasted while another runs, it still acts here).
    expect(sb.output()).toMatch(/npm run sandbox:ctl -- --dir \/\S+\/k2sdns-app-\S+ upstream up +# starts it again/);
    process.kill(-sb.npm.pid!, 'SIGINT');
    expect(await waitGone(sb, 60_000), sb.output()).toEqual([]);
    expect(await netnsNames()).not.toContain(sb.netns);
    expect(await leftInTmp(sb)).toEqual([]);
    expect(sb.output()).toMatch(/Stopped in [\d.]+ s; the sandbox namespace is gone\./);
    // The inner node ended as soon as its stop returned: no server, socket, child or ref'd
    // timer was left holding it (e2e/support/open-after-stop.ts). Before, the test bed's CoreDNS
    // stop left its 10 s deadline timer running, and the stop took 10 s more.
    expect(sb.output()).toContain('sandbox: the inside has stopped; nothing is left open.');
    expect(sb.output()).not.toContain('still waits for');
  }, 240_000);

  it('SIGKILL of the outer process: the inside notices, stops, and leaves nothing behind', async () => {
    const sb = await startSandbox();
    const outer = [...sb.pids].find(([, cmd]) => cmd.includes('sandbox-app.ts') && !cmd.includes('--inner') && !cmd.includes('sandbox.sh'));
    expect(outer, [...sb.pids.values()].join('\n')).toBeDefined();
    process.kill(outer![0], 'SIGKILL');
    expect(await waitGone(sb, 60_000), sb.output()).toEqual([]);
    expect(await netnsNames()).not.toContain(sb.netns);
    expect(await leftInTmp(sb)).toEqual([]);
  }, 240_000);
});

/** The NSpid entries and argv[0] of `pid` (proc(5)). */
async function nspidAndArgv0(pid: number): Promise<{ nspid: number[]; argv0: string }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const argv0 = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0')[0]!;
  return { nspid: /^NSpid:\s+(.+)$/m.exec(status)![1]!.trim().split(/\s+/).map(Number), argv0 };
}

describe.skipIf(!inSandbox || !packaged)('npm run try-package ends whole, and its nsenter lines name the test host', () => {
  it("prints the test host systemd's PID out here (not its sandbox PID); Ctrl-C ends every process, the netns and the temp dirs", async () => {
    const sb = await startSandbox('try-package', [], 600_000);
    // Before: `nsenter -t 82`, the systemd's PID inside the sandbox; out here 82 was another process.
    const pid = Number(/as root: .* nsenter -t (\d+) -m -u -p -n -C -r -w -- bash -l$/m.exec(sb.output())?.[1]);
    expect(sb.pids.has(pid), sb.output()).toBe(true);
    const { nspid, argv0 } = await nspidAndArgv0(pid);
    expect(argv0).toBe('/usr/lib/systemd/systemd');
    expect(nspid[0]).toBe(pid);
    expect(nspid.at(-1)).toBe(1);
    // The printed root line, run as printed with `bash -l` swapped for a probe: it lands in the test host.
    const line = /as root: (.*) bash -l$/m.exec(sb.output())![1]!;
    const { stdout } = await promisify(execFile)('sh', ['-c', `${line} readlink /proc/1/exe`]);
    expect(stdout).toBe('/usr/lib/systemd/systemd\n');
    expect(await readlink(`/proc/${pid}/ns/mnt`)).not.toBe(await readlink('/proc/self/ns/mnt'));
    process.kill(-sb.npm.pid!, 'SIGINT');
    expect(await waitGone(sb, 60_000), sb.output()).toEqual([]);
    expect(await netnsNames()).not.toContain(sb.netns);
    expect(await leftInTmp(sb)).toEqual([]);
    expect(sb.output()).toMatch(/Stopped in [\d.]+ s; the sandbox namespace is gone\./);
  }, 700_000);

  it('SIGKILL of the outer process: the inside notices, stops the test host, and leaves nothing behind', async () => {
    const sb = await startSandbox('try-package', [], 600_000);
    const outer = [...sb.pids].find(([, cmd]) => cmd.includes('try-package.ts') && !cmd.includes('--inner') && !cmd.includes('sandbox.sh'));
    expect(outer, [...sb.pids.values()].join('\n')).toBeDefined();
    process.kill(outer![0], 'SIGKILL');
    expect(await waitGone(sb, 60_000), sb.output()).toEqual([]);
    expect(await netnsNames()).not.toContain(sb.netns);
    expect(await leftInTmp(sb)).toEqual([]);
  }, 700_000);
});
