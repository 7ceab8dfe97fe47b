import { describe, expect, it } from 'vitest';
import { clientOptions, glibcAtoi, upstreamPolicy } from './upstream-policy';

describe('upstreamPolicy (resolv.conf(5) options as glibc reads them)', () => {
  it('defaults to glibc order, 5 s, 2 attempts', () => {
    expect(upstreamPolicy({ options: [] })).toEqual({ order: 'ordered', timeoutMs: 5000, attempts: 2 });
  });
  it('reads timeout, attempts and rotate; the last repeated option wins; caps at 30 s and 5 attempts', () => {
    expect(upstreamPolicy({ options: ['timeout:1', 'attempts:3', 'rotate'] })).toEqual({ order: 'rotate', timeoutMs: 1000, attempts: 3 });
    expect(upstreamPolicy({ options: ['timeout:2', 'timeout:7'] }).timeoutMs).toBe(7000);
    expect(upstreamPolicy({ options: ['timeout:99', 'attempts:9'] })).toEqual({ order: 'ordered', timeoutMs: 30_000, attempts: 5 });
  });
  it('waits at least 1 s per nameserver and ignores malformed or unknown options', () => {
    expect(upstreamPolicy({ options: ['timeout:0', 'attempts:0', 'timeout:x', 'edns0'] })).toEqual({ order: 'ordered', timeoutMs: 1000, attempts: 1 });
  });
});

describe('glibcAtoi and option values as res_init.c reads them', () => {
  it('reads the leading decimal digits like atoi(3)', () => {
    expect([glibcAtoi('2.5'), glibcAtoi('3x'), glibcAtoi('x'), glibcAtoi(''), glibcAtoi('+4'), glibcAtoi('-2'), glibcAtoi('0x9'), glibcAtoi('007')]).toEqual([2, 3, 0, 0, 4, -2, 0, 7]);
  });
  it('saturates past long and keeps the low 32 bits, as (int) strtol does on LP64', () => {
    expect(glibcAtoi('4294967297')).toBe(1);
    expect(glibcAtoi('99999999999999999999999')).toBe(-1);
    expect(glibcAtoi('-99999999999999999999999')).toBe(0);
  });
  it('timeout:2.5 is 2 s and attempts:3.9 is 3 (glibc), not 2.5 s or the default', () => {
    expect(upstreamPolicy({ options: ['timeout:2.5', 'attempts:3.9'] })).toEqual({ order: 'ordered', timeoutMs: 2000, attempts: 3 });
    expect(upstreamPolicy({ options: ['timeout:x'] }).timeoutMs).toBe(1000);
    expect(upstreamPolicy({ options: ['timeout:-4', 'attempts:-1'] })).toEqual({ order: 'ordered', timeoutMs: 1000, attempts: 1 });
    expect(upstreamPolicy({ options: ['timeout:4294967298'] }).timeoutMs).toBe(2000);
  });
  it('replaces an attempts:2.5 token too (glibc reads it as attempts)', () => {
    expect(clientOptions(['attempts:2.5', 'timeout:1.5'], 2)).toEqual(['attempts:5', 'timeout:1.5']);
  });
});

describe('clientOptions (the K2s-owned file lists one nameserver)', () => {
  it('keeps the options with one upstream', () => {
    expect(clientOptions(['timeout:1', 'attempts:1'], 1)).toEqual(['timeout:1', 'attempts:1']);
  });
  it('raises attempts to attempts × upstreams + 1 (at most 5) in place of the last attempts option', () => {
    expect(clientOptions(['attempts:1', 'ndots:2', 'timeout:1', 'attempts:1'], 2)).toEqual(['ndots:2', 'timeout:1', 'attempts:3']);
    expect(clientOptions(['edns0'], 2)).toEqual(['edns0', 'attempts:5']);
    expect(clientOptions(['attempts:3'], 3)).toEqual(['attempts:5']);
  });
});
