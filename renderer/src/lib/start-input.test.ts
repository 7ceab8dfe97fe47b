import { describe, expect, it } from 'vitest';
import { startInputOf } from './start-input';

describe('startInputOf', () => {
  it('sends only what the user chose: allowed zones, engine, KubeSwitch', () => {
    expect(startInputOf({ engine: 'auto', kubeSwitchMode: 'auto', kubeSwitchAddress: '' }, [])).toEqual({});
    expect(startInputOf({ engine: 'dnsmasq', kubeSwitchMode: 'none', kubeSwitchAddress: '10.0.0.9' }, ['corp.example'])).toEqual({ allowZones: ['corp.example'], engine: 'dnsmasq', kubeSwitch: 'none' });
    expect(startInputOf({ engine: 'adguard', kubeSwitchMode: 'address', kubeSwitchAddress: ' 172.19.1.1 ' }, [])).toEqual({ engine: 'adguard', kubeSwitch: '172.19.1.1' });
    // An empty address field means "let discovery decide", not an empty address.
    expect(startInputOf({ engine: 'auto', kubeSwitchMode: 'address', kubeSwitchAddress: '  ' }, [])).toEqual({});
    // follow is the default: sent as nothing; keep is sent.
    expect(startInputOf({ engine: 'auto', kubeSwitchMode: 'auto', kubeSwitchAddress: '', onNetworkChange: 'follow' }, [])).toEqual({});
    expect(startInputOf({ engine: 'auto', kubeSwitchMode: 'auto', kubeSwitchAddress: '', onNetworkChange: 'keep' }, [])).toEqual({ onNetworkChange: 'keep' });
  });
});
