import { describe, expect, it } from 'vitest';
import { CONTRACT } from './contract';
import { kubeSwitchRefusal } from './kubeswitch-address';

describe('kubeSwitchRefusal: the KubeSwitch listener sits on private space only', () => {
  it.each(['172.19.1.1', '10.0.0.1', '192.168.178.2', '100.64.0.1', 'none'])('accepts %s', (a) => {
    expect(kubeSwitchRefusal(a)).toBeNull();
  });

  it.each(['8.8.8.8', '127.0.0.2', '127.0.0.1', '169.254.1.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '172.32.0.1', 'fd00::1', '172.19.1.01', '172.19.1.1\nnameserver 6.6.6.6', ''])('refuses %j, naming what is allowed', (a) => {
    expect(kubeSwitchRefusal(a)).toMatch(/^--kubeswitch must be a private IPv4 address assigned to this host \(RFC 1918 10\/8, 172\.16\/12, 192\.168\/16 or RFC 6598 100\.64\/10; K2s uses 172\.19\.1\.1\) or none, not "/);
  });

  it('the dns:start contract refuses 8.8.8.8 and 127.0.0.2 and keeps 172.19.1.1', () => {
    const s = CONTRACT['dns:start'].input;
    expect(s.safeParse({ kubeSwitch: '8.8.8.8' }).success).toBe(false);
    expect(s.safeParse({ kubeSwitch: '127.0.0.2' }).success).toBe(false);
    expect(s.parse({ kubeSwitch: '172.19.1.1' })).toEqual({ kubeSwitch: '172.19.1.1' });
  });
});
