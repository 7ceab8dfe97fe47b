import { describe, expect, it } from 'vitest';
import { clientOptions, upstreamPolicy } from './upstream-policy';

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
