/**
 * The `nsenter` lines `npm run try-package` prints for a shell in the booted test host
 * (e2e/bed/debian-host.ts). nsenter(1) takes a PID of the namespace it runs in, so the line must
 * name the host systemd's PID out here, not its sandbox PID (an unrelated process here has that
 * number: with -m -p -n, a root shell in the real machine). Each line also first compares the
 * target's mount namespace and start time with the test host systemd's, so a pasted line refuses
 * to run once the PID has been reused after the test host stopped (the mount namespace alone is
 * not enough: the kernel reuses namespace inode numbers, and two runs of try-package in a row
 * got the same `mnt:[…]`).
 */
import { readFile } from 'node:fs/promises';
import { outerPidOf, processIdentity, type ProcessIdentity } from './outer-pid';

/** The argv[0] debian-host.sh execs as the test host's init. */
export const TEST_HOST_INIT = '/usr/lib/systemd/systemd';

/** The test host's systemd as seen from outside the sandbox. */
export interface TestHostTarget {
  /** Its PID in this (the machine's) PID namespace: what nsenter -t takes. */
  pid: number;
  identity: ProcessIdentity;
}

/**
 * Finds the test host's systemd, a descendant of `sandbox` (sandbox.sh's PID) whose PID inside
 * the sandbox is `hostPid1Inside` (DebianHost.pid1()), and checks it is that systemd: PID 1 of
 * its own PID namespace (the last NSpid entry) running TEST_HOST_INIT (/proc/PID/cmdline).
 * Null when no such process runs. Reads /proc only.
 */
export async function findTestHost(sandbox: number, hostPid1Inside: number, proc = '/proc'): Promise<TestHostTarget | null> {
  const pid = await outerPidOf(sandbox, hostPid1Inside, proc);
  if (pid === null) return null;
  const identity = await processIdentity(pid, proc);
  const argv0 = (await readFile(`${proc}/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0')[0];
  if (!identity || identity.nspid.at(-1) !== 1 || argv0 !== TEST_HOST_INIT) return null;
  return { pid, identity };
}

/** Single-quotes `s` for a POSIX shell. */
const shq = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * Ready-to-paste root command lines for a shell inside the test host as `user` and as root:
 * nsenter(1) into the namespaces of `target`, guarded by a check of its mount namespace
 * (`readlink /proc/PID/ns/mnt`) and start time (field 22 of /proc/PID/stat, proc(5); systemd's
 * command name has no space, and any other name with one fails the check) against the test
 * host systemd's; it prints why and does nothing when either differs — that line alone: a PID
 * that is gone (the line pasted after the run) reads as empty, never `cut: /proc/PID/stat: No
 * such file or directory` before it (new user, session 30).
 */
export function hostShellLines(target: TestHostTarget, user: string): string[] {
  const { pid } = target;
  const expected = shq(`${target.identity.mntNs} ${target.identity.startTicks}`);
  const guard = `[ "$(readlink /proc/${pid}/ns/mnt 2>/dev/null) $(cut -d' ' -f22 /proc/${pid}/stat 2>/dev/null)" = ${expected} ] || { echo 'PID ${pid} is not the test host any more' >&2; false; } &&`;
  const enter = `nsenter -t ${pid} -m -u -p -n -C -r -w --`;
  return [`  as ${user}: ${guard} ${enter} runuser -l ${user}`, `  as root: ${guard} ${enter} bash -l`];
}
