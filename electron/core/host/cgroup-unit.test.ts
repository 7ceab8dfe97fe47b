import { describe, expect, it } from 'vitest';
import { inServiceCgroup, serviceUnitOfCgroup } from './cgroup-unit';

describe('serviceUnitOfCgroup', () => {
  it('names the system service of a cgroup v2 or v1 line, also below a service\'s own sub-cgroups', () => {
    expect(serviceUnitOfCgroup('0::/system.slice/dnsmasq.service\n')).toBe('dnsmasq.service');
    expect(serviceUnitOfCgroup('0::/system.slice/system-getty.slice/getty@tty1.service\n')).toBe('getty@tty1.service');
    expect(serviceUnitOfCgroup('0::/system.slice/named.service/payload\n')).toBe('named.service');
    expect(serviceUnitOfCgroup('12:pids:/system.slice/named.service\n1:name=systemd:/system.slice/named.service\n0::/system.slice/named.service\n')).toBe('named.service');
    expect(serviceUnitOfCgroup('11:memory:/\n1:name=systemd:/system.slice/bind9.service\n')).toBe('bind9.service');
    // systemd's legacy (v1-only) layout after cgroup v2 was mounted somewhere: the kernel lists `0::/` too.
    expect(serviceUnitOfCgroup('12:name=systemd:/system.slice/bind9.service\n4:pids:/system.slice/bind9.service\n0::/\n')).toBe('bind9.service');
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

describe('inServiceCgroup', () => {
  it('true in a system service, below one, in a user manager\'s services (each killed with its unit), or for no cgroup line', () => {
    expect(inServiceCgroup('0::/system.slice/run-u12.service\n')).toBe(true);
    expect(inServiceCgroup('0::/system.slice/named.service/payload\n')).toBe(true);
    expect(inServiceCgroup('0::/user.slice/user-0.slice/user@0.service/app.slice/run-u3.service\n')).toBe(true);
    expect(inServiceCgroup('11:memory:/\n1:name=systemd:/system.slice/cron.service\n')).toBe(true);
    // systemd's legacy (v1-only) layout after cgroup v2 was mounted somewhere: the kernel lists `0::/` too.
    expect(inServiceCgroup('12:name=systemd:/system.slice/run-u7.service\n5:memory:/system.slice/run-u7.service\n0::/\n')).toBe(true);
    expect(inServiceCgroup('')).toBe(true);
  });

  it('false in a login session, a container scope, a desktop scope below the user manager, init, the namespace root or outside its view', () => {
    expect(inServiceCgroup('0::/user.slice/user-0.slice/session-3.scope\n')).toBe(false);
    expect(inServiceCgroup('0::/system.slice/docker-0123abcd.scope\n')).toBe(false);
    expect(inServiceCgroup('0::/init.scope\n')).toBe(false);
    // A desktop terminal's or app's scope below the user manager (GNOME, KDE): not killed as the command exits.
    expect(inServiceCgroup('0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-org.gnome.Terminal.slice/vte-spawn-4b1c.scope\n')).toBe(false);
    expect(inServiceCgroup('0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-k2s\\x2ddns-812.scope\n')).toBe(false);
    expect(inServiceCgroup('0::/user.slice/user-0.slice/user@0.service/init.scope\n')).toBe(false);
    expect(inServiceCgroup('0::/\n')).toBe(false);
    expect(inServiceCgroup('0::/../..\n')).toBe(false);
    expect(inServiceCgroup('9:name=systemd:/\n4:memory:/x\n0::/\n')).toBe(false);
  });
});
