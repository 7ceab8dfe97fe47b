import { afterEach, describe, expect, it } from 'vitest';
import { setCliName } from '../../shared/fix';
import { recoverNotRootOutput } from './recover-refusal';

describe('k2s-dns recover as a user (new-user walk: no REFUSED head, no JSON, sudo only)', () => {
  afterEach(() => setCliName('npx k2s-dns'));

  it('the head and code of start\'s and stop\'s refusals, sudo and `su -c`', () => {
    setCliName('k2s-dns');
    expect(recoverNotRootOutput(false, false, 0)).toBe("REFUSED [NOT_ROOT]: k2s-dns recover puts the saved resolver back: run it as root: `sudo k2s-dns recover`, or `su -c 'k2s-dns recover'` where sudo is not installed.");
    expect(recoverNotRootOutput(true, false, 0)).toBe("REFUSED [NOT_ROOT]: k2s-dns recover puts the saved resolver back: run it as root: `sudo k2s-dns recover --force`, or `su -c 'k2s-dns recover --force'` where sudo is not installed.");
  });

  it('with --json, one result object with exit status 3 and the code', () => {
    expect(JSON.parse(recoverNotRootOutput(false, true, 1_765_000_000_000))).toEqual({
      type: 'result',
      op: 'recover',
      ok: false,
      exitCode: 3,
      code: 'NOT_ROOT',
      message: "k2s-dns recover puts the saved resolver back: run it as root: `sudo npx k2s-dns recover`, or `su -c 'npx k2s-dns recover'` where sudo is not installed.",
      at: 1_765_000_000_000,
    });
  });
});
