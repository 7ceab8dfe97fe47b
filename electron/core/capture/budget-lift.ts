/**
 * How the capture companion lifts the parser's CPU budget (cpu-budget.ts) for the stop's drain:
 * it ends a pipe the parser holds as fd LIFT_FD (pipeline.ts spawns it so); the parser lifts the
 * budget when that pipe ends or fails. A signal was used first (SIGUSR2), but a signal that
 * arrives before node has installed its handler runs the default action, and SIGUSR2's is to
 * terminate (signal(7)): a stop within the parser's first ~20 ms of starting (longer at idle
 * priority on a busy host) killed it, and with it the drain. The end of a pipe waits in the
 * pipe until read, so an early stop is seen whenever the parser gets to it.
 */
import { fstatSync } from 'node:fs';
import { Socket } from 'node:net';

/** The parser's fd of the lift pipe (its stdio[3], pipeline.ts). */
export const LIFT_FD = 3;

/**
 * The environment variable by which pipeline.ts tells the parser that its fd LIFT_FD is the lift
 * pipe. Without it fd 3 is never read: a parser started otherwise (the bench, by hand) may have
 * inherited an fd 3 that is someone else's (a parent's IPC channel), and reading it would take
 * that channel's bytes.
 */
export const LIFT_FD_ENV = 'K2S_CAPTURE_LIFT_FD';

/** The lift pipe's fd from LIFT_FD_ENV's value: LIFT_FD when it names it, else null (no pipe). */
export function liftFd(env: string | undefined): number | null {
  return env === String(LIFT_FD) ? LIFT_FD : null;
}

/**
 * Calls `lift` once when the pipe at `fd` ends, fails or is closed by the other side. Returns
 * false (and does nothing) when `fd` is not open or not a pipe or socket (the parser started by
 * hand or by the bench without it). The pipe never keeps the process alive (unref).
 */
export function onBudgetLift(fd: number, lift: () => void): boolean {
  let st;
  try {
    st = fstatSync(fd);
  } catch {
    return false;
  }
  if (!st.isFIFO() && !st.isSocket()) return false;
  const s = new Socket({ fd, readable: true, writable: false });
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    s.destroy();
    lift();
  };
  s.on('data', () => undefined);
  s.once('end', once);
  s.once('error', once);
  s.once('close', once);
  s.unref();
  return true;
}
