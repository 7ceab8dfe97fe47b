/**
 * Signalling a PID found earlier (the project's rule: end only processes you started, by PID,
 * checked). A PID is reused once its process has gone, so the check is made right before the
 * kill(2): the process must still have the start time, namespaces and NSpid recorded when it
 * was found (outer-pid.ts sameProcess).
 */
import { sameProcess, type ProcessIdentity } from './outer-pid';

/**
 * Sends `signal` to `pid` only if it is still the process `identity` was taken from; true when
 * sent, false when the PID is gone or now names another process (nothing is sent then).
 * The check and the kill are not atomic (Linux has pidfd_open(2) for that; node has none), so
 * the window is that of one /proc read.
 */
export async function signalIfSame(pid: number, identity: ProcessIdentity, signal: NodeJS.Signals, proc = '/proc'): Promise<boolean> {
  if (!(await sameProcess(pid, identity, proc))) return false;
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false; // ESRCH: it ended in between
  }
}
