import { describe, expect, it } from 'vitest';
import { compileCacheDir, ROOT_CACHE_DIR } from './cache-dir';

describe('compileCacheDir', () => {
  it('root uses /var/cache/k2s-dns whatever the environment says (sudo may keep the caller\'s XDG_CACHE_HOME and HOME)', () => {
    expect(compileCacheDir({ euid: 0, env: { XDG_CACHE_HOME: '/home/alice/.cache', HOME: '/home/alice' }, home: '/home/alice' })).toBe('/var/cache/k2s-dns');
    expect(ROOT_CACHE_DIR).toBe('/var/cache/k2s-dns');
  });

  it('a user uses $XDG_CACHE_HOME/k2s-dns, else ~/.cache/k2s-dns; a relative XDG_CACHE_HOME is ignored (XDG Base Directory spec)', () => {
    expect(compileCacheDir({ euid: 1000, env: { XDG_CACHE_HOME: '/home/alice/xdg' }, home: '/home/alice' })).toBe('/home/alice/xdg/k2s-dns');
    expect(compileCacheDir({ euid: 1000, env: {}, home: '/home/alice' })).toBe('/home/alice/.cache/k2s-dns');
    expect(compileCacheDir({ euid: 1000, env: { XDG_CACHE_HOME: 'rel/cache' }, home: '/home/alice' })).toBe('/home/alice/.cache/k2s-dns');
  });

  it('no home and no XDG_CACHE_HOME, or K2S_DNS_COMPILE_CACHE=0: no cache', () => {
    expect(compileCacheDir({ euid: 1000, env: {}, home: '' })).toBeNull();
    expect(compileCacheDir({ euid: 1000, env: { K2S_DNS_COMPILE_CACHE: '0' }, home: '/home/alice' })).toBeNull();
    expect(compileCacheDir({ euid: 0, env: { K2S_DNS_COMPILE_CACHE: '0' }, home: '/root' })).toBeNull();
  });
});
