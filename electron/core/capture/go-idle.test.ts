import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHRT_PATHS, goIdle, goNormal, NO_CHRT_WORDS } from './go-idle';
import { SCHED_IDLE, schedPolicyOf } from './sched-policy';

const dir = mkdtempSync(join(tmpdir(), 'k2s-go-idle-'));
const started: ChildProcess[] = [];
afterAll(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A real process to switch: sleep, started at this process's priority. */
async function sleeper(): Promise<number> {
  const c = spawn('sleep', ['60'], { stdio: 'ignore' });
  started.push(c);
  await new Promise((r) => c.once('spawn', r));
  return c.pid!;
}
const policyOf = (pid: number) => schedPolicyOf(readFileSync(`/proc/${pid}/stat`, 'utf8'));
const hasChrt = CHRT_PATHS.some((p) => {
  try {
    readFileSync(p);
    return true;
  } catch {
    return false;
  }
});

describe('goIdle', () => {
  it.skipIf(!hasChrt)('switches running processes to SCHED_IDLE (two at once)', async () => {
    const [a, b] = [await sleeper(), await sleeper()];
    expect(policyOf(a)).not.toBe(SCHED_IDLE);
    expect(await goIdle([a, b])).toEqual({ idle: true, why: null });
    expect([policyOf(a), policyOf(b)]).toEqual([SCHED_IDLE, SCHED_IDLE]);
    // Back to normal for a stop.
    await goNormal([a, b]);
    expect([policyOf(a), policyOf(b)]).toEqual([0, 0]);
  });

  it('without chrt: says so, and the process keeps its policy', async () => {
    const a = await sleeper();
    const before = policyOf(a);
    expect(await goIdle([a], [join(dir, 'no-chrt')])).toEqual({ idle: false, why: NO_CHRT_WORDS });
    expect(policyOf(a)).toBe(before);
  });

  it("chrt failing (e.g. seccomp refusing sched_setscheduler): says chrt's own error", async () => {
    const fake = join(dir, 'chrt');
    writeFileSync(fake, "#!/bin/sh\necho \"chrt: failed to set pid $5's policy: Operation not permitted\" >&2\nexit 1\n", { mode: 0o755 });
    const a = await sleeper();
    expect(await goIdle([a], [fake])).toEqual({ idle: false, why: `chrt could not set idle priority (SCHED_IDLE): chrt: failed to set pid ${a}'s policy: Operation not permitted; the exact query log runs at normal priority and competes with DNS for the CPU.` });
  });
});
