import { describe, expect, it } from 'vitest';
import { stepWarns } from './step-warn';

describe('stepWarns (verify and restore step marks)', () => {
  const ok = 'kubernetes.default.svc.cluster.local → 172.21.0.1 through the proxy and getaddrinfo; ';
  it('an address from the upstream is a plain ✓', () => {
    expect(stepWarns('verify', 'done', `${ok}www.example.test: answer as from 192.0.2.53`)).toBe(false);
  });
  it('NXDOMAIN from the upstream, or a skipped external check (upstream silent), is a warning mark', () => {
    expect(stepWarns('verify', 'done', `${ok}kubernetes.io: nxdomain as from 192.0.2.53`)).toBe(true);
    expect(stepWarns('verify', 'done', `${ok}kubernetes.io: skipped (the upstream did not answer: offline host?)`)).toBe(true);
  });
  it('other steps and unfinished steps never warn', () => {
    expect(stepWarns('service', 'done', 'x: nxdomain as from 1.2.3.4')).toBe(false);
    expect(stepWarns('verify', 'failed', `${ok}kubernetes.io: nxdomain as from 192.0.2.53`)).toBe(false);
  });
  it('a restore step that kept their file and left no name resolving is a warning mark, not a green done (walk 5 L12)', () => {
    const kept = 'Kept the /etc/resolv.conf someone else wrote while K2s ran (nameserver 192.0.2.53 → 127.0.0.1); the copy saved at start was discarded.';
    expect(stepWarns('restore', 'done', `${kept} No name resolves on this host now: nothing answers on 127.0.0.1:53 (the kept file lists only 127.0.0.1); put a nameserver that answers into /etc/resolv.conf.`)).toBe(true);
    expect(stepWarns('restore', 'done', kept)).toBe(false);
    expect(stepWarns('restore', 'done', 'Restored the original saved at 2026-12-04T19:05:45.674Z, byte for byte.')).toBe(false);
  });
});
