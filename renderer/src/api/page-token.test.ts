import { describe, expect, it } from 'vitest';
import { badFragmentToken, takePageToken, tokenFromFragment, TOKEN_STORAGE_KEY, type PageLocation } from './page-token';

const T = 'ab'.repeat(32);

function fakeLocation(hash: string, stored: string | null = null) {
  const store = new Map<string, string>(stored ? [[TOKEN_STORAGE_KEY, stored]] : []);
  const replaced: string[] = [];
  const loc: PageLocation = {
    hash,
    pathname: '/',
    search: '',
    storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
    replaceUrl: (u) => void replaced.push(u),
  };
  return { loc, store, replaced };
}

describe('page token', () => {
  it('reads exactly 64 hex digits from #token=, alone or among other keys', () => {
    expect(tokenFromFragment(`#token=${T}`)).toBe(T);
    expect(tokenFromFragment(`#tab=zones&token=${T}`)).toBe(T);
    expect(tokenFromFragment(`#token=${T}x`)).toBeNull();
    expect(tokenFromFragment(`#token=${T.slice(1)}`)).toBeNull();
    expect(tokenFromFragment(`?token=${T}`)).toBeNull();
    expect(tokenFromFragment('')).toBeNull();
  });

  it('a #token= that is no token of the app (cut short, or not from k2s-dns ui): given back, so the screen says it is not this run\'s', () => {
    expect(badFragmentToken('#token=deadbeef')).toBe('deadbeef');
    expect(badFragmentToken(`#tab=zones&token=${T.slice(1)}`)).toBe(T.slice(1));
    expect(badFragmentToken('#token=')).toBe('');
    expect(badFragmentToken(`#token=${T}`)).toBeNull();
    expect(badFragmentToken('#tab=zones')).toBeNull();
    expect(badFragmentToken('')).toBeNull();
    expect(badFragmentToken(`#token=${'f'.repeat(200)}`)).toBe('f'.repeat(70));
  });

  it('strips the fragment from the address bar and keeps the token for a reload of the tab', () => {
    const first = fakeLocation(`#token=${T}`);
    expect(takePageToken(first.loc)).toBe(T);
    expect(first.replaced).toEqual(['/']);
    expect(first.store.get(TOKEN_STORAGE_KEY)).toBe(T);
    const reload = fakeLocation('', T);
    expect(takePageToken(reload.loc)).toBe(T);
    expect(reload.replaced).toEqual([]);
    expect(takePageToken(fakeLocation('').loc)).toBeNull();
  });
});
