import { describe, expect, it } from 'vitest';
import { unusedAllows } from './allow-zones';
import { zonesFromCorefile } from './corefile';

describe('unusedAllows', () => {
  it('null when every allow forwarded a zone', () => {
    expect(unusedAllows(['test'], ['test'])).toBeNull();
    expect(unusedAllows([], [])).toBeNull();
  });

  it('names the allows that forwarded nothing, once each, and counts past four', () => {
    expect(unusedAllows(['example.test', 'example.test', 'test'], ['test'])).toBe(
      'Allowed zone example.test changed nothing: no zone the Corefile serves was refused by that name, so none is forwarded because of it (check the spelling against the zones listed).',
    );
    expect(unusedAllows(['a', 'b', 'c', 'd', 'e', 'f'], [])).toMatch(/^Allowed zones a, b, c, d and 2 more changed nothing: .* refused by those names, so none is forwarded because of them /);
  });

  it('the zone policy says it for an allow of a zone the Corefile does not serve, and not for one it forwarded', () => {
    const corefile = '.:53 {\n  kubernetes cluster.local in-addr.arpa ip6.arpa\n  forward . /etc/resolv.conf\n}\ntest:53 {\n  forward . 10.0.0.1\n}\n';
    const base = { corefile, kubeDnsIp: '172.20.0.10', serviceCidrs: ['172.20.0.0/16'], podCidrs: [] };
    const used = zonesFromCorefile({ ...base, allowZones: ['test'] });
    expect(used.allowed).toEqual(['test']);
    expect(used.warnings.filter((w) => w.startsWith('Allowed zone'))).toEqual([]);
    const typo = zonesFromCorefile({ ...base, allowZones: ['tset'] });
    expect(typo.allowed).toEqual([]);
    expect(typo.warnings).toContain('Allowed zone tset changed nothing: no zone the Corefile serves was refused by that name, so none is forwarded because of it (check the spelling against the zones listed).');
  });
});
