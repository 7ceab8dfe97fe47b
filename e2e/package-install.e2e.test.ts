/**
 * The packages, installed for real: `npm run package`'s .deb on a booted Debian 13
 * host (e2e/bed/debian-host.ts: its own systemd, dbus and polkitd) — apt-get install of the
 * file (dependencies from the host's own installed packages, offline), a desktop user's app
 * → pkexec → the installed helper (a polkit rule answers for that user), getent, Stop byte for
 * byte, Uninstall; an upgrade to a newer build (the helper and the policy stay); apt-get remove
 * while K2s DNS runs (the resolver comes back first); apt-get purge (no file of the package is
 * left: the host's file list before install = after purge). The .rpm goes through rpm's own
 * scriptlet order with `rpm --root` on a chroot of the same Debian 13 root file system
 * (an overlay; rpm itself is this machine's, Debian's `rpm` package).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterStatus } from '../shared/types';
import type { ResultEvent } from '../shared/lifecycle-events';
import { buildPackages } from '../scripts/package/main';
import { createDebianHost, debianHostMissing, DEBIAN_ROOTFS, HOST_SRC, REPO_ROOT, type DebianHost } from './bed/debian-host';
import { hostGetent, hostResolver, isActive, PLAIN_NSSWITCH, PLAIN_RESOLV_CONF } from './bed/debian-host-cli';
import { addUser, helperRule, hostFileList, startAppAs, type HostApp, type HostUser } from './bed/desktop-user';
import { engineMissing } from './bed/engines';
import { startTestbed, type Testbed } from './bed/testbed';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
const built = existsSync(join(REPO_ROOT, 'dist/k2s-dns.mjs')) && existsSync(join(REPO_ROOT, 'out/renderer/index.html'));
const hostWhy = !inSandbox ? 'the Debian host boots only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)' : !built ? 'not built: run npm run build first' : await debianHostMissing();
const rpmWhy = !inSandbox ? 'needs root and a private mount namespace (e2e/bed/sandbox.sh)' : !built ? 'not built: run npm run build first' : spawnSync('rpm', ['--version']).status !== 0 ? 'no rpm on this machine (scripts/setup.sh installs it)' : !existsSync(join(DEBIAN_ROOTFS, 'bin/sh')) ? 'no Debian 13 root file system for the chroot (bash scripts/build-debian-host.sh)' : null;
if (hostWhy) console.warn(`skipped: the .deb on a booted Debian 13 host (${hostWhy})`);
if (rpmWhy) console.warn(`skipped: the .rpm in a Debian 13 chroot (${rpmWhy})`);
const adguard = hostWhy ? false : (await engineMissing('dnsproxy')) === null;

/** Inside the repo (bound read-only at HOST_SRC in the host), git-ignored. */
const OUT = join(REPO_ROOT, '.tmp', 'packages-e2e');
/** `npm run package`'s output (npm test makes it just before the e2e tests). */
const RELEASED = join(REPO_ROOT, 'out', 'packages');
/** The version being released (package.json) and a newer one to upgrade to (its patch + 1). */
const OLD = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const NEW = OLD.replace(/(\d+)$/, (n) => String(Number(n) + 1));
let packages: { old: { deb: string; rpm: string }; new: { deb: string; rpm: string } } | null = null;

/** Built after the bundles they hold (so they hold this build). */
const fresh = (files: string[]) => files.every((f) => existsSync(f) && statSync(f).mtimeMs >= statSync(join(REPO_ROOT, 'dist/k2s-dns.mjs')).mtimeMs);

/**
 * Both versions, once per run: the released one from out/packages when `npm run package` made it
 * from this build (npm test does), else built here; the newer one always (~15-25 s each).
 */
async function ensurePackages(): Promise<NonNullable<typeof packages>> {
  if (packages) return packages;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const t0 = Date.now();
  const released = { deb: join(RELEASED, `k2s-dns_${OLD}_amd64.deb`), rpm: join(RELEASED, `k2s-dns-${OLD}.x86_64.rpm`) };
  const reuse = fresh([released.deb, released.rpm]);
  const old = reuse ? released : await buildPackages({ version: OLD, out: OUT, skipBuild: true });
  const neu = await buildPackages({ version: NEW, out: OUT, skipBuild: true });
  console.log(`package-install: ${reuse ? `${OLD} from out/packages, ` : ''}built ${reuse ? 1 : 2} × (deb + rpm) in ${Date.now() - t0} ms`);
  packages = { old, new: neu };
  return packages;
}

const inHost = (p: string) => `${HOST_SRC}/${p.slice(REPO_ROOT.length).replace(/^\/+/, '')}`;
const ADA: HostUser = { name: 'ada', uid: 1000, home: '/home/ada' };
const BOB: HostUser = { name: 'bob', uid: 1001, home: '/home/bob' };
const CAROL: HostUser = { name: 'carol', uid: 1002, home: '/home/carol' };
const CLUSTER_NAME = 'kubernetes.default.svc.cluster.local';
const HELPER_FILES = ['/usr/lib/k2s-dns/k2s-dns-helper', '/usr/lib/k2s-dns/k2s-dns-helper.mjs', '/usr/share/polkit-1/actions/io.k2s.dns.policy'];

/** owner:group mode of each helper file inside the host ("missing" when absent). */
async function helperFacts(h: DebianHost): Promise<string[]> {
  return Promise.all(HELPER_FILES.map(async (p) => (await h.run(['stat', '-c', '%U:%G %a %n', p])).stdout.trim() || `missing ${p}`));
}
const HELPER_OK = ['root:root 755 /usr/lib/k2s-dns/k2s-dns-helper', 'root:root 644 /usr/lib/k2s-dns/k2s-dns-helper.mjs', 'root:root 644 /usr/share/polkit-1/actions/io.k2s.dns.policy'];

/** `apt-get install -y FILE` (offline: every dependency is already installed on the host). */
async function apt(h: DebianHost, args: string[]): Promise<{ code: number | null; out: string }> {
  const r = await h.run(['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', '-y', '-o', 'Acquire::Retries=0', ...args], { timeoutMs: 120_000 });
  return { code: r.code, out: r.stdout + r.stderr };
}

/** dpkg's word for the package (`install ok installed 0.1.0`, `deinstall ok config-files …`, or `not-installed`). */
async function dpkgState(h: DebianHost): Promise<string> {
  const r = await h.run(['dpkg-query', '-W', '-f', '${Status} ${Version}', 'k2s-dns']);
  return r.code === 0 ? r.stdout.trim() : 'not-installed';
}

/** One lifecycle call through the app; the result event. */
async function lifecycle(app: HostApp, call: 'dns:start' | 'dns:stop' | 'dns:uninstall', input: object = {}): Promise<ResultEvent> {
  const env = await app.call<ResultEvent>(call, input);
  if (!env.ok) throw new Error(`${call}: ${env.error.code} ${env.error.message}`);
  return env.data;
}

describe.skipIf(hostWhy !== null)('the .deb on a booted Debian 13 host', () => {
  let tb: Testbed;
  let h: DebianHost;
  let original: string;
  let before: string[];

  beforeAll(async () => {
    await ensurePackages();
    tb = await startTestbed();
    h = await createDebianHost({
      files: { '/etc/resolv.conf': PLAIN_RESOLV_CONF, '/etc/nsswitch.conf': PLAIN_NSSWITCH, '/etc/polkit-1/rules.d/50-k2s-dns-e2e.rules': helperRule(ADA.name, CAROL.name) },
    });
    await h.boot();
    await h.waitRunning();
    const kubeconfig = await readFile(tb.kubeconfigPath, 'utf8');
    await addUser(h, ADA, kubeconfig);
    await addUser(h, BOB, kubeconfig);
    await addUser(h, CAROL, kubeconfig);
    original = await hostResolver(h);
    before = await hostFileList(h);
  }, 240_000);
  afterAll(async () => {
    await h?.destroy();
    await tb?.stop();
  }, 120_000);

  it('apt-get install ./k2s-dns_<version>_amd64.deb offline; the user\'s app starts through pkexec with the kubeconfig it shows; getent; stop byte for byte; uninstall', async () => {
    const p = await ensurePackages();
    const t0 = Date.now();
    const inst = await apt(h, ['install', '--no-install-recommends', inHost(p.old.deb)]);
    expect(inst.code, inst.out).toBe(0);
    console.log(`package-install: apt-get install of the .deb in ${Date.now() - t0} ms`);
    expect(await dpkgState(h)).toBe(`install ok installed ${OLD}`);
    expect(await helperFacts(h)).toEqual(HELPER_OK);
    // The file-list comparison at purge can fail: the installed files are in it now, and were not before.
    const installed = await hostFileList(h);
    expect(installed.filter((f) => !before.includes(f))).toEqual(expect.arrayContaining(['/usr/bin/k2s-dns', ...HELPER_FILES, '/usr/lib/k2s-dns/out/renderer/index.html']));
    expect((await h.run(['k2s-dns', '--help'])).stdout).toContain('k2s-dns — Kubernetes DNS for a native Linux K2s host');
    expect((await h.run(['test', '-s', '/usr/share/man/man1/k2s-dns.1.gz'])).code).toBe(0);

    const app = await startAppAs(h, ADA, 18437);
    try {
      expect(await app.page()).toContain('<title>K2s DNS</title>');
      // The window's kubeconfig: ada's own (found from her HOME), and Start uses exactly that one.
      const cluster = await app.call<ClusterStatus>('cluster:status');
      expect(cluster.ok && cluster.data.kubeconfigPath).toBe(`${ADA.home}/.kube/config`);
      const engine = adguard ? 'adguard' : 'dnsmasq';
      const t0 = Date.now();
      const start = await lifecycle(app, 'dns:start', { engine });
      console.log(`package-install: Start (${engine}) through pkexec and the installed helper in ${Date.now() - t0} ms`);
      expect(start, JSON.stringify(start)).toMatchObject({ ok: true, exitCode: 0 });
      const state = JSON.parse((await h.run(['cat', '/var/lib/k2s/dns-resolver-state.json'])).stdout) as { kubeconfigPath: string };
      expect(state.kubeconfigPath).toBe(`${ADA.home}/.kube/config`);
      expect(await isActive(h)).toBe('active');
      expect(await hostGetent(h, CLUSTER_NAME)).toEqual(['172.21.0.1']);
      expect(await hostGetent(h, 'www.example.test')).toEqual(['198.51.100.7']);

      // Two other users, each told which denial it was, and nothing changed: bob, whom no rule
      // allows and who has no local session (polkit: not authorized); carol, who would need a
      // password that nothing can ask for (no desktop agent, and pkexec's own text agent has no
      // terminal: the app runs as a service here).
      for (const [user, port, code] of [[BOB, 18438, 'AUTH_NOT_AUTHORIZED'], [CAROL, 18439, 'AUTH_NO_AGENT']] as const) {
        const other = await startAppAs(h, user, port);
        try {
          const denied = await lifecycle(other, 'dns:stop');
          expect(denied, `${user.name}: ${JSON.stringify(denied)}`).toMatchObject({ ok: false, exitCode: 3, code });
          expect(await hostGetent(h, CLUSTER_NAME)).toEqual(['172.21.0.1']);
        } finally {
          await other.stop();
        }
      }

      const stop = await lifecycle(app, 'dns:stop');
      expect(stop, JSON.stringify(stop)).toMatchObject({ ok: true, exitCode: 0 });
      expect(await hostResolver(h)).toBe(original);
      expect(await hostGetent(h, CLUSTER_NAME)).toEqual([]);
      const uninstall = await lifecycle(app, 'dns:uninstall');
      expect(uninstall, JSON.stringify(uninstall)).toMatchObject({ ok: true, exitCode: 0 });
      expect((await h.run(['test', '-e', '/etc/systemd/system/k2s-dnsproxy.service'])).code).not.toBe(0);
    } finally {
      await app.stop();
    }
  }, 300_000);

  it('k2s-dns on PATH runs from the startup snapshot postinst built (start and stop through it, its units run the script); a changed Node falls back to the script until dpkg\'s trigger builds it again', async () => {
    const BLOB = '/var/cache/k2s-dns/k2s-dns-cli.blob';
    // Which exec the launcher chose (sh -x prints it), and what it answered.
    const launch = async (args: string[]) => {
      const r = await h.run(['sh', '-x', '/usr/bin/k2s-dns', ...args]);
      return { exec: r.stderr.split('\n').filter((l) => l.startsWith('+ exec ')).at(-1) ?? '', stdout: r.stdout, code: r.code };
    };
    expect((await h.run(['stat', '-c', '%U:%G %a', BLOB, `${BLOB}.key`])).stdout).toBe('root:root 644\nroot:root 644\n');
    expect(await launch(['--version'])).toEqual({ exec: `+ exec /usr/bin/node --snapshot-blob ${BLOB} -- --version`, stdout: `k2s-dns ${OLD}\n`, code: 0 });
    // The window's verbs never run from it.
    expect((await launch(['ui', '--help'])).exec).toBe('+ exec /usr/bin/node /usr/lib/k2s-dns/dist/k2s-dns.mjs ui --help');

    const start = await h.run(['k2s-dns', 'start', '--kubeconfig', `${ADA.home}/.kube/config`, '--engine', 'dnsmasq', '--json']);
    expect(start.code, start.stdout.slice(-400) + start.stderr).toBe(0);
    expect(await hostGetent(h, CLUSTER_NAME)).toEqual(['172.21.0.1']);
    // The follower's unit runs the launcher too, which execs Node from the blob (node-deps.ts).
    expect((await h.run(['systemctl', 'show', '-p', 'ExecStart', '--value', 'k2s-dnsproxy-follow.service'])).stdout).toContain('argv[]=/usr/bin/k2s-dns follow-watch ;');
    expect((await h.run(['systemctl', 'is-active', 'k2s-dnsproxy-follow.service', 'k2s-dnsproxy-capture.service'])).stdout).toBe('active\nactive\n');
    const follower = (await h.run(['systemctl', 'show', '-p', 'MainPID', '--value', 'k2s-dnsproxy-follow.service'])).stdout.trim();
    expect((await h.run(['cat', `/proc/${follower}/cmdline`])).stdout.split('\0').filter(Boolean)).toEqual(['/usr/bin/node', '--snapshot-blob', BLOB, '--', 'follow-watch']);
    // The capture's unit runs the launcher, which execs Node from the blob (start waits for its
    // capture to open); the companion it runs is the one whose capture is open, and its rows arrive.
    // Its flags are in a file (the unit's command line stays the same from start to start).
    expect((await h.run(['systemctl', 'show', '-p', 'ExecStart', '--value', 'k2s-dnsproxy-capture.service'])).stdout).toContain('argv[]=/usr/bin/k2s-dns capture-watch --flags-file /etc/k2s/capture.flags ;');
    expect((await h.run(['cat', '/etc/k2s/capture.flags'])).stdout).toMatch(/^go \["--listen","127\.0\.0\.1:53",/);
    const companion = (await h.run(['systemctl', 'show', '-p', 'MainPID', '--value', 'k2s-dnsproxy-capture.service'])).stdout.trim();
    expect((await h.run(['cat', `/proc/${companion}/cmdline`])).stdout.split('\0').slice(0, 5)).toEqual(['/usr/bin/node', '--snapshot-blob', BLOB, '--', 'capture-watch']);
    expect((await h.run(['cat', '/run/k2s/capture.ready'])).stdout.trim()).toBe(companion);
    // Its packet parser, as nobody, from the same blob (capture/parser-program.ts).
    const parser = (await h.sh(`for p in $(cat /sys/fs/cgroup/system.slice/k2s-dnsproxy-capture.service/cgroup.procs); do tr '\\0' ' ' < /proc/$p/cmdline | grep -q ' capture-rows' && stat -c %U /proc/$p; done`)).stdout.trim();
    expect(parser).toBe('nobody');
    expect((await h.sh(`for p in $(cat /sys/fs/cgroup/system.slice/k2s-dnsproxy-capture.service/cgroup.procs); do tr '\\0' ' ' < /proc/$p/cmdline | grep ' capture-rows'; done`)).stdout.trim()).toBe(`/usr/bin/node --snapshot-blob ${BLOB} -- capture-rows`);
    const row = await h.sh(`for i in $(seq 1 100); do grep -m1 -o '"name":"${CLUSTER_NAME}\\.\\?"' /var/log/dnsproxy/queries.jsonl && exit 0; sleep 0.1; done; exit 1`, 30_000);
    expect(row.code, 'a row for the getent above within 10 s').toBe(0);
    // After a reboot the manager starts the capture unit from its link (WantedBy= the proxy):
    // through the launcher again, from the blob, and a lookup after the boot adds rows.
    await h.reboot();
    expect((await h.sh('for i in $(seq 1 150); do [ -s /run/k2s/capture.ready ] && exit 0; sleep 0.2; done; exit 1', 60_000)).code, 'the capture open within 30 s of the boot').toBe(0);
    const booted = (await h.run(['systemctl', 'show', '-p', 'MainPID', '--value', 'k2s-dnsproxy-capture.service'])).stdout.trim();
    expect((await h.run(['cat', `/proc/${booted}/cmdline`])).stdout.split('\0').slice(0, 5)).toEqual(['/usr/bin/node', '--snapshot-blob', BLOB, '--', 'capture-watch']);
    expect((await h.run(['cat', '/run/k2s/capture.ready'])).stdout.trim()).toBe(booted);
    const rowsBefore = Number((await h.sh(`grep -c '"name":"${CLUSTER_NAME}\\.\\?"' /var/log/dnsproxy/queries.jsonl`)).stdout.trim());
    expect(await hostGetent(h, CLUSTER_NAME)).toEqual(['172.21.0.1']);
    const rowAfterBoot = await h.sh(`for i in $(seq 1 100); do [ "$(grep -c '"name":"${CLUSTER_NAME}\\.\\?"' /var/log/dnsproxy/queries.jsonl)" -gt ${rowsBefore} ] && exit 0; sleep 0.1; done; exit 1`, 30_000);
    expect(rowAfterBoot.code, 'a row for the getent after the reboot within 10 s').toBe(0);
    const stop = await h.run(['k2s-dns', 'stop', '--json']);
    expect(stop.code, stop.stdout.slice(-400) + stop.stderr).toBe(0);
    expect(await hostResolver(h)).toBe(original);
    expect((await h.run(['systemctl', 'is-active', 'k2s-dnsproxy.service', 'k2s-dnsproxy-follow.service'])).stdout).toBe('inactive\ninactive\n');
    // The capture's companion drains after stop returns (stop no longer waits for it on systemd): inactive within 15 s, never failed.
    const drained = await h.sh('for i in $(seq 1 75); do s=$(systemctl is-active k2s-dnsproxy-capture.service); [ "$s" = inactive ] && exit 0; [ "$s" = failed ] && exit 2; sleep 0.2; done; exit 1', 30_000);
    expect(drained.code, 'the capture unit inactive (not failed) within 15 s of stop').toBe(0);
    // It never runs alone: Requisite= with After= fails its start while the proxy is not active (systemd.unit(5)).
    const alone = await h.run(['systemctl', 'start', 'k2s-dnsproxy-capture.service']);
    expect(alone.code).not.toBe(0);
    expect((await h.run(['systemctl', 'is-active', 'k2s-dnsproxy.service', 'k2s-dnsproxy-capture.service'])).stdout).toBe('inactive\ninactive\n');

    // A Node upgrade changes /usr/bin/node (here its times): the key no longer matches, the script runs.
    expect((await h.run(['touch', '/usr/bin/node'])).code).toBe(0);
    expect(await launch(['--version'])).toEqual({ exec: '+ exec /usr/bin/node /usr/lib/k2s-dns/dist/k2s-dns.mjs --version', stdout: `k2s-dns ${OLD}\n`, code: 0 });
    // …and dpkg's file trigger on /usr/bin/node (as the nodejs package's unpack activates it) builds it again.
    expect((await h.run(['dpkg-trigger', '--no-await', '/usr/bin/node'])).code).toBe(0);
    const triggered = await h.run(['dpkg', '--triggers-only', '--pending'], { timeoutMs: 120_000 });
    expect(triggered.stdout, triggered.stderr).toMatch(/Processing triggers for k2s-dns \([^)]+\) \.\.\.\nk2s-dns: built the CLI's startup snapshot for Node\.js v\d+\.\d+\.\d+ \(\/var\/cache\/k2s-dns\/k2s-dns-cli\.blob, \d+ MiB\)/);
    expect((await launch(['--version'])).exec).toBe(`+ exec /usr/bin/node --snapshot-blob ${BLOB} -- --version`);
  }, 300_000);

  it('upgrade to a newer version keeps the helper and the policy; apt-get remove while K2s DNS runs restores the resolver first; purge leaves no file', async () => {
    const p = await ensurePackages();
    const up = await apt(h, ['install', '--no-install-recommends', inHost(p.new.deb)]);
    expect(up.code, up.out).toBe(0);
    expect(await dpkgState(h)).toBe(`install ok installed ${NEW}`);
    expect(await helperFacts(h)).toEqual(HELPER_OK);

    const app = await startAppAs(h, ADA, 18437);
    try {
      const start = await lifecycle(app, 'dns:start', { engine: 'dnsmasq' });
      expect(start, JSON.stringify(start)).toMatchObject({ ok: true, exitCode: 0 });
      expect(await hostGetent(h, CLUSTER_NAME)).toEqual(['172.21.0.1']);
    } finally {
      // The user closes the app before removing the package; K2s DNS itself keeps running.
      await app.stop();
    }
    expect(await hostResolver(h)).not.toBe(original);

    const rm = await apt(h, ['remove', 'k2s-dns']);
    expect(rm.code, rm.out).toBe(0);
    expect(rm.out).toContain("K2s DNS is running: restoring the host's resolver first (k2s-dns uninstall)");
    expect(await hostResolver(h)).toBe(original);
    expect(await hostGetent(h, 'www.example.test')).toEqual(['198.51.100.7']);
    expect(await hostGetent(h, CLUSTER_NAME)).toEqual([]);
    expect(await isActive(h)).not.toBe('active');
    expect(await dpkgState(h)).toMatch(/^deinstall ok config-files /);

    const purge = await apt(h, ['purge', 'k2s-dns']);
    expect(purge.code, purge.out).toBe(0);
    expect(await dpkgState(h)).toBe('not-installed');
    const after = await hostFileList(h);
    expect(after.filter((f) => !before.includes(f)), 'left after purge').toEqual([]);
    expect(before.filter((f) => !after.includes(f)), 'gone after purge').toEqual([]);
  }, 300_000);
});

/** rpm on a Debian 13 chroot: an overlay (lower = the bed's root file system) mounted in the sandbox's private mount namespace. */
describe.skipIf(rpmWhy !== null)('the .rpm with rpm\'s own scriptlet order (rpm --root on a Debian 13 chroot)', () => {
  let dir = '';
  let root = '';
  const sh = (argv: string[]) => spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', timeout: 120_000 });
  const rpm = (...args: string[]) => sh(['rpm', '--root', root, '--dbpath', '/var/lib/rpm', ...args]);
  // rpm's own database, and the scriptlet files rpm keeps in /var/tmp when run with -vv (rpm 4.18 keeps them for debugging).
  const files = () => sh(['find', root, '-xdev', '-print']).stdout.split('\n').map((l) => l.slice(root.length) || '/').filter((l) => l && !/^\/var\/lib\/rpm(\/|$)|^\/var\/tmp\/rpm-tmp\.\w+$/.test(l)).sort();

  beforeAll(async () => {
    await ensurePackages();
    dir = mkdtempSync(join(tmpdir(), 'k2s-dns-rpmroot-'));
    root = join(dir, 'merged');
    for (const d of ['upper', 'work', 'merged']) mkdirSync(join(dir, d));
    const m = sh(['mount', '-t', 'overlay', 'overlay', '-o', `lowerdir=${DEBIAN_ROOTFS},upperdir=${dir}/upper,workdir=${dir}/work`, root]);
    expect(m.status, m.stderr).toBe(0);
    // rpm runs scriptlets chrooted; they need /dev/null.
    const dev = sh(['mount', '--bind', '/dev', join(root, 'dev')]);
    expect(dev.status, dev.stderr).toBe(0);
    expect(rpm('--initdb').status).toBe(0);
  }, 240_000);
  afterAll(() => {
    if (!root) return;
    sh(['umount', join(root, 'dev')]);
    sh(['umount', root]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the .deb and the .rpm hold the same files (one layout)', async () => {
    const p = await ensurePackages();
    const debList = sh(['bash', '-c', `set -o pipefail; dpkg-deb --fsys-tarfile '${p.old.deb}' | tar -t`]);
    const debFiles = debList.stdout.split('\n').filter((l) => l && !l.endsWith('/')).map((l) => l.replace(/^\./, '')).sort();
    const rpmFiles = sh(['rpm', '-qp', '--qf', '[%{FILEMODES:perms} %{FILENAMES}\\n]', p.old.rpm]).stdout.split('\n').filter((l) => l.startsWith('-')).map((l) => l.split(' ')[1]!).sort();
    expect(debList.status, debList.stderr).toBe(0);
    expect(debFiles.length).toBeGreaterThan(50);
    expect(rpmFiles).toEqual(debFiles);

    // Every npm package the bundles hold has its license in the copyright file (CLI/helper bundles and the renderer alike).
    const cr = sh(['bash', '-c', `set -o pipefail; dpkg-deb --fsys-tarfile '${p.old.deb}' | tar -xO ./usr/share/doc/k2s-dns/copyright`]);
    expect(cr.status, cr.stderr).toBe(0);
    const bundled = [...JSON.parse(readFileSync(join(REPO_ROOT, 'dist/bundled-packages.json'), 'utf8')), ...JSON.parse(readFileSync(join(REPO_ROOT, 'out/renderer/bundled-packages.json'), 'utf8'))] as string[];
    expect(bundled).toEqual(expect.arrayContaining(['node_modules/yaml', 'node_modules/@kubernetes/client-node', 'node_modules/react-dom']));
    for (const dir of bundled) expect(cr.stdout, dir).toContain(`\nFiles: ${dir}/*\n`);
    expect(cr.stdout).toMatch(/\nFiles: node_modules\/yaml\/\*\n.*\nCopyright: Copyright Eemeli Aro <eemeli@gmail\.com>\nLicense: ISC\n Copyright Eemeli Aro/);
    // rpm's %license: the copyright file and the Apache-2.0 packages' own texts it refers to.
    const lic = sh(['rpm', '-qpL', p.old.rpm]).stdout.split('\n').filter(Boolean);
    expect(lic).toEqual(expect.arrayContaining(['/usr/share/doc/k2s-dns/copyright', '/usr/share/doc/k2s-dns/licenses/@kubernetes/client-node/LICENSE']));
  });

  const lintian = spawnSync('lintian', ['--version']).status === 0;
  it.skipIf(!lintian)(lintian ? 'lintian finds no error and no warning in the .deb' : 'skipped: lintian is not installed (apt-get install lintian)', async () => {
    const p = await ensurePackages();
    const r = sh(['lintian', '--tag-display-limit', '0', p.old.deb]);
    expect(r.stdout.split('\n').filter((l) => /^[EW]: /.test(l))).toEqual([]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it('install, upgrade (new %post runs before old %preun: the helper and policy stay), erase (no file left)', async () => {
    const p = await ensurePackages();
    const before = files();
    // --nodeps: the chroot's dependencies are dpkg's, which rpm's database does not know.
    const inst = rpm('-i', '--nodeps', p.old.rpm);
    expect(inst.status, inst.stderr).toBe(0);
    expect(rpm('-q', 'k2s-dns').stdout.trim()).toBe(`k2s-dns-${OLD}-1.x86_64`);
    for (const f of HELPER_FILES) expect(existsSync(join(root, f)), f).toBe(true);

    const up = rpm('-U', '--nodeps', '-vv', p.new.rpm);
    expect(up.status, up.stderr.slice(-3000)).toBe(0);
    // rpm -vv names each scriptlet as it starts (rpm 4.18: "D: %post(k2s-dns-0.1.1-1.x86_64): scriptlet start").
    const order = [...up.stderr.matchAll(/D: (%\w+)\((k2s-dns-[\d.]+)-1\.x86_64\): scriptlet start/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(order).toEqual([`%post k2s-dns-${NEW}`, `%preun k2s-dns-${OLD}`, `%postun k2s-dns-${OLD}`]);
    expect(rpm('-q', 'k2s-dns').stdout.trim()).toBe(`k2s-dns-${NEW}-1.x86_64`);
    for (const f of HELPER_FILES) expect(existsSync(join(root, f)), `${f} after the upgrade`).toBe(true);
    expect(rpm('-V', '--nodeps', 'k2s-dns').stdout).toBe('');

    const erase = rpm('-e', '--nodeps', 'k2s-dns');
    expect(erase.status, erase.stderr).toBe(0);
    const after = files();
    expect(after.filter((f) => !before.includes(f)), 'left after rpm -e').toEqual([]);
    expect(basename(p.new.rpm)).toBe(`k2s-dns-${NEW}.x86_64.rpm`);
  }, 240_000);
});
