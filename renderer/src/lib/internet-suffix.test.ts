/**
 * New-user walk: the window's Query tester suggested example.com.svc.cluster.local for example.com,
 * as `k2s-dns query` did before walk 18 M3: the tester now applies the same ICANN-suffix rule,
 * loaded on demand (the chunk this import resolves to), and the same summary words.
 */
import { describe, expect, it } from 'vitest';
import { explainSteps, explainSummary, internetNameOf } from '../../../shared/search-explain';
import { loadIcannSuffix } from './internet-suffix';

const cfg = { search: ['fritz.box'], ndots: 1, ndotsSet: false, noTldQuery: false };

/** The tester's "None of them resolves" line for `name`, every candidate NXDOMAIN, as QueryPanel builds it. */
async function noneLine(name: string): Promise<string> {
  const asked = [name, `${name}.fritz.box`].map((n) => ({ name: n, rcode: 'NXDOMAIN', answers: [] }));
  const walked = explainSteps(name, cfg, asked);
  return explainSummary(name, null, [], 'cluster.local', cfg, internetNameOf(name, await loadIcannSuffix(name), walked.steps));
}

describe('Query tester: an Internet name gets no cluster form', () => {
  it('loads the suffix rule on demand: com for example.com, none for cluster-looking names', async () => {
    expect(await loadIcannSuffix('example.com')).toBe('com');
    expect(await loadIcannSuffix('www.example.co.uk')).toBe('co.uk');
    expect(await loadIcannSuffix('kubernetes.default')).toBeNull();
    expect(await loadIcannSuffix('web.demo.svc')).toBeNull();
  });

  it('example.com: said to be an Internet name that does not exist; kubernetes.default keeps its cluster form', async () => {
    expect(await noneLine('example.com')).toBe('None of them resolves: the search list has no domain under which example.com exists. example.com is an Internet name (under the public suffix .com), not a cluster one, and the nameserver says it does not exist (NXDOMAIN).');
    expect(await noneLine('kubernetes.default')).toBe('None of them resolves: the search list has no domain under which kubernetes.default exists. Cluster names need their full form here, e.g. kubernetes.default.svc.cluster.local.');
  });
});
