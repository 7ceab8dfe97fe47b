import { describe, expect, it } from 'vitest';
import { stepWarns } from './step-warn';

describe('stepWarns (verify step marks)', () => {
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
});
