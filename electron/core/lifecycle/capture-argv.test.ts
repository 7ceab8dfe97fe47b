import { describe, expect, it } from 'vitest';
import { captureArgvFor } from './capture-argv';

describe('captureArgvFor: the companion sees every port of the plan', () => {
  it('listeners (v4, [v6]), upstreams and zone upstreams on other ports, each port once, sorted', () => {
    const plan = {
      listeners: [{ address: '127.0.0.1', port: 53 }, { address: 'fd00::53', port: 53 }],
      upstreams: ['192.0.2.77', '198.51.100.9:5353'],
      zones: [{ zone: 'cluster.local', upstream: '172.21.0.10:1053' }],
    } as unknown as Parameters<typeof captureArgvFor>[1];
    expect(captureArgvFor(['/usr/bin/node', 'k2s-dns.mjs', 'capture-watch'], plan)).toEqual(['/usr/bin/node', 'k2s-dns.mjs', 'capture-watch', '--listen', '127.0.0.1:53', '--listen', '[fd00::53]:53', '--port', '53', '--port', '1053', '--port', '5353']);
  });
});
