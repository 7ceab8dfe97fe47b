import { describe, expect, it } from 'vitest';
import { splitNameTail } from './name-tail';

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
