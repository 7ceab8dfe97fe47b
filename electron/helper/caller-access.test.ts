import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { asCallerArgv, callerSideExists, callerUid, confirmRootOwner, readKubeconfigAsCaller, rootHeldFile, unreadableKubeconfigMessage } from './caller-access';
import { locateKubeconfig } from '../core/cluster/kubeconfig';
import { judgeKubeconfig } from '../core/cluster/kubeconfig-guard';

const isRoot = process.geteuid?.() === 0;
const hasSetpriv = spawnSync('setpriv', ['--version']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'k2s-caller-'));
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const HELPER = fileURLToPath(new URL('../../bin/k2s-dns-helper.mjs', import.meta.url));

describe('helper caller access', () => {
  it('takes the caller uid from PKEXEC_UID or SUDO_UID; root itself or junk is no caller', () => {
    expect(callerUid({ PKEXEC_UID: '1000' })).toBe(1000);
    expect(callerUid({ SUDO_UID: '1001' })).toBe(1001);
    expect(callerUid({ PKEXEC_UID: '0' })).toBeNull();
    expect(() => callerUid({ SUDO_UID: '10; rm' })).toThrow(/not a uid/);
    expect(callerUid({})).toBeNull();
  });

  // Regression: on main the root helper answered "is N bytes", "is not valid YAML
  // (line N)" or "does not exist" for root-only files a caller named.
  it.skipIf(!isRoot || !hasSetpriv)('as root: a root-only file and a missing one give the caller the same answer (skipped without root/setpriv)', () => {
    const secret = join(dir, 'root-only.yaml');
    writeFileSync(secret, 'x: [\n'.repeat(100), { mode: 0o600 });
    const open = join(dir, 'readable.yaml');
    writeFileSync(open, 'apiVersion: v1\n', { mode: 0o644 });
    expect(() => readKubeconfigAsCaller(secret, 65534)).toThrow(unreadableKubeconfigMessage(secret));
    expect(() => readKubeconfigAsCaller(join(dir, 'missing.yaml'), 65534)).toThrow(unreadableKubeconfigMessage(join(dir, 'missing.yaml')));
    expect(readKubeconfigAsCaller(open, 65534)).toMatchObject({ text: 'apiVersion: v1\n', uid: 0, mode: 0o100644 });
    const run = (path: string) => spawnSync(process.execPath, [HELPER, 'start', '--kubeconfig', path], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, PKEXEC_UID: '65534', K2S_DNS_FROM_SOURCE: '1' } });
    const a = run(secret);
    const b = run(join(dir, 'missing.yaml'));
    expect([a.status, b.status]).toEqual([3, 3]);
    expect(JSON.parse(a.stdout.trim().split('\n').at(-1)!)).toMatchObject({ type: 'result', ok: false, exitCode: 3, message: unreadableKubeconfigMessage(secret) });
    expect(JSON.parse(b.stdout.trim().split('\n').at(-1)!).message).toBe(unreadableKubeconfigMessage(join(dir, 'missing.yaml')));
    expect(a.stdout + a.stderr).not.toMatch(/bytes|YAML|line \d/);
  }, 150_000);

  it('asCallerArgv: setpriv with the caller\'s uid, gid and groups (clears the groups when there are none)', () => {
    expect(asCallerArgv(1000, { gid: 1000, groups: [1000, 4, 27] }, ['/usr/bin/node', '-e', 'x'])).toEqual(['setpriv', '--reuid=1000', '--regid=1000', '--groups=1000,4,27', '--', '/usr/bin/node', '-e', 'x']);
    expect(asCallerArgv(12345, { gid: 12345, groups: [] }, ['cat'])).toEqual(['setpriv', '--reuid=12345', '--regid=12345', '--clear-groups', '--', 'cat']);
  });

  it.skipIf(!isRoot || !hasSetpriv)('reads with the caller\'s groups: a 0640 file of a group the caller is in is read, a FIFO and an oversized file are refused (skipped without root/setpriv)', () => {
    const grp = join(dir, 'group-only.yaml');
    writeFileSync(grp, 'kind: Config\n', { mode: 0o640 });
    chownSync(grp, 0, 4242);
    expect(readKubeconfigAsCaller(grp, 12345, { gid: 12345, groups: [4242] }).text).toBe('kind: Config\n');
    expect(() => readKubeconfigAsCaller(grp, 12345, { gid: 12345, groups: [] })).toThrow(unreadableKubeconfigMessage(grp));
    const fifo = join(dir, 'fifo');
    spawnSync('mkfifo', ['-m', '0666', fifo]);
    expect(() => readKubeconfigAsCaller(fifo, 12345, { gid: 12345, groups: [] })).toThrow(/is not a regular file/);
    const big = join(dir, 'big.yaml');
    writeFileSync(big, '');
    spawnSync('truncate', ['-s', '2M', big]);
    chmodSync(big, 0o644);
    expect(() => readKubeconfigAsCaller(big, 12345, { gid: 12345, groups: [] })).toThrow(/more than a kubeconfig/);
  });

  // Regression: the helper checked `test -r` as the caller, then root opened the path
  // again; swapping the symlink in between made root read /etc/shadow in 6 of 12 tries.
  it.skipIf(!isRoot)('a symlink swapped while the helper reads: every read is the caller\'s file or refused, never the root-only one (skipped without root)', async () => {
    const home = join(dir, 'race');
    mkdirSync(home, { mode: 0o755 });
    chownSync(home, 12345, 12345);
    const mine = join(home, 'mine.yaml');
    writeFileSync(mine, 'users: []\n', { mode: 0o644 });
    chownSync(mine, 12345, 12345);
    const secret = join(dir, 'root-only');
    writeFileSync(secret, 'ROOT-ONLY-SECRET: 1\n', { mode: 0o600 });
    const link = join(home, 'kubeconfig');
    symlinkSync(mine, link);
    // The attacker: replaces the link atomically (rename over it), alternating targets, until killed.
    const flipper = spawn(process.execPath, ['-e', `const fs=require('fs');const t=[${JSON.stringify(mine)},${JSON.stringify(secret)}];let i=0;process.stdout.write('go\\n');for(;;){const n=${JSON.stringify(link)}+'.'+(i%2);try{fs.unlinkSync(n)}catch{};fs.symlinkSync(t[i++%2],n);fs.renameSync(n,${JSON.stringify(link)});}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => flipper.stdout!.once('data', resolve));
    const outcomes = { mine: 0, refused: 0, other: [] as string[] };
    const deadline = Date.now() + 60_000;
    for (let i = 0; i < 150 && Date.now() < deadline; i++) {
      const r = attempt(() => readKubeconfigAsCaller(link, 12345).text);
      if (r === 'users: []\n') outcomes.mine++;
      else if (r === unreadableKubeconfigMessage(link)) outcomes.refused++;
      else outcomes.other.push(r);
    }
    flipper.kill('SIGKILL');
    await new Promise((resolve) => flipper.once('exit', resolve));
    // Both targets were hit (the race ran), and no read returned or described the secret.
    expect(outcomes.other).toEqual([]);
    expect(outcomes.mine).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  }, 120_000);
});

describe('kubeconfig search as the caller', () => {
  it('admin.conf is checked as root, every other candidate with the caller\'s rights; root itself checks all as root', () => {
    const calls: string[] = [];
    const rootExists = (p: string) => (calls.push(`root ${p}`), p === '/etc/kubernetes/admin.conf' || p === '/root/.kube/config');
    const callerExists = (uid: number, p: string) => (calls.push(`${uid} ${p}`), p === '/home/a/.kube/config');
    const check = callerSideExists(1000, { rootExists, callerExists });
    expect(['/etc/kubernetes/admin.conf', '/home/a/.kube/config', '/root/.kube/config'].map(check)).toEqual([true, true, false]);
    expect(calls).toEqual(['root /etc/kubernetes/admin.conf', '1000 /home/a/.kube/config', '1000 /root/.kube/config']);
    expect(callerSideExists(null, { rootExists, callerExists })('/root/.kube/config')).toBe(true); // root ran it itself
  });

  it('locateKubeconfig takes its existence check from the caller (the helper injects callerSideExists)', async () => {
    const asked: string[] = [];
    const exec = { run: async () => ({ code: 0, stdout: 'a:x:1000:1000::/home/a:/bin/sh\n', stderr: '' }) };
    const found = await locateKubeconfig({ env: { PKEXEC_UID: '1000', KUBECONFIG: '/k/one' }, exec: exec as never, exists: (p) => (asked.push(p), false) });
    expect(asked).toEqual(['/etc/kubernetes/admin.conf', '/home/a/.kube/config', '/k/one', found.tried[3]]);
    expect(found.path).toBeNull();
  });

  // Regression: root's existsSync on the caller's candidates answered for paths the caller
  // cannot see (a symlink into a 0700 root directory); the helper run is in e2e/sec-attack.e2e.test.ts.
  it.skipIf(!isRoot || !hasSetpriv)('as root: a candidate behind a 0700 root directory looks missing to the caller whether or not its target exists (skipped without root/setpriv)', () => {
    const vault = join(dir, 'vault');
    mkdirSync(vault, { mode: 0o700 });
    writeFileSync(join(vault, 'present'), 'apiVersion: v1\n', { mode: 0o600 });
    const check = callerSideExists(65534);
    const seen = ['present', 'absent'].map((target) => {
      const link = join(dir, `caller-kubeconfig-${target}`);
      symlinkSync(join(vault, target), link);
      return { root: existsSync(link), caller: check(link) };
    });
    expect(seen).toEqual([{ root: true, caller: false }, { root: false, caller: false }]);
    expect(check(dir)).toBe(true); // a path the caller can see is found
  }, 60_000);
});

/** The value `f` returns, or the message it throws. */
function attempt(f: () => string): string {
  try {
    return f();
  } catch (err) {
    return (err as Error).message;
  }
}

describe('the reader child\'s answer is the caller\'s word (brk31)', () => {
  it('a root-owned claim stands only when root reads the same bytes at the path itself', () => {
    const claim = { path: '/k', text: 'users: [{name: u, user: {exec: {command: sh}}}]\n', uid: 0, mode: 0o100644 };
    const asRoot = (text: string, uid: number, mode = 0o100644) => () => ({ path: '/k', text, uid, mode });
    expect(confirmRootOwner(claim, asRoot(claim.text, 0, 0o100640))).toEqual({ ...claim, mode: 0o100640 });
    expect(confirmRootOwner(claim, asRoot('apiVersion: v1\n', 0)).uid).toBe(-1);
    expect(confirmRootOwner(claim, asRoot(claim.text, 65534)).uid).toBe(65534);
    expect(
      confirmRootOwner(claim, () => {
        throw new Error('ENOENT');
      }).uid,
    ).toBe(-1);
    // Root opens only a root-owned regular file in directories only root can change.
    const held = join(dir, 'held.yaml');
    writeFileSync(held, 'kind: Config\n', { mode: 0o644 });
    if (isRoot) expect(rootHeldFile(held)).toBe(held);
    expect(rootHeldFile('/dev/null')).toBeNull();
    expect(rootHeldFile(dir)).toBeNull();
    const userDir = join(dir, 'user-dir');
    mkdirSync(userDir, { mode: 0o777 });
    chmodSync(userDir, 0o777);
    writeFileSync(join(userDir, 'k'), 'kind: Config\n', { mode: 0o644 });
    expect(rootHeldFile(join(userDir, 'k'))).toBeNull();
    // A caller's own file is not re-read (no root open of a path the caller named, for nothing).
    expect(
      confirmRootOwner({ ...claim, uid: 65534 }, () => {
        throw new Error('not called');
      }).uid,
    ).toBe(65534);
  });

  // docs/security.md: `sudo cp admin.conf ~/.kube/config` (root-owned, readable) sits in a
  // directory the user owns: no one's, so its exec plugin is refused; the same bytes in a
  // root-only directory are root's.
  it.skipIf(!isRoot || !hasSetpriv)('as root: a root-owned kubeconfig in a caller-owned ~/.kube is no one\'s (exec refused); in a root-only directory it is root\'s (skipped without root/setpriv)', () => {
    const text = 'apiVersion: v1\nkind: Config\nusers:\n- name: u\n  user: {exec: {command: /bin/true, apiVersion: client.authentication.k8s.io/v1}}\n';
    const kube = join(dir, 'home-nobody', '.kube');
    mkdirSync(kube, { recursive: true, mode: 0o755 });
    chownSync(join(dir, 'home-nobody'), 65534, 65534);
    chownSync(kube, 65534, 65534);
    const copied = join(kube, 'config');
    writeFileSync(copied, text, { mode: 0o644 });
    const inUserDir = readKubeconfigAsCaller(copied, 65534);
    expect(inUserDir).toMatchObject({ path: copied, text, uid: -1 });
    expect(() => judgeKubeconfig(inUserDir, 0)).toThrow(`The kubeconfig ${copied} is not root-owned as far as root can tell (it lies in a directory a non-root user can change, or is not a regular file root could open itself) and uses users[].user.exec`);
    const kept = join(dir, 'kept.conf');
    writeFileSync(kept, text, { mode: 0o644 });
    const inRootDir = readKubeconfigAsCaller(kept, 65534);
    expect(inRootDir).toMatchObject({ path: kept, text, uid: 0 });
    expect(JSON.stringify(judgeKubeconfig(inRootDir, 0))).toContain('"exec"');
  });

  // The reader child runs as the caller, who can stop it, copy its stdout (pidfd_getfd(2)) and
  // wrap its JSON in a forged one claiming uid 0 with an exec plugin: root then ran the plugin.
  const hasPython = spawnSync('/usr/bin/python3', ['-c', 'import ctypes']).status === 0;
  it.skipIf(!isRoot || !hasSetpriv || !hasPython)("as root: a caller who forges the reader child's output (uid 0, an exec plugin) gets no root-owned kubeconfig (skipped without root/setpriv/python3)", async () => {
    const work = join(dir, 'forge');
    mkdirSync(work, { mode: 0o777 });
    chmodSync(work, 0o777);
    const path = join(work, 'config');
    writeFileSync(path, 'apiVersion: v1\nkind: Config\n', { mode: 0o644 });
    chownSync(path, 65534, 65534);
    const forged = 'users:\n- name: u\n  user: {exec: {command: /bin/sh, args: [-c, id]}}\n';
    const attacker = join(work, 'attacker.py');
    writeFileSync(attacker, FORGER, { mode: 0o644 });
    const ready = join(work, 'ready');
    const child = spawn('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', '/usr/bin/python3', attacker, path, forged, ready], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    for (let i = 0; i < 400 && !existsSync(ready); i++) await new Promise((r) => setTimeout(r, 25));
    const file = readKubeconfigAsCaller(path, 65534, { gid: 65534, groups: [] });
    const code = await exited;
    if (code === 3) return; // pidfd_getfd refused (Yama ptrace_scope >= 1): no forgery possible on this kernel
    expect(code, out).toBe(0);
    expect(file.text).toBe(forged); // the caller did forge the child's answer...
    expect(file.uid).not.toBe(0); // ...and it is not taken as root's file
  }, 60_000);
});

/** The caller's side of the forgery: find the reader child, stop it, copy its fd 1, write a prefix, let it finish, close the object. */
const FORGER = String.raw`
import ctypes, json, os, signal, sys, time
libc = ctypes.CDLL(None, use_errno=True)
path, forged, ready = sys.argv[1], sys.argv[2], sys.argv[3]
open(ready, 'w').close()
deadline = time.time() + 30
while time.time() < deadline:
    for d in os.listdir('/proc'):
        if not d.isdigit() or int(d) == os.getpid(): continue
        try:
            if os.stat('/proc/' + d).st_uid != os.getuid(): continue
            cmd = open('/proc/' + d + '/cmdline', 'rb').read().split(b'\0')
        except OSError: continue
        if b'-e' in cmd and path.encode() in cmd and b'setpriv' not in cmd[0]:
            pid = int(d)
            os.kill(pid, signal.SIGSTOP)
            fd = libc.syscall(438, libc.syscall(434, pid, 0), 1, 0)
            if fd < 0:
                os.kill(pid, signal.SIGCONT); sys.exit(3)
            os.write(fd, (json.dumps({'uid': 0, 'mode': 0o100644, 'text': forged})[:-1] + ',"x":').encode())
            os.kill(pid, signal.SIGCONT)
            while True:
                try:
                    if open('/proc/%d/stat' % pid).read().rsplit(') ', 1)[1][0] == 'Z': break
                except OSError: break
                time.sleep(0.001)
            os.write(fd, b'}'); os.close(fd); sys.exit(0)
    time.sleep(0.001)
sys.exit(2)
`;
