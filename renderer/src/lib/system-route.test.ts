/** The System resolver's route in the Query tester (issue 20 low: it showed none). */
import { describe, expect, it } from 'vitest';
import { systemRoute } from './system-route';

const LISTENERS = [{ address: '127.0.0.1', port: 53 }, { address: '172.19.1.1', port: 53 }];

describe('systemRoute', () => {
  it('K2s-owned /etc/resolv.conf: through the proxy listener its nameserver names', () => {
    expect(systemRoute('# K2s DNS\nnameserver 127.0.0.1\nsearch cluster.local\n', LISTENERS)).toEqual({ viaK2s: true, words: '/etc/resolv.conf → nameserver 127.0.0.1 → k2s-dnsproxy (127.0.0.1:53)' });
    expect(systemRoute('nameserver 172.19.1.1\n', LISTENERS).words).toBe('/etc/resolv.conf → nameserver 172.19.1.1 → k2s-dnsproxy (172.19.1.1:53)');
  });

  it('no nameserver line: glibc asks 127.0.0.1, the proxy while it runs', () => {
    expect(systemRoute('search example.test\n', LISTENERS)).toEqual({ viaK2s: true, words: '/etc/resolv.conf → no nameserver line, so glibc asks 127.0.0.1 → k2s-dnsproxy (127.0.0.1:53)' });
  });

  it("the host's own nameserver, or K2s DNS stopped: not through the proxy", () => {
    expect(systemRoute('nameserver 192.0.2.53\nnameserver 127.0.0.1\n', LISTENERS)).toEqual({ viaK2s: false, words: '/etc/resolv.conf → nameserver 192.0.2.53, not through the K2s proxy' });
    expect(systemRoute('nameserver 127.0.0.1\n', [])).toEqual({ viaK2s: false, words: '/etc/resolv.conf → nameserver 127.0.0.1, not through the K2s proxy' });
  });
});
