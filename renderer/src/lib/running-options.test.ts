import { describe, expect, it } from 'vitest';
import type { HostDnsStatus } from '../../../shared/types';
import { runningOptions } from './running-options';

const running: HostDnsStatus = { state: 'running', engine: 'adguard', engineVersion: null, listeners: [{ address: '127.0.0.1', port: 53 }], skippedListeners: [{ address: '172.19.1.1', reason: '172.19.1.1 is not assigned' }], resolverOwner: 'k2s', upstreams: ['192.0.2.53', '192.0.2.54:5353'], clusterDomain: 'cluster.local', kubeDnsIp: null, savedAt: '2026-12-04T19:00:00Z', savedBy: 'k2s-dns', pid: 4242, messages: [], operation: null, onNetworkChange: 'follow' };

describe('runningOptions (walk5 L6: the disabled Start options showed the stored preference, not what runs)', () => {
  it('the running start\'s network policy, KubeSwitch and upstreams', () => {
    expect(runningOptions(running)).toEqual({ onNetworkChange: 'follow', kubeSwitchMode: 'auto', upstreamsText: '192.0.2.53 192.0.2.54:5353' });
    expect(runningOptions({ ...running, onNetworkChange: 'keep', skippedListeners: [{ address: 'KubeSwitch', reason: 'disabled with --kubeswitch none' }] })).toMatchObject({ onNetworkChange: 'keep', kubeSwitchMode: 'none' });
    expect(runningOptions({ ...running, listeners: [...running.listeners, { address: '10.0.0.5', port: 53 }], skippedListeners: [] })).toMatchObject({ kubeSwitchMode: 'address', kubeSwitchAddress: '10.0.0.5' });
    expect(runningOptions({ ...running, listeners: [...running.listeners, { address: '172.19.1.1', port: 53 }], skippedListeners: [] })).toMatchObject({ kubeSwitchMode: 'auto' });
  });
  it('nothing while stopped or between; only the policy when the saved state is root-only', () => {
    expect(runningOptions({ ...running, state: 'stopped', savedAt: null })).toBeNull();
    expect(runningOptions({ ...running, state: 'starting' })).toBeNull();
    expect(runningOptions(null)).toBeNull();
    expect(runningOptions({ ...running, stateUnreadable: 'root only', listeners: [], upstreams: [] })).toEqual({ onNetworkChange: 'follow' });
  });
});
