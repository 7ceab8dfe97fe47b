import { describe, expect, it } from 'vitest';
import { serviceUnitOfCgroup } from './cgroup-unit';

describe('serviceUnitOfCgroup', () => {
  it('names the system service of a cgroup v2 or v1 line, also below a service\'s own sub-cgroups', () => {
    expect(serviceUnitOfCgroup('0::/system.slice/dnsmasq.service\n')).toBe('dnsmasq.service');
    expect(serviceUnitOfCgroup('0::/system.slice/system-getty.slice/getty@tty1.service\n')).toBe('getty@tty1.service');
    expect(serviceUnitOfCgroup('0::/system.slice/named.service/payload\n')).toBe('named.service');
    expect(serviceUnitOfCgroup('12:pids:/system.slice/named.service\n1:name=systemd:/system.slice/named.service\n0::/system.slice/named.service\n')).toBe('named.service');
    expect(serviceUnitOfCgroup('11:memory:/\n1:name=systemd:/system.slice/bind9.service\n')).toBe('bind9.service');
  });

  it('null for a login session, a container scope, init, a user manager\'s service, the namespace root or no text', () => {
    expect(serviceUnitOfCgroup('0::/user.slice/user-1000.slice/session-3.scope\n')).toBeNull();
    expect(serviceUnitOfCgroup('0::/system.slice/docker-0123abcd.scope\n')).toBeNull();
    expect(serviceUnitOfCgroup('0::/init.scope\n')).toBeNull();
    expect(serviceUnitOfCgroup('0::/user.slice/user-1000.slice/user@1000.service/app.slice/dnsmasq.service\n')).toBeNull();
    expect(serviceUnitOfCgroup('0::/\n')).toBeNull();
    expect(serviceUnitOfCgroup('')).toBeNull();
  });
});
