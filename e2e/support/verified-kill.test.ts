import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { processIdentity } from './outer-pid';
import { signalIfSame } from './verified-kill';

let child: ChildProcess | null = null;
afterEach(() => {
  // Our own child, by its PID, if a test left it running.
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = null;
});

/** A child that waits on its stdin (no sleep), and a promise of the signal that ended it. */
function waiter(): { pid: number; ended: Promise<NodeJS.Signals | null> } {
  child = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] });
  const ended = new Promise<NodeJS.Signals | null>((r) => child!.once('exit', (_code, signal) => r(signal)));
  return { pid: child.pid!, ended };
}

describe('signalIfSame', () => {
  it('signals the process whose identity was recorded', async () => {
    const w = waiter();
    const id = (await processIdentity(w.pid))!;
    expect(await signalIfSame(w.pid, id, 'SIGTERM')).toBe(true);
    expect(await w.ended).toBe('SIGTERM');
  });

  it('sends nothing when the PID now names another process (another start time or namespace)', async () => {
    const w = waiter();
    const id = (await processIdentity(w.pid))!;
    expect(await signalIfSame(w.pid, { ...id, startTicks: String(Number(id.startTicks) + 1) }, 'SIGTERM')).toBe(false);
    expect(await signalIfSame(w.pid, { ...id, pidNs: 'pid:[1]' }, 'SIGTERM')).toBe(false);
    expect(child!.exitCode).toBeNull();
    expect(child!.signalCode).toBeNull();
    // Still running: closing its stdin ends it normally (exit code 0, no signal).
    child!.stdin!.end();
    expect(await w.ended).toBeNull();
  });
});
