import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../shared/error-codes';
import { didCommandWork } from './full-run';

describe('didCommandWork', () => {
  it('a run that ended done, failed or with no working resolver did the command\'s work', () => {
    expect(didCommandWork(['stop'], EXIT.ok)).toBe(true);
    expect(didCommandWork(['status', '--json'], EXIT.failed)).toBe(true);
    expect(didCommandWork(['stop', '--on-drift', 'keep'], EXIT.resolverDown)).toBe(true);
  });

  it('a usage error, a refusal (NOT_ROOT, BUSY), busy, a crash or a signal did not', () => {
    for (const code of [EXIT.usage, EXIT.refused, EXIT.busy, 7, 13, 130, 143]) expect(didCommandWork(['stop'], code)).toBe(false);
  });

  it('help asked anywhere before `--` did not, even with status 0', () => {
    expect(didCommandWork(['stop', '--help'], EXIT.ok)).toBe(false);
    expect(didCommandWork(['start', '--json', '-h'], EXIT.ok)).toBe(false);
    expect(didCommandWork(['query', '--', '--help'], EXIT.ok)).toBe(true);
  });
});
