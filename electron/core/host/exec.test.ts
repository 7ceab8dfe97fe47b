/**
 * nodeExec.run's limits against real processes: a deadline ends the wait even when a process
 * the command started keeps its pipes open, and an output cap ends a command that prints
 * without end (break28: `status` waited 30 s for an engine binary whose `--version` was a script
 * running `sleep 30`, and died with "RangeError: Invalid string length" for one printing forever).
 */
import { describe, expect, it } from 'vitest';
import { nodeExec } from './exec';

describe('nodeExec.run limits', () => {
  it('a deadline ends the wait although a grandchild holds stdout open: the output so far, code null', async () => {
    // `sleep 45 &` inherits the pipes; without closing them on our side 'close' comes after 45 s.
    const r = await nodeExec.run('/bin/sh', ['-c', 'echo begun; sleep 45 & sleep 45'], { timeoutMs: 300 });
    expect(r).toEqual({ code: null, stdout: 'begun\n', stderr: '' });
  }, 30_000);

  it('maxOutputChars keeps that much of the output and kills the command', async () => {
    const r = await nodeExec.run('/bin/sh', ['-c', 'head -c 1048576 /dev/zero | tr "\\000" x; sleep 45'], { maxOutputChars: 65536 });
    expect(r.stdout).toBe('x'.repeat(65536));
    expect(r.code).toBeNull();
  }, 30_000);

  it('without limits, the whole output and the exit status', async () => {
    const r = await nodeExec.run('/bin/sh', ['-c', 'printf "é%.0s" $(seq 1 5000); echo err >&2; exit 3']);
    expect(r).toEqual({ code: 3, stdout: 'é'.repeat(5000), stderr: 'err\n' });
  });
});
