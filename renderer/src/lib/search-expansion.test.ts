import { describe, expect, it } from 'vitest';
import { searchExpansions } from './search-expansion';

describe('searchExpansions: a logged name that is another logged name plus a search domain', () => {
  it('marks the expansion of a name that already ends in the search domain (the third walk\'s pair)', () => {
    const m = searchExpansions(['early-marker-ui3.example.test', 'early-marker-ui3.example.test.example.test']);
    expect([...m]).toEqual([['early-marker-ui3.example.test.example.test', { base: 'early-marker-ui3.example.test', domain: 'example.test' }]]);
  });
  it('takes the longest base, compares case-insensitively, ignores a root dot', () => {
    const m = searchExpansions(['KUBERNETES.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local.']);
    expect(m.get('kubernetes.default.svc.cluster.local.')).toEqual({ base: 'kubernetes.default.svc', domain: 'cluster.local' });
    expect(m.get('kubernetes.default.svc')).toEqual({ base: 'KUBERNETES.default', domain: 'svc' });
    expect(m.has('KUBERNETES.default')).toBe(false);
  });
  it('a name alone, a shared suffix or a label prefix is no expansion', () => {
    expect(searchExpansions(['www.example.org', 'example.org', 'ww.example.org', 'www.example.orgx']).size).toBe(0);
    expect(searchExpansions(['.']).size).toBe(0);
  });
});
