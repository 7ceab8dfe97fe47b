import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dnsmasqDropFrom, renderDnsmasqArgs, renderDnsmasqConfig } from './dnsmasq-config';
import { testPlan, testRoute } from '../e2e/support/test-plan';

const HEADER =
  '# Written by k2s-dns (K2s host DNS) from the cluster it discovered; rewritten on every start,\n' +
  '# so edit the cluster (Corefile, CIDRs) or the original resolv.conf instead of this file.\n';

describe('renderDnsmasqConfig', () => {
  it('renders the exact file for the K2s defaults', () => {
    expect(renderDnsmasqConfig(testPlan({ engine: 'dnsmasq' }))).toBe(
      HEADER +
        [
          '',
          '# Upstreams come only from the server= lines below, never from a resolv.conf.',
          'no-resolv',
          '# glibc reads /etc/hosts itself; the original nameservers never answered from it either.',
          'no-hosts',
          '# Bind only the listed addresses: coexists with other DNS servers and fails when one is missing.',
          '# The addresses are --listen-address= on the command line: all in k2s-dnsproxy, or on systemd',
          '# the loopback ones there and the others in k2s-dnsproxy-kubeswitch (once they are assigned).',
          'bind-interfaces',
          'port=53',
          '# DNS only, never DHCP.',
          'no-dhcp-interface=',
          '# Cluster zones go to kube-dns (most specific zone wins; reverse zones are plain zones here).',
          '# cluster.local: Corefile server block ".:53", plugin "kubernetes"',
          'server=/cluster.local/172.21.0.10',
          '# consul.internal: Corefile server block "consul.internal:53", plugin "forward"',
          'server=/consul.internal/172.21.0.10',
          '# 20.172.in-addr.arpa: pod CIDR 172.20.0.0/16',
          'server=/20.172.in-addr.arpa/172.21.0.10',
          '# 21.172.in-addr.arpa: service CIDR 172.21.0.0/16',
          'server=/21.172.in-addr.arpa/172.21.0.10',
          '# Everything else goes to the nameservers of the resolv.conf saved at start.',
          '# In their order, the next one only when one fails, as glibc asked them (no "options rotate").',
          'strict-order',
          'server=192.168.1.1',
          'server=fe80::1%wlp2s0',
          'cache-size=1000',
          'log-facility=/var/log/dnsproxy/dnsproxy.log',
          '',
        ].join('\n'),
    );
  });

  it('writes ports with # and log-queries when verbose', () => {
    const text = renderDnsmasqConfig(
      testPlan({
        zones: [testRoute('mesh.local', 'm\nserver=/x/6.6.6.6', '172.19.1.100:8600'), testRoute('k8s.corp', 'k', '[fd00::10]:53')],
        upstreams: ['10.0.0.1:5353', '10.0.0.1:5353'],
        verbose: true,
      }),
    );
    const lines = text.split('\n');
    expect(lines.filter((l) => l.startsWith('server='))).toEqual([
      'server=/mesh.local/172.19.1.100#8600',
      'server=/k8s.corp/fd00::10',
      'server=10.0.0.1#5353',
    ]);
    // A newline in a reason cannot smuggle a directive out of its comment.
    expect(lines).toContain('# mesh.local: m server=/x/6.6.6.6');
    expect(lines.slice(-3)).toEqual(['# One log line per query, forward and reply, each with the query serial (verbose).', 'log-queries=extra', '']);
  });

  it('throws on unsafe or impossible plans', () => {
    expect(() => renderDnsmasqConfig(testPlan({ upstreams: [] }))).toThrow('The proxy has no default upstream');
    expect(() => renderDnsmasqConfig(testPlan({ logFile: '/var/log/x\nserver=6.6.6.6' }))).toThrow('must be an absolute plain path');
    expect(() => renderDnsmasqConfig(testPlan({ zones: [testRoute('a/b', 'x')] }))).toThrow('is not a plain domain name');
    expect(() => renderDnsmasqConfig(testPlan({ listeners: [{ address: 'localhost', port: 53 }] }))).toThrow(
      'Listener address "localhost" is not an IP address',
    );
  });

  const hasDnsmasq = spawnSync('dnsmasq', ['--version']).status === 0;
  const title = hasDnsmasq ? 'passes dnsmasq --test' : 'skipped: dnsmasq is not installed, so dnsmasq --test cannot run';
  it.skipIf(!hasDnsmasq)(title, () => {
    const dir = mkdtempSync(join(tmpdir(), 'k2s-dnsmasq-test-'));
    const conf = join(dir, 'dnsmasq.conf');
    // dnsmasq resolves an IPv6 %zone to an interface while parsing: use one every host has.
    const plan = testPlan({ logFile: join(dir, 'dnsmasq.log'), verbose: true, upstreams: ['192.168.1.1', 'fe80::1%lo', '10.0.0.1:5353'] });
    writeFileSync(conf, renderDnsmasqConfig(plan));
    const res = spawnSync('dnsmasq', ['--test', ...renderDnsmasqArgs(conf, ['127.0.0.1', '172.19.1.1'])], { encoding: 'utf8' });
    rmSync(dir, { recursive: true, force: true });
    expect(res.stderr.trim()).toBe('dnsmasq: syntax check OK.');
    expect(res.status).toBe(0);
  });
});

describe('renderDnsmasqArgs', () => {
  it('renders the exact argv, one --listen-address= per address (the config has none)', () => {
    expect(renderDnsmasqArgs('/etc/k2s/dnsmasq.conf', ['127.0.0.1', '172.19.1.1', '127.0.0.1'])).toEqual([
      '--keep-in-foreground',
      '--conf-file=/etc/k2s/dnsmasq.conf',
      '--pid-file=',
      '--listen-address=127.0.0.1',
      '--listen-address=172.19.1.1',
      // Regression: main ran dnsmasq as --user=root on the pod-facing address.
      '--user=nobody',
      '--group=nogroup',
    ]);
    expect(() => renderDnsmasqArgs('/etc/k2s/$(x).conf', ['127.0.0.1'])).toThrow('must be an absolute plain path');
    expect(() => renderDnsmasqArgs('/etc/k2s/dnsmasq.conf', ['127.0.0.1 --user=root'])).toThrow('is not an IP address');
    expect(() => renderDnsmasqArgs('/etc/k2s/dnsmasq.conf', [])).toThrow('has no listener');
  });

  it("drops to the account it is given: Debian's dnsmasq user, as one exact word; never an option or a second word", () => {
    const argv = renderDnsmasqArgs('/etc/k2s/dnsmasq.conf', ['127.0.0.1'], 'dnsmasq');
    expect(argv.slice(-2)).toEqual(['--user=dnsmasq', '--group=nogroup']);
    expect(argv.filter((w) => w.startsWith('--user'))).toEqual(['--user=dnsmasq']);
    expect(() => renderDnsmasqArgs('/etc/k2s/dnsmasq.conf', ['127.0.0.1'], 'root --user=x')).toThrow('is not a plain user name');
    expect(() => renderDnsmasqArgs('/etc/k2s/dnsmasq.conf', ['127.0.0.1'], '')).toThrow('is not a plain user name');
  });
});

describe('dnsmasqDropFrom (the account dnsmasq drops to, from /etc/passwd)', () => {
  // The Debian 13 rootfs's lines (dnsmasq-base's postinst created the user, primary group nogroup).
  const DEBIAN13 = 'root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\ndnsmasq:x:994:65534:dnsmasq:/var/lib/misc:/usr/sbin/nologin\n';

  it("Debian's dnsmasq system user when /etc/passwd has it: --user=dnsmasq, no warning", () => {
    const drop = dnsmasqDropFrom(DEBIAN13);
    expect(drop).toEqual({ user: 'dnsmasq', group: 'nogroup', warning: null });
    expect(renderDnsmasqArgs('/etc/k2s/dnsmasq.conf', ['127.0.0.1'], drop.user)).toContain('--user=dnsmasq');
  });

  it('no dnsmasq user: falls back to nobody and says so once, with the fix', () => {
    const drop = dnsmasqDropFrom('root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n');
    expect(drop.user).toBe('nobody');
    expect(drop.group).toBe('nogroup');
    expect(drop.warning).toBe(
      'dnsmasq runs as the shared account nobody (this host has no dnsmasq system user), which then also owns the proxy log: other programs running as nobody can read and change it; install dnsmasq-base (its package creates the dnsmasq user) and start again.',
    );
    expect(renderDnsmasqArgs('/etc/k2s/dnsmasq.conf', ['127.0.0.1'], drop.user).slice(-2)).toEqual(['--user=nobody', '--group=nogroup']);
    // An unreadable /etc/passwd reads as empty: the fallback too.
    expect(dnsmasqDropFrom('').user).toBe('nobody');
  });

  it('a dnsmasq account with uid 0 (dnsmasq would stay root), a malformed uid, or only a longer name is not taken', () => {
    expect(dnsmasqDropFrom('dnsmasq:x:0:0::/:/bin/sh\n').user).toBe('nobody');
    expect(dnsmasqDropFrom('dnsmasq:x::65534::/:/bin/sh\n').user).toBe('nobody');
    expect(dnsmasqDropFrom('dnsmasq2:x:994:65534::/:/bin/sh\nxdnsmasq:x:995:65534::/:/bin/sh\n').user).toBe('nobody');
  });
});
