/**
 * A real Debian 13 host in the e2e bed: the root file system built by
 * scripts/build-debian-host.sh, booted by debian-host.sh with its own systemd as PID 1 in new
 * PID, mount, UTS and cgroup namespaces, over an overlay whose upper layer is the host's disk
 * (kept across reboot()/powerLoss() of one host, removed by destroy()). It shares the caller's
 * network namespace, so inside the sandbox the bed's links (KubeSwitch 172.19.1.1, kube-dns
 * 172.21.0.10, the upstream 192.0.2.53, the fake API) are the host's own network.
 *
 * Processes are ended only by the PID this module started (the launcher and the PID namespace's
 * init); when init dies the kernel kills everything else in its PID namespace (pid_namespaces(7)).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, rmdir, symlink, writeFile, lstat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINE_BIN } from './engines';

/** Repository root (e2e/bed/ → ../..). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The cached root file system and its stamp (scripts/build-debian-host.sh). */
export const DEBIAN_ROOTFS = join(REPO_ROOT, '.tools', 'debian13', 'rootfs');
const STAMP = join(REPO_ROOT, '.tools', 'debian13', '.complete');
const LAUNCHER = join(REPO_ROOT, 'e2e', 'bed', 'debian-host.sh');
/** Where the checkout is bound read-only inside the host: run the CLI as `node ${SRC}/bin/k2s-dns.mjs`. */
export const HOST_SRC = '/opt/k2s-dns-src';
/** The CLI inside the host, as argv prefix. */
export const HOST_CLI = ['node', `${HOST_SRC}/bin/k2s-dns.mjs`] as const;
/** K2s's dnsproxy inside the host (bound from .tools/bin/dnsproxy). */
export const HOST_DNSPROXY = '/opt/k2s/bin/dnsproxy';
/** The cgroup2 hierarchy of this machine (pure v2, or the hybrid layout's unified mount). */
const CGROUP2_CANDIDATES = ['/sys/fs/cgroup/unified', '/sys/fs/cgroup'];

/**
 * Units masked on every boot: they touch hardware, the clock, or the network outside, or wait
 * for a console. systemd-resolved and NetworkManager are masked unless `enable` names them.
 */
export const MASKED_UNITS = [
  'systemd-modules-load.service',
  'systemd-udevd.service',
  'systemd-udev-trigger.service',
  'systemd-udev-settle.service',
  'systemd-timesyncd.service',
  'systemd-networkd.service',
  'systemd-networkd-wait-online.service',
  'NetworkManager-wait-online.service',
  'systemd-firstboot.service',
  'console-getty.service',
  'getty@tty1.service',
  'apt-daily.timer',
  'apt-daily-upgrade.timer',
  'e2scrub_all.timer',
  'fstrim.timer',
  // Timed jobs would run at wall-clock times in the middle of a test (rotate the log, back up dpkg).
  'cron.service',
  'logrotate.timer',
  'dpkg-db-backup.timer',
  'systemd-resolved.service',
  'NetworkManager.service',
] as const;

/** What a file on the disk should be before boot: text (0644 root) or a symlink. */
export type DiskFile = string | { symlink: string };

/** Options of createDebianHost. */
export interface DebianHostOptions {
  /** Files laid onto the disk before the first boot (absolute host path → content). */
  files?: Record<string, DiskFile>;
  /** Of the masked units, the ones this host runs (e.g. 'systemd-resolved.service'). */
  enable?: string[];
  /** dnsproxy bound at /opt/k2s/bin/dnsproxy (default .tools/bin/dnsproxy; null: none). */
  dnsproxy?: string | null;
}

/** Result of a command run inside the host. */
export interface HostRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A booted (or bootable) Debian 13 host. */
export interface DebianHost {
  /** The disk's upper layer on this machine (inspect files the host wrote: `${disk}/etc/...`). */
  readonly disk: string;
  /** Host PID (this machine's numbering) of the container's init, null when not booted. */
  pid1(): number | null;
  /** Starts the launcher and resolves once systemd is exec'd as PID 1 (not yet booted). */
  boot(): Promise<void>;
  /**
   * Waits for `systemctl is-system-running --wait` (boot finished); returns the state and the
   * failed units. Throws when the state is neither running nor degraded by `allowFailed` units only.
   */
  waitRunning(timeoutMs?: number, allowFailed?: readonly string[]): Promise<{ state: string; failed: string[]; bootMs: number }>;
  /**
   * Runs argv inside the host as root (nsenter into its namespaces, root and cwd /, a clean
   * environment, the same capability bounding set as its init). Never throws for a non-zero exit.
   */
  run(argv: readonly string[], opts?: { timeoutMs?: number; input?: string }): Promise<HostRun>;
  /** `sh -c SCRIPT` inside the host (run()). */
  sh(script: string, timeoutMs?: number): Promise<HostRun>;
  /** Like run() but as a transient systemd service (`systemd-run --wait --pipe --quiet --collect`). */
  runUnit(argv: readonly string[], timeoutMs?: number): Promise<HostRun>;
  /** Starts argv inside the host without waiting (a process the test kills with powerLoss()). */
  spawnIn(argv: readonly string[]): ChildProcess;
  /** `systemctl reboot`, waits for init to end (SIGHUP), boots again on the same disk, waitRunning(). */
  reboot(): Promise<{ bootMs: number }>;
  /** SIGKILL of init from outside (a power loss), waits for the PID namespace to end. Same disk kept. */
  powerLoss(): Promise<void>;
  /** `systemctl poweroff`; waits for init to end (SIGINT), falls back to powerLoss() after 60 s. */
  poweroff(): Promise<void>;
  /** systemd's and systemd-resolved's versions inside (`systemd 257 (257.13-1~deb13u1)` lines). */
  versions(): Promise<{ systemd: string; resolved: string; debian: string; node: string }>;
  /** What the launcher and systemd printed so far (console). */
  console(): string;
  /** Powers off if booted, removes the disk and the cgroup. Idempotent; never throws. */
  destroy(): Promise<void>;
}

/** Why a Debian host cannot be booted here (for `skipped: <why>`), or null. */
export async function debianHostMissing(): Promise<string | null> {
  if (process.getuid?.() !== 0) return 'booting a Debian host needs root (namespaces, overlay)';
  if (!existsSync(STAMP)) return `no Debian 13 root file system in .tools/debian13 (run bash scripts/build-debian-host.sh as root; it needs Debian's mirror)`;
  if (!(await cgroup2Root())) return 'no cgroup2 hierarchy on this machine (systemd 257 needs one)';
  return null;
}

/** Where this module mounts cgroup2 when the mount namespace has none (see cgroup2Root). */
const OWN_CGROUP2 = '/run/k2sdns-cgroup2';

/**
 * The cgroup2 hierarchy: an existing mount, or — inside the sandbox, whose `ip netns exec`
 * mounted a fresh /sys without cgroups — one this module mounts at OWN_CGROUP2 in the sandbox's
 * private mount namespace (never in this machine's own). Null when neither works.
 */
async function cgroup2Root(): Promise<string | null> {
  const mounts = (await readFile('/proc/self/mounts', 'utf8')).split('\n').map((l) => l.split(' '));
  // A mount listed but hidden counts for nothing: a nested sandbox (npm run try-package from a
  // test) inherits the outer one's OWN_CGROUP2 mount under a /run it then covers with its own.
  const found = mounts.find((f) => f[2] === 'cgroup2' && (CGROUP2_CANDIDATES.includes(f[1]!) || f[1] === OWN_CGROUP2) && existsSync(join(f[1]!, 'cgroup.controllers')));
  if (found) return found[1]!;
  if (process.env.K2S_DNS_SANDBOX !== '1' || !mounts.some((f) => f[1] === '/run')) return null;
  await mkdir(OWN_CGROUP2, { recursive: true });
  const r = await collect(spawn('mount', ['-t', 'cgroup2', 'cgroup2', OWN_CGROUP2], { stdio: ['pipe', 'pipe', 'pipe'] }), 10_000);
  return r.code === 0 ? OWN_CGROUP2 : null;
}

function collect(child: ChildProcess, timeoutMs: number, input?: string): Promise<HostRun> {
  return new Promise((res) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      res({ code, signal, stdout, stderr });
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      res({ code: null, signal: null, stdout, stderr: stderr + String(err) });
    });
    if (input !== undefined) child.stdin?.end(input);
    else child.stdin?.end();
  });
}

/** Mask/unmask and lay out files directly on the upper layer (only while the host is down). */
async function prepareDisk(upper: string, opts: DebianHostOptions): Promise<void> {
  const unitDir = join(upper, 'etc', 'systemd', 'system');
  await mkdir(unitDir, { recursive: true });
  for (const u of MASKED_UNITS) {
    if (opts.enable?.includes(u)) continue;
    const p = join(unitDir, u);
    if (!(await lstat(p).catch(() => null))) await symlink('/dev/null', p);
  }
  for (const [path, content] of Object.entries(opts.files ?? {})) {
    const p = join(upper, path);
    await mkdir(dirname(p), { recursive: true });
    await unlink(p).catch(() => undefined);
    if (typeof content === 'string') await writeFile(p, content, { mode: 0o644 });
    else await symlink(content.symlink, p);
  }
}

/**
 * Makes a host with a fresh disk (temp dir). Call boot() then waitRunning(); destroy() in a
 * finally/afterAll. Throws when debianHostMissing() says why not.
 */
export async function createDebianHost(opts: DebianHostOptions = {}): Promise<DebianHost> {
  const why = await debianHostMissing();
  if (why) throw new Error(why);
  const cg2 = (await cgroup2Root())!;
  const diskDir = await mkdtemp(join(tmpdir(), 'k2sdns-debian13-'));
  const upper = join(diskDir, 'upper');
  await mkdir(upper, { recursive: true });
  await prepareDisk(upper, opts);
  const dnsproxy = opts.dnsproxy === undefined ? (existsSync(ENGINE_BIN.dnsproxy) ? ENGINE_BIN.dnsproxy : null) : opts.dnsproxy;
  let cgroup: string | null = null;
  let launcher: ChildProcess | null = null;
  let init: number | null = null;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | null = null;
  let consoleText = '';
  let bootStartedAt = 0;

  const nsenter = (argv: readonly string[]): ChildProcess => {
    if (init === null) throw new Error('the Debian host is not booted');
    return spawn(
      'nsenter',
      [
        `--target=${init}`, '--mount', '--uts', '--pid', '--cgroup', '--root', '--wd',
        'setpriv', '--inh-caps=-all', '--bounding-set=-sys_module,-sys_time,-sys_rawio', '--',
        'env', '-i', 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'HOME=/root', 'LANG=C.UTF-8', 'TERM=dumb',
        ...argv,
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
  };

  const run: DebianHost['run'] = (argv, o = {}) => collect(nsenter(argv), o.timeoutMs ?? 60_000, o.input);

  const waitExit = async (timeoutMs: number): Promise<boolean> => {
    if (!exited) return true;
    const t = new Promise<false>((r) => setTimeout(() => r(false), timeoutMs).unref());
    const ok = await Promise.race([exited.then(() => true as const), t]);
    return ok;
  };

  const removeCgroup = async (): Promise<void> => {
    if (!cgroup) return;
    // Children first (systemd made them); empty once the PID namespace is gone.
    const rmTree = async (dir: string): Promise<void> => {
      for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) if (e.isDirectory()) await rmTree(join(dir, e.name));
      await rmdir(dir).catch(() => undefined);
    };
    await rmTree(cgroup);
    cgroup = null;
  };

  const afterExit = async (): Promise<void> => {
    launcher = null;
    init = null;
    exited = null;
    await removeCgroup();
    // The overlay's mount lived in the dead mount namespace; a fresh work dir per boot.
    await rm(join(diskDir, 'work'), { recursive: true, force: true });
  };

  const host: DebianHost = {
    disk: upper,
    pid1: () => init,
    async boot() {
      if (launcher) throw new Error('the Debian host is already booted');
      cgroup = join(cg2, `k2sdns-debian13-${process.pid}-${Date.now()}`);
      await mkdir(cgroup);
      bootStartedAt = Date.now();
      const child = spawn('bash', [LAUNCHER, DEBIAN_ROOTFS, diskDir, REPO_ROOT, dnsproxy ?? '', cgroup], { stdio: ['ignore', 'pipe', 'pipe'] });
      launcher = child;
      exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));
      const ready = new Promise<void>((res, rej) => {
        const onData = (d: Buffer): void => {
          consoleText += d.toString();
          if (consoleText.includes('debian-host: exec systemd')) res();
        };
        child.stdout!.on('data', onData);
        child.stderr!.on('data', onData);
        child.on('exit', (code, signal) => rej(new Error(`the Debian host ended before systemd ran (exit ${code ?? signal}):\n${consoleText.slice(-2000)}`)));
      });
      await ready;
      // unshare --fork: its only child is the PID namespace's init (proc(5) …/children).
      const kids = (await readFile(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8')).trim().split(/\s+/).filter(Boolean);
      if (kids.length !== 1) throw new Error(`expected one child of the launcher, found ${kids.join(' ') || 'none'}`);
      init = Number(kids[0]);
    },
    async waitRunning(timeoutMs = 90_000, allowFailed = []) {
      const deadline = Date.now() + timeoutMs;
      let last: HostRun | null = null;
      // systemctl fails to connect until systemd has set up its private socket; retry on that only.
      while (Date.now() < deadline) {
        last = await run(['systemctl', 'is-system-running', '--wait'], { timeoutMs: deadline - Date.now() });
        const state = last.stdout.trim();
        if (state && state !== 'offline' && state !== 'unknown') break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const state = last?.stdout.trim() ?? '';
      const bootMs = Date.now() - bootStartedAt;
      const failed = (await run(['systemctl', 'list-units', '--failed', '--plain', '--no-legend'])).stdout
        .split('\n')
        .map((l) => l.trim().split(/\s+/)[0]!)
        .filter(Boolean);
      const unexpected = failed.filter((u) => !allowFailed.includes(u));
      if (!(state === 'running' || (state === 'degraded' && unexpected.length === 0))) {
        const why = unexpected.length ? (await run(['systemctl', 'status', '--no-pager', '-l', ...unexpected])).stdout : '';
        throw new Error(`the Debian host is ${state || 'not answering'} (failed: ${failed.join(', ') || 'none'})\n${why}\n${consoleText.slice(-2000)}`);
      }
      return { state, failed, bootMs };
    },
    run,
    sh: (script, timeoutMs) => run(['sh', '-c', script], { timeoutMs }),
    runUnit: (argv, timeoutMs = 60_000) => run(['systemd-run', '--wait', '--pipe', '--quiet', '--collect', '--', ...argv], { timeoutMs }),
    spawnIn: (argv) => nsenter(argv),
    async reboot() {
      await run(['systemctl', 'reboot']);
      if (!(await waitExit(60_000))) throw new Error(`the Debian host did not reboot within 60 s:\n${consoleText.slice(-2000)}`);
      await afterExit();
      await host.boot();
      const { bootMs } = await host.waitRunning();
      return { bootMs };
    },
    async powerLoss() {
      if (init === null) return;
      process.kill(init, 'SIGKILL');
      await waitExit(30_000);
      await afterExit();
    },
    async poweroff() {
      if (init === null) return;
      await run(['systemctl', 'poweroff']);
      if (!(await waitExit(60_000))) await host.powerLoss();
      else await afterExit();
    },
    async versions() {
      const line = async (argv: string[]): Promise<string> => (await run(argv)).stdout.split('\n')[0]!.trim();
      return {
        systemd: await line(['systemctl', '--version']),
        resolved: await line(['/usr/lib/systemd/systemd-resolved', '--version']),
        debian: await line(['cat', '/etc/debian_version']),
        node: await line(['node', '--version']),
      };
    },
    console: () => consoleText,
    async destroy() {
      try {
        if (init !== null) {
          process.kill(init, 'SIGKILL');
          await waitExit(30_000);
        }
        await afterExit();
      } catch {
        /* best effort: the disk below is removed regardless */
      }
      await rm(diskDir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
  return host;
}
