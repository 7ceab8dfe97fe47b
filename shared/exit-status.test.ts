import { describe, expect, it } from 'vitest';
import { exitPredicate, exitStatusWords, lastRunWords } from './exit-status';
import { parseUnitRunState } from './systemd-show';

describe('exitPredicate / lastRunWords', () => {
  it("reads every form systemd's ExecMainCode gives as a sentence (new-user walk 20: `it killed by signal KILL`)", () => {
    const how = (code: number, status: number) => parseUnitRunState(`ExecMainCode=${code}\nExecMainStatus=${status}\n`).lastExit!;
    expect(lastRunWords(how(1, 1))).toBe('the last run exited with status 1');
    expect(lastRunWords(how(2, 9))).toBe('the last run was killed by signal KILL');
    expect(lastRunWords(how(3, 11))).toBe('the last run was killed by signal SEGV (core dumped)');
  });

  it('passes the watchdog\'s words and already passive or other forms through once', () => {
    expect(exitPredicate(exitStatusWords(137))).toBe('was killed by signal KILL (exit status 137)');
    expect(exitPredicate('was killed by signal KILL')).toBe('was killed by signal KILL');
    expect(exitPredicate('failed (its next attempt is starting)')).toBe('failed (its next attempt is starting)');
    expect(lastRunWords('ended')).toBe('the last run ended');
  });
});
