import { describe, expect, it } from 'vitest';
import { applyRouteArgs, loopbackNameservers, managedNameserverOnResolvedHost, nsswitchHostsSources, parseResolvectlQuery, revertRouteArgs, routingDomains } from './resolved-link';

describe('routing-only link', () => {
  it('turns cluster zones into ~domains, lower-cased, trailing dot and duplicates dropped', () => {
    expect(routingDomains(['cluster.local', 'Cluster.Local.', '21.172.in-addr.arpa', '20.172.in-addr.arpa'])).toEqual(['~cluster.local', '~21.172.in-addr.arpa', '~20.172.in-addr.arpa']);
    expect(() => routingDomains(['bad zone'])).toThrow('is not a plain domain name');
    expect(() => routingDomains(['~x'])).toThrow('is not a plain domain name');
  });

  it('is one server, ~domains and no default route on the K2s link; revert drops it all', () => {
    expect(applyRouteArgs({ link: 'k2s-proxy0', address: '172.19.1.1', domains: ['~cluster.local', '~21.172.in-addr.arpa'] })).toEqual([
      ['dns', 'k2s-proxy0', '172.19.1.1'],
      ['domain', 'k2s-proxy0', '~cluster.local', '~21.172.in-addr.arpa'],
      ['default-route', 'k2s-proxy0', 'no'],
    ]);
    expect(revertRouteArgs('k2s-proxy0')).toEqual(['revert', 'k2s-proxy0']);
  });
});

describe('nameserver of the K2s-owned resolv.conf on a resolved host', () => {
  it('the stub when the original named only the stub and it answers; else the KubeSwitch address, never 127.0.0.1', () => {
    expect(managedNameserverOnResolvedHost({ originalNameservers: ['127.0.0.53'], stubAnswers: true, kubeSwitch: '172.19.1.1' })).toBe('127.0.0.53');
    expect(managedNameserverOnResolvedHost({ originalNameservers: ['127.0.0.53'], stubAnswers: false, kubeSwitch: '172.19.1.1' })).toBe('172.19.1.1');
    expect(managedNameserverOnResolvedHost({ originalNameservers: ['192.0.2.53', '127.0.0.53'], stubAnswers: true, kubeSwitch: '172.19.1.1' })).toBe('172.19.1.1');
    expect(managedNameserverOnResolvedHost({ originalNameservers: [], stubAnswers: true, kubeSwitch: '172.19.1.1' })).toBe('172.19.1.1');
  });
});

describe('parsers', () => {
  it('nsswitch hosts sources, actions dropped, last hosts line wins, glibc default without one', () => {
    expect(nsswitchHostsSources('passwd: files\nhosts:          files resolve [!UNAVAIL=return] dns myhostname\n')).toEqual(['files', 'resolve', 'dns', 'myhostname']);
    expect(nsswitchHostsSources('hosts: files dns # comment resolve\n')).toEqual(['files', 'dns']);
    expect(nsswitchHostsSources('hosts: dns\nhosts: files mdns4_minimal [NOTFOUND=return] resolve\n')).toEqual(['files', 'mdns4_minimal', 'resolve']);
    expect(nsswitchHostsSources('passwd: files\n')).toEqual(['files', 'dns']);
  });

  it('resolvectl query output: addresses with the link that answered (systemd 257 format)', () => {
    const out = 'kubernetes.default.svc.cluster.local: 172.21.0.1  -- link: k2s-proxy0\n\n-- Information acquired via protocol DNS in 1.9ms.\n-- Data is authenticated: no; Data was acquired via local or encrypted transport: no\n-- Data from: network\n';
    expect(parseResolvectlQuery(out)).toEqual([{ address: '172.21.0.1', link: 'k2s-proxy0' }]);
    expect(parseResolvectlQuery('example.org: 192.0.2.10                 -- link: eth0\n             2001:db8::10               -- link: eth0\n')).toEqual([
      { address: '192.0.2.10', link: 'eth0' },
      { address: '2001:db8::10', link: 'eth0' },
    ]);
    expect(parseResolvectlQuery('kubernetes.default.svc.cluster.local: resolve call failed: \'kubernetes.default.svc.cluster.local\' not found\n')).toEqual([]);
  });

  it('loopback nameservers in any spelling; others and comments are not', () => {
    expect(loopbackNameservers('# nameserver 127.0.0.1\nnameserver 192.0.2.53\nnameserver 127.0.0.53\nnameserver ::1\nnameserver ::ffff:127.0.0.1\nnameserver 0.0.0.0\nnameserver 172.19.1.1\n')).toEqual(['127.0.0.53', '::1', '::ffff:127.0.0.1', '0.0.0.0']);
    expect(loopbackNameservers('nameserver 192.0.2.53\n')).toEqual([]);
  });
});
