import { describe, expect, it } from 'vitest';
import { splitNameMatch, splitNameTail } from './name-tail';

describe('splitNameTail: a name gives way in the middle, its last two labels stay', () => {
  it('a name and its search-domain expansion keep different tails', () => {
    expect(splitNameTail('kubernetes.default.svc.cluster.local')).toEqual({ head: 'kubernetes.default.svc.', tail: 'cluster.local' });
    expect(splitNameTail('kubernetes.default.svc.cluster.local.example.test')).toEqual({ head: 'kubernetes.default.svc.cluster.local.', tail: 'example.test' });
  });
  it('short names and the root dot', () => {
    expect(splitNameTail('example.com')).toEqual({ head: '', tail: 'example.com' });
    expect(splitNameTail('www')).toEqual({ head: '', tail: 'www' });
    expect(splitNameTail('a.b.c.')).toEqual({ head: 'a.', tail: 'b.c.' });
    expect(splitNameTail('.')).toEqual({ head: '', tail: '.' });
  });
});

describe('splitNameMatch: where the query filter matched the name (issue 20 low)', () => {
  it('splits around the first match, case-insensitive, keeping the name\'s own case', () => {
    expect(splitNameMatch('kubernetes.default.svc.cluster.local', 'default')).toEqual({ pre: 'kubernetes.', match: 'default', post: '.svc.cluster.local' });
    expect(splitNameMatch('KUBERNETES.DEFAULT.svc.cluster.local', ' default ')).toEqual({ pre: 'KUBERNETES.', match: 'DEFAULT', post: '.svc.cluster.local' });
    expect(splitNameMatch('www.example.test', 'www')).toEqual({ pre: '', match: 'www', post: '.example.test' });
  });
  it('null for no filter, or one that matched another field', () => {
    expect(splitNameMatch('www.example.test', '')).toBeNull();
    expect(splitNameMatch('www.example.test', '   ')).toBeNull();
    expect(splitNameMatch('www.example.test', '172.21.0.10')).toBeNull();
  });
});
