/**
 * New-user walk 24 #4: a `recover` that failed printed its long message twice — on its step line
 * and again as `k2s-dns recover failed: …`. Now once: the last line refers to the step (exit 1
 * kept); a failure no step line said is printed whole, as before. The recovery is a stand-in
 * emitting the events recover.ts emits; the printing is main's.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runMain as run } from './run-main.fixture';
import type { EventSink } from '../core/lifecycle/reporter';

const failure = { step: true, message: 'restoring /etc/resolv.conf failed: EROFS: read-only file system, open \'/etc/.resolv.conf.k2s-dns.tmp\'' };

vi.mock('../core/lifecycle/node-deps', () => ({ createNodeDeps: async () => ({ uid: () => 0 }) }));
vi.mock('../core/lifecycle/recover', () => ({
  recoverNow: async (_deps: unknown, sink: EventSink) => {
    if (failure.step) {
      sink({ type: 'step', op: 'stop', step: 'recover', status: 'running', message: 'A k2s-dns stop (PID 4242) was interrupted during "restore-resolver"; completing it.', at: 0 });
      sink({ type: 'step', op: 'stop', step: 'recover', status: 'failed', message: `Recovering the interrupted stop failed: ${failure.message}`, at: 0 });
    }
    throw new Error(failure.message);
  },
}));

afterEach(() => {
  failure.step = true;
});

describe('recover that fails: its message once', () => {
  it('said on the recover step line: the last line refers to it, exit 1', async () => {
    expect(await run(['recover'])).toEqual({
      code: 1,
      stdout: `✗ recover      Recovering the interrupted stop failed: ${failure.message}\n`,
      stderr: 'k2s-dns recover failed: see the recover step above.\n',
    });
  });

  it('said on no step line: printed whole on the last line, exit 1', async () => {
    failure.step = false;
    expect(await run(['recover'])).toEqual({ code: 1, stdout: '', stderr: `k2s-dns recover failed: ${failure.message}\n` });
  });
});
