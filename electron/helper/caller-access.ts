/**
 * What the unprivileged caller of the root helper may learn about a path it names:
 * nothing about a file it could not read itself. pkexec sets PKEXEC_UID and sudo SUDO_UID to the
 * caller's uid (pkexec(1), sudo(8)); the helper opens a kubeconfig the caller names in a child
 * process with the caller's uid, gid and groups (asCallerArgv), so the kernel decides, path components included, in
 * the one open the content then comes from. When it fails, one message covers "missing" and
 * "unreadable" alike: no size, existence or YAML-line oracle on root-only files.
 */
import { spawnSync } from 'node:child_process';
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { NoKubeconfigError, refuseKubeconfig } from '../core/cluster/errors';
import { ADMIN_KUBECONFIG } from '../core/cluster/kubeconfig';
import { MAX_KUBECONFIG_BYTES, readKubeconfigFile, type KubeconfigFile } from '../core/cluster/kubeconfig-file';

/** The caller's environment cannot be trusted to name who asked (refused, exit 3). */
export class CallerEnvError extends Error {
  readonly code = 'CALLER_ENV';
}

/** A uid as pkexec(1) and sudo(8) write it: decimal digits, no sign, no padding tricks. */
const UID_TEXT = /^(0|[1-9]\d{0,9})$/;

/**
 * The caller's uid from the one variable its elevation tool sets: pkexec(1) sets PKEXEC_UID and
 * resets the rest of the environment (so SUDO_UID cannot survive a pkexec); sudo(8) sets
 * SUDO_UID and, by default (env_reset), drops PKEXEC_UID. Both present can only be a crafted
 * environment (e.g. `sudo --preserve-env` with PKEXEC_UID=0 to pass as root): refused, as is
 * a value that is not a uid — never read as "no caller" (that skipped the check).
 * @returns the caller's uid; null when root ran the helper itself (no variable, or uid 0)
 * @throws CallerEnvError for both variables set, or a value that is not a decimal uid
 */
export function callerUid(env: NodeJS.ProcessEnv): number | null {
  const pkexec = env.PKEXEC_UID;
  const sudo = env.SUDO_UID;
  if (pkexec !== undefined && sudo !== undefined) {
    throw new CallerEnvError(`Both PKEXEC_UID (${JSON.stringify(pkexec.slice(0, 16))}) and SUDO_UID (${JSON.stringify(sudo.slice(0, 16))}) are set, which neither pkexec nor sudo does; run the helper through one of them with a clean environment (pkexec, or sudo without --preserve-env).`);
  }
  const [key, v] = pkexec !== undefined ? ['PKEXEC_UID', pkexec] : ['SUDO_UID', sudo];
  if (v === undefined) return null;
  if (!UID_TEXT.test(v) || Number(v) > 0xfffffffe) {
    throw new CallerEnvError(`${key} is ${JSON.stringify(v.slice(0, 16))}, not a uid; run the helper through pkexec or sudo with a clean environment.`);
  }
  return Number(v) === 0 ? null : Number(v);
}

/** The caller's primary gid and supplementary groups, from `id` (covers NSS users); uid-only when unknown. */
export function callerIds(uid: number): { gid: number; groups: number[] } {
  const id = (flag: string) => spawnSync('id', [flag, String(uid)], { encoding: 'utf8', timeout: 10_000 });
  const g = id('-g');
  const gs = id('-G');
  if (g.status !== 0 || gs.status !== 0) return { gid: uid, groups: [] };
  return { gid: Number(g.stdout.trim()), groups: gs.stdout.trim().split(/\s+/).filter((x) => x !== '').map(Number) };
}

/**
 * The reader run as the caller (node -e, argv[1] = the path): one open (O_NONBLOCK so a FIFO
 * cannot hang it, O_NOCTTY), fstat on that fd, then the bytes — the same rules as
 * readKubeconfigFile (kubeconfig-file.ts). Prints one JSON line: {uid, mode, text} or
 * {err: 'open', errno} / {err: 'notfile'} / {err: 'size', size}.
 */
const READ_AS_CALLER_JS = `
const fs = require('fs');
const out = (o) => process.stdout.write(JSON.stringify(o));
let fd;
try { fd = fs.openSync(process.argv[1], fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY); }
catch (e) { out({ err: 'open', errno: e.code }); process.exit(0); }
const st = fs.fstatSync(fd);
if (!st.isFile()) { out({ err: 'notfile' }); process.exit(0); }
if (st.size > ${MAX_KUBECONFIG_BYTES}) { out({ err: 'size', size: st.size }); process.exit(0); }
const buf = Buffer.alloc(st.size); let off = 0;
while (off < st.size) { const n = fs.readSync(fd, buf, off, st.size - off, off); if (n === 0) break; off += n; }
out({ uid: st.uid, mode: st.mode, text: buf.subarray(0, off).toString('utf8') });
`;

/**
 * argv that runs `command` with the caller's real and effective uid, gid and groups:
 * util-linux setpriv(1) `--reuid --regid --groups|--clear-groups`. A separate process, because
 * Node refuses set*id calls in-process where libuv may use io_uring (process.setgroups throws
 * "setgroups() disabled: io_uring may be enabled", CVE-2024-22017 — Debian 13's nodejs 20.19).
 */
export function asCallerArgv(uid: number, ids: { gid: number; groups: number[] }, command: string[]): string[] {
  const groups = ids.groups.length ? [`--groups=${ids.groups.join(',')}`] : ['--clear-groups'];
  return ['setpriv', `--reuid=${uid}`, `--regid=${ids.gid}`, ...groups, '--', ...command];
}

/**
 * Reads the kubeconfig at `path` for the helper with the caller's rights: a child process
 * running as the caller (asCallerArgv) opens it once and fstats that fd, so the kernel checks
 * every path component and symlink with the caller's rights, in the one open the content comes
 * from — there is no "check as the caller, then open as root" window to swap a symlink in.
 * Every failure to open is the one unreadableKubeconfigMessage (no existence oracle); other
 * refusals (not a regular file, too big) describe a file the caller can open itself.
 * @throws NoKubeconfigError; Error when the reader itself cannot run (no setpriv, timeout)
 */
export function readKubeconfigAsCaller(path: string, uid: number, ids = callerIds(uid)): KubeconfigFile {
  const [cmd, ...args] = asCallerArgv(uid, ids, [process.execPath, '-e', READ_AS_CALLER_JS, path]);
  const r = spawnSync(cmd!, args, { encoding: 'utf8', timeout: 15_000, maxBuffer: 4 * MAX_KUBECONFIG_BYTES + 65_536, env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' } });
  let o: { err?: string; errno?: string; size?: number; uid?: number; mode?: number; text?: string };
  try {
    if (r.error || r.status !== 0) throw new Error(r.error?.message ?? (r.stderr.trim().split('\n').at(-1) || `exit ${r.status}`));
    o = JSON.parse(r.stdout);
  } catch (err) {
    throw new Error(`Could not read the kubeconfig as the calling user (setpriv from util-linux): ${(err as Error).message}`);
  }
  if (o.err === 'open') throw new NoKubeconfigError([path], unreadableKubeconfigMessage(path));
  if (o.err === 'notfile') throw refuseKubeconfig(path, 'is not a regular file; pass the kubeconfig file itself with --kubeconfig.');
  if (o.err === 'size') throw refuseKubeconfig(path, `is ${o.size} bytes, more than a kubeconfig (${MAX_KUBECONFIG_BYTES} at most); pass the right file with --kubeconfig.`);
  return confirmRootOwner({ path, text: o.text ?? '', uid: o.uid ?? -1, mode: o.mode ?? 0 });
}

/**
 * The reader child's owner and mode are only its word: it runs as the caller, who may stop it
 * (SIGSTOP), copy its stdout with pidfd_getfd(2) (same uid, dumpable after setpriv's exec;
 * Debian's kernel leaves Yama's ptrace_scope at 0) and wrap its JSON in one of their own —
 * `{"uid":0,…,"text":"<exec plugin>","x":<the child's>}` made root run a user's exec plugin as
 * a "root-owned" kubeconfig (brk31). The owner is what judgeKubeconfig trusts with credential
 * plugins and file references, so a claim of root's (uid 0) is checked by root's own open of the
 * path (readKubeconfigFile): the same bytes, and root's fstat of that fd gives owner and mode.
 * Otherwise the owner is -1 (no one's: plugins and file references refused). A caller's own
 * file (their uid) needs no check: lying about it gains nothing. No new oracle: only a file
 * whose whole content the caller sent is ever accepted. Root opens only rootHeldFile's answer:
 * never a device, FIFO or a path the caller could swap (its open would have side effects).
 */
export function confirmRootOwner(file: KubeconfigFile, readAsRoot: (path: string) => KubeconfigFile = readRootHeldFile): KubeconfigFile {
  if (file.uid !== 0) return file;
  let own: KubeconfigFile;
  try {
    own = readAsRoot(file.path);
  } catch {
    return { ...file, uid: -1 };
  }
  return own.text === file.text ? { ...file, uid: own.uid, mode: own.mode } : { ...file, uid: -1 };
}

/**
 * `path` with its links resolved, when that is a root-owned regular file in directories that
 * only root can change (each one root-owned and not group/other-writable, or sticky, up to /:
 * as sshd's StrictModes asks), so no component can be swapped between this check and the
 * open; else null. Uses lstat/readlink only (realpath(3)): nothing is opened.
 */
export function rootHeldFile(path: string): string | null {
  let real: string;
  try {
    real = realpathSync.native(path);
    const file = lstatSync(real);
    if (!file.isFile() || file.uid !== 0) return null;
    for (let dir = dirname(real); ; dir = dirname(dir)) {
      const st = lstatSync(dir);
      // A sticky one (/tmp) may be writable: no one else can rename or delete root's entry in it.
      if (!st.isDirectory() || st.uid !== 0 || ((st.mode & 0o022) !== 0 && (st.mode & 0o1000) === 0)) return null;
      if (dir === '/') return real;
    }
  } catch {
    return null;
  }
}

/** Root's own read of a root-held file (rootHeldFile) at `path`; throws for any other. */
function readRootHeldFile(path: string): KubeconfigFile {
  const real = rootHeldFile(path);
  if (real === null) throw new Error('not a regular file in root-only directories');
  return { ...readKubeconfigFile(real, true), path };
}

/** The one message for a kubeconfig the caller cannot read (or that does not exist). */
export function unreadableKubeconfigMessage(path: string): string {
  return `The kubeconfig ${path} does not exist or you cannot read it; pass a kubeconfig your own user can read with --kubeconfig.`;
}

/** Run as the caller (argv[1] = the path): prints 1 when stat(2) of the path succeeds, else 0. */
const EXISTS_AS_CALLER_JS = `try { require('fs').statSync(process.argv[1]); process.stdout.write('1'); } catch { process.stdout.write('0'); }`;

/**
 * The existence check the helper's kubeconfig search uses: K2s's own admin.conf (a root path)
 * as root, every other candidate (the caller's ~/.kube/config, $KUBECONFIG entries, root's
 * ~/.kube/config) by stat(2) in a child run as the caller (asCallerArgv), so a path behind a
 * directory the caller cannot search — a symlink into a 0700 root directory, /root/.kube/config
 * — is false exactly like a missing one, and "No kubeconfig found" versus "you cannot read it"
 * reveals nothing about root-only paths. `uid` null (root ran the helper itself): root's check.
 * A child that cannot run (no setpriv, timeout) counts as "missing". The caller's groups are
 * looked up once, on the first caller-side check.
 */
export function callerSideExists(
  uid: number | null,
  deps: { rootExists?: (p: string) => boolean; callerExists?: (uid: number, p: string) => boolean } = {},
): (p: string) => boolean {
  const rootExists = deps.rootExists ?? ((p: string) => statSync(p, { throwIfNoEntry: false }) !== undefined);
  let ids: { gid: number; groups: number[] } | undefined;
  const callerExists =
    deps.callerExists ??
    ((u: number, p: string) => {
      const [cmd, ...args] = asCallerArgv(u, (ids ??= callerIds(u)), [process.execPath, '-e', EXISTS_AS_CALLER_JS, p]);
      const r = spawnSync(cmd!, args, { encoding: 'utf8', timeout: 15_000, env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' } });
      return r.status === 0 && r.stdout === '1';
    });
  return (p) => {
    if (uid === null || p === ADMIN_KUBECONFIG) {
      try {
        return rootExists(p);
      } catch {
        return false;
      }
    }
    return callerExists(uid, p);
  };
}
