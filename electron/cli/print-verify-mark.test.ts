/** `start` output: a verify step that passed on an NXDOMAIN external check is marked `!`, not ✓ (shared/step-warn.ts). */
import { describe, expect, it } from 'vitest';
import type { LifecycleEvent } from '../../shared/lifecycle-events';
import { printEvent } from './print';

const verify = (message: string): LifecycleEvent => ({ type: 'step', op: 'start', step: 'verify', status: 'done', message, at: '' }) as never;
const printed = (e: LifecycleEvent) => {
  const lines: string[] = [];
  printEvent(e, false, (s) => lines.push(s));
  return lines;
};

describe('verify step mark', () => {
  it('NXDOMAIN from the upstream for the external name: "!"', () => {
    expect(printed(verify('kubernetes.default.svc.cluster.local → 172.21.0.1 through the proxy and getaddrinfo; kubernetes.io: nxdomain as from 192.0.2.53'))).toEqual([
      '! verify       kubernetes.default.svc.cluster.local → 172.21.0.1 through the proxy and getaddrinfo; kubernetes.io: nxdomain as from 192.0.2.53',
    ]);
  });
  it('an address from the upstream: ✓; other steps unchanged', () => {
    expect(printed(verify('… ; kubernetes.io: answer as from 192.0.2.53'))[0]).toMatch(/^✓ verify /);
    expect(printed({ ...(verify('x: nxdomain as from 192.0.2.53') as object), step: 'discover' } as never)[0]).toMatch(/^✓ discover /);
  });
});
