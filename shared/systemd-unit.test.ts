import { describe, expect, it } from 'vitest';
import { DNSPROXY_RUN_AS, quoteExecWord, renderUnit } from './systemd-unit';

describe('renderUnit', () => {
  it('renders the exact unit', () => {
    expect(
      renderUnit({
        argv: ['/opt/k2s/bin/dnsproxy', '--config-path=/etc/k2s/dnsproxy.yaml'],
        logFile: '/var/log/dnsproxy/dnsproxy.log',
        description: 'K2s DNS proxy',
      }),
    ).toBe(`# Managed by k2s-dns: written on start, removed on uninstall (same unit name as the k2s CLI).
[Unit]
Description=K2s DNS proxy
Documentation=man:k2s-dns(1) file:/usr/share/doc/k2s-dns/docs/host-integration.md.gz
StartLimitIntervalSec=60s
StartLimitBurst=10
Wants=network-online.target
After=network-online.target kubelet.service

[Service]
Type=simple
ExecStart=/opt/k2s/bin/dnsproxy --config-path=/etc/k2s/dnsproxy.yaml
StandardOutput=append:/var/log/dnsproxy/dnsproxy.log
StandardError=append:/var/log/dnsproxy/dnsproxy.log
UMask=0027
Restart=on-failure
RestartSec=1s

[Install]
WantedBy=multi-user.target
`);
  });

  it('quotes words per systemd.syntax(7): spaces, quotes, backslashes, specifiers, variables', () => {
    expect(quoteExecWord('--listen=127.0.0.1')).toBe('--listen=127.0.0.1');
    expect(quoteExecWord('a b')).toBe('"a b"');
    expect(quoteExecWord('x"y')).toBe('"x\\"y"');
    expect(quoteExecWord('c:\\d')).toBe('"c:\\\\d"');
    expect(quoteExecWord('100%')).toBe('"100%%"');
    expect(quoteExecWord('$HOME')).toBe('"$$HOME"');
    expect(quoteExecWord(';')).toBe('";"');
    expect(quoteExecWord('')).toBe('""');
    expect(quoteExecWord("it's")).toBe('"it\'s"');
  });

  it('rejects newlines, control characters and relative paths', () => {
    const ok = { argv: ['/usr/sbin/dnsmasq'], logFile: '/var/log/x.log', description: 'd' };
    expect(() => renderUnit({ ...ok, argv: ['/usr/sbin/dnsmasq', 'a\nExecStartPre=/bin/rm'] })).toThrow('contains a newline or control character');
    expect(() => renderUnit({ ...ok, description: 'x\ry' })).toThrow('Description "x\\ry" contains a newline');
    expect(() => renderUnit({ ...ok, logFile: '/var/log/a\tb' })).toThrow('Log file');
    expect(() => renderUnit({ ...ok, argv: ['dnsmasq'] })).toThrow('is not an absolute path; pass the full path');
    expect(() => renderUnit({ ...ok, argv: [] })).toThrow('is not an absolute path');
    expect(() => renderUnit({ ...ok, logFile: 'x.log' })).toThrow('The log file "x.log" is not an absolute path');
  });

  // Regression: main ran the AdGuard dnsproxy as root (the unit had no User=).
  it('runAs: the proxy runs as that user with only CAP_NET_BIND_SERVICE', () => {
    const unit = renderUnit({ argv: ['/opt/k2s/bin/dnsproxy', '--config-path=/etc/k2s/dnsproxy.yaml'], logFile: '/var/log/dnsproxy/dnsproxy.log', description: 'K2s DNS proxy', runAs: DNSPROXY_RUN_AS });
    expect(unit).toContain('StandardError=append:/var/log/dnsproxy/dnsproxy.log\nDynamicUser=yes\nAmbientCapabilities=CAP_NET_BIND_SERVICE\nCapabilityBoundingSet=CAP_NET_BIND_SERVICE\nNoNewPrivileges=yes\nUMask=0027\n');
    expect(() => renderUnit({ argv: ['/x'], logFile: '/l', description: 'd', runAs: { user: 'root\nExecStartPre=/bin/sh', group: 'x' } })).toThrow('is not a plain user and group name');
  });
});
