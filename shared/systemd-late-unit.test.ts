import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DNSPROXY_RUN_AS, LATE_UNIT_NAME, renderLateListenerUnit, renderUnit, WAIT_FOR_ADDRESSES_SCRIPT, type ServiceSpec } from './systemd-unit';
import { lateListenersFor } from '../electron/core/lifecycle/proxy-config';
import { renderDnsmasqArgs } from './dnsmasq-config';

const ARGV = ['/opt/k2s/bin/dnsproxy', '--config-path=/etc/k2s/dnsproxy.yaml', '-v'];
const LISTENERS = [
  { address: '127.0.0.1', port: 53 },
  { address: '172.19.1.1', port: 53 },
];

describe('lateListenersFor (KubeSwitch listener of AdGuard dnsproxy in its own unit, -l overrides the YAML)', () => {
  it('adguard: loopback in the main unit, the KubeSwitch address in the late one, both with the same config', () => {
    expect(lateListenersFor('adguard', ARGV, LISTENERS)).toEqual({
      mainArgv: [...ARGV, '-l', '127.0.0.1'],
      addresses: ['172.19.1.1'],
      argv: [...ARGV, '-l', '172.19.1.1'],
    });
  });
  it('none when every listener is loopback, or none is', () => {
    expect(lateListenersFor('adguard', ARGV, [LISTENERS[0]!])).toBeUndefined();
    expect(lateListenersFor('dnsmasq', DNSMASQ_ARGV, [LISTENERS[0]!])).toBeUndefined();
    expect(lateListenersFor('dnsmasq', DNSMASQ_ARGV, [LISTENERS[1]!])).toBeUndefined();
  });
});

const DNSMASQ_BASE = ['/usr/sbin/dnsmasq', '--keep-in-foreground', '--conf-file=/etc/k2s/dnsmasq.conf', '--pid-file='];
const DROP = ['--user=nobody', '--group=nogroup'];
const DNSMASQ_ARGV = ['/usr/sbin/dnsmasq', ...renderDnsmasqArgs('/etc/k2s/dnsmasq.conf', ['127.0.0.1', '172.19.1.1'])];

describe('lateListenersFor (dnsmasq: two processes from one config without listen-address lines)', () => {
  it('each process gets only its own --listen-address= flags (they add to the config\'s), both keep --user=nobody', () => {
    expect(DNSMASQ_ARGV).toEqual([...DNSMASQ_BASE, '--listen-address=127.0.0.1', '--listen-address=172.19.1.1', ...DROP]);
    expect(lateListenersFor('dnsmasq', DNSMASQ_ARGV, LISTENERS)).toEqual({
      mainArgv: [...DNSMASQ_BASE, '--listen-address=127.0.0.1', ...DROP],
      addresses: ['172.19.1.1'],
      argv: [...DNSMASQ_BASE, '--listen-address=172.19.1.1', ...DROP],
    });
  });
  it('refuses an argv without listen flags (nothing to split)', () => {
    expect(() => lateListenersFor('dnsmasq', DNSMASQ_BASE, LISTENERS)).toThrow(/no --listen-address= flag/);
  });
  it('renders the units: the main one binds 127.0.0.1 only, the late one waits for 172.19.1.1; no DynamicUser (dnsmasq drops root itself)', () => {
    const spec: ServiceSpec = { argv: DNSMASQ_ARGV, logFile: '/var/log/dnsproxy/dnsproxy.log', description: 'K2s DNS proxy (dnsmasq)', lateListeners: lateListenersFor('dnsmasq', DNSMASQ_ARGV, LISTENERS)! };
    expect(renderUnit(spec)).toContain('\nExecStart=/usr/sbin/dnsmasq --keep-in-foreground --conf-file=/etc/k2s/dnsmasq.conf --pid-file= --listen-address=127.0.0.1 --user=nobody --group=nogroup\n');
    const late = renderLateListenerUnit(spec);
    expect(late).toContain(`" ${LATE_UNIT_NAME} 172.19.1.1 -- /usr/sbin/dnsmasq --keep-in-foreground --conf-file=/etc/k2s/dnsmasq.conf --pid-file= --listen-address=172.19.1.1 --user=nobody --group=nogroup\n`);
    expect(late).toContain('\nPartOf=k2s-dnsproxy.service\n');
    expect(late).not.toContain('DynamicUser=');
  });
});

describe('renderLateListenerUnit', () => {
  const spec: ServiceSpec = {
    argv: ARGV,
    logFile: '/var/log/dnsproxy/dnsproxy.log',
    description: 'K2s DNS proxy (adguard)',
    runAs: DNSPROXY_RUN_AS,
    lateListeners: lateListenersFor('adguard', ARGV, LISTENERS)!,
  };
  it('main unit serves loopback only; the late unit waits for 172.19.1.1, is PartOf, Requisite and WantedBy the main unit, same account and log', () => {
    expect(renderUnit(spec)).toContain('ExecStart=/opt/k2s/bin/dnsproxy --config-path=/etc/k2s/dnsproxy.yaml -v -l 127.0.0.1\n');
    const late = renderLateListenerUnit(spec);
    expect(late).toContain('\nPartOf=k2s-dnsproxy.service\n');
    expect(late).toContain(`ExecStart=/bin/bash -c "${WAIT_FOR_ADDRESSES_SCRIPT.replace(/\$/g, '$$$$').replace(/"/g, '\\"')}" ${LATE_UNIT_NAME} 172.19.1.1 -- /opt/k2s/bin/dnsproxy --config-path=/etc/k2s/dnsproxy.yaml -v -l 172.19.1.1\n`);
    // Tied to the main unit (COMPANION_TIE): pulled in by its start only, never running alone.
    for (const line of ['StandardOutput=append:/var/log/dnsproxy/dnsproxy.log', 'DynamicUser=yes', 'CapabilityBoundingSet=CAP_NET_BIND_SERVICE', 'Restart=on-failure', 'Requisite=k2s-dnsproxy.service', 'After=k2s-dnsproxy.service', 'WantedBy=k2s-dnsproxy.service']) {
      expect(late).toContain(`\n${line}\n`);
    }
    expect(() => renderLateListenerUnit({ ...spec, lateListeners: { ...spec.lateListeners!, addresses: ['1.2.3.4; reboot'] } })).toThrow(/not a plain IPv4 or IPv6/);
  });
  it('the wait script execs the listener at once when the address is assigned (127.0.0.1), passing its argv unchanged', () => {
    const r = spawnSync('bash', ['-c', WAIT_FOR_ADDRESSES_SCRIPT, LATE_UNIT_NAME, '127.0.0.1', '--', 'printf', '%s|', 'a b', '$x'], { encoding: 'utf8', timeout: 10_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('a b|$x|');
  });
});
