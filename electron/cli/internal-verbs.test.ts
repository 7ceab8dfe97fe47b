import { describe, expect, it } from 'vitest';
import { FOLLOW_VERB as FOLLOWER_VERB } from '../core/host/follower';
import { FOLLOW_VERB, runInternalVerb } from './internal-verbs';

describe('internal verbs', () => {
  it('name the follower as host/follower.ts does', () => {
    expect(FOLLOW_VERB).toBe(FOLLOWER_VERB);
  });

  it('leave every other command, and follow-watch with arguments, to main.ts', async () => {
    expect(await runInternalVerb(['status'])).toBeNull();
    expect(await runInternalVerb(['follow-watch', '--now'])).toBeNull();
    expect(await runInternalVerb([])).toBeNull();
  });
});
