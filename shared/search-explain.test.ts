import { describe, expect, it } from 'vitest';
import { icannSuffixOf } from './internet-suffix';
import { explainLines, explainSteps, needsSearchExplain, resultNeedsSearchExplain, searchConfigPhrase } from './search-explain';
import { ndotsWords, parseSearchConfig } from './search-list';

const cfg = parseSearchConfig('nameserver 192.0.2.53\nsearch corp.example lan\n');

describe('needsSearchExplain', () => {
  it('relative names and .svc names that got NXDOMAIN or no answer; not IPs, absolute names or answers', () => {
    expect([needsSearchExplain('kubernetes.default', 'NXDOMAIN', 0), needsSearchExplain('web', 'NOERROR', 0), needsSearchExplain('my.ns.svc.', 'NXDOMAIN', 0)]).toEqual([true, true, true]);
    expect([needsSearchExplain('10.0.0.1', 'NXDOMAIN', 0), needsSearchExplain('a.example.', 'NXDOMAIN', 0), needsSearchExplain('web', 'NOERROR', 1), needsSearchExplain('web', 'TIMEOUT', 0)]).toEqual([false, false, false, false]);
  });
});

describe('explainLines', () => {
  it('marks what glibc never asks after the answer and names where it stops', () => {
    const answers = [
      { name: 'printer', rcode: 'NXDOMAIN', answers: [] },
      { name: 'printer.corp.example', rcode: 'NOERROR', answers: ['10.1.2.3'] },
      { name: 'printer.lan', rcode: 'NOERROR', answers: ['192.168.1.9'] },
    ];
    expect(explainSteps('printer', cfg, answers).answered).toBe('printer.corp.example');
    expect(explainLines({ name: 'printer', target: 'server', cfg, clusterDomain: 'cluster.local', answers })).toEqual([
      "a nameserver asked directly gets printer as it is; host apps (glibc, /etc/resolv.conf: search corp.example lan, glibc's default ndots:1, resolv.conf(5)) ask, in order:",
      '  1. printer.corp.example → NOERROR 10.1.2.3',
      '  2. printer.lan → NOERROR 192.168.1.9 (not asked: glibc stopped before it)',
      '  3. printer → NXDOMAIN (not asked: glibc stopped before it)',
      'glibc stops at printer.corp.example: it resolves (10.1.2.3), so host apps get that answer for printer.',
    ]);
  });
});

describe('the summary when none resolves (walk 18 M3)', () => {
  const answers = (name: string) => [
    { name, rcode: 'NXDOMAIN', answers: [] },
    { name: `${name}.corp.example`, rcode: 'NXDOMAIN', answers: [] },
    { name: `${name}.lan`, rcode: 'NXDOMAIN', answers: [] },
  ];
  it('an Internet name (example.com): said not to exist, no cluster form', () => {
    expect(icannSuffixOf('example.com')).toBe('com');
    const lines = explainLines({ name: 'example.com', target: 'system', cfg, clusterDomain: 'cluster.local', answers: answers('example.com'), internetSuffix: icannSuffixOf('example.com') });
    expect(lines.at(-1)).toBe('None of them resolves: the search list has no domain under which example.com exists. example.com is an Internet name (under the public suffix .com), not a cluster one, and the nameserver says it does not exist (NXDOMAIN).');
  });
  it('a name that looks like service.namespace (kubernetes.default) or a short one keeps the cluster form', () => {
    expect(icannSuffixOf('kubernetes.default')).toBe(null);
    expect(icannSuffixOf('web')).toBe(null);
    expect(explainLines({ name: 'kubernetes.default', target: 'system', cfg, clusterDomain: 'cluster.local', answers: answers('kubernetes.default'), internetSuffix: icannSuffixOf('kubernetes.default') }).at(-1)).toBe('None of them resolves: the search list has no domain under which kubernetes.default exists. Cluster names need their full form here, e.g. kubernetes.default.svc.cluster.local.');
  });
});

describe('a cluster name asked through the host\'s resolver while K2s DNS is stopped (new-user walk)', () => {
  const name = 'kubernetes.default.svc.cluster.local';
  const answers = [name, `${name}.corp.example`, `${name}.lan`].map((n) => ({ name: n, rcode: 'NXDOMAIN', answers: [] }));
  it('the cause is the stopped K2s DNS, with the line that starts it; not the search list', () => {
    const lines = explainLines({ name, target: 'system', cfg, clusterDomain: null, answers, stoppedStart: 'sudo k2s-dns start' });
    expect(lines.at(-1)).toBe("None of them resolves: K2s DNS is not running, so nothing answers for cluster.local (the host's nameservers do not serve cluster zones): run sudo k2s-dns start first.");
    // The zone a start recorded, ASCII case aside; a name outside it keeps the search-list words.
    expect(explainLines({ name: 'Web.Apps.K2S.Example', target: 'system', cfg, clusterDomain: 'k2s.example', answers, stoppedStart: 'sudo k2s-dns start' }).at(-1)).toMatch(/^None of them resolves: K2s DNS is not running, so nothing answers for k2s\.example /);
    expect(explainLines({ name: 'printer', target: 'system', cfg, clusterDomain: null, answers, stoppedStart: 'sudo k2s-dns start' }).at(-1)).toMatch(/^None of them resolves: the search list has no domain under which printer exists\./);
    // Running (no stoppedStart): as before.
    expect(explainLines({ name, target: 'system', cfg, clusterDomain: 'cluster.local', answers }).at(-1)).toBe(`None of them resolves: the search list has no domain under which ${name} exists.`);
  });
});

describe('explainSteps with a search domain listed twice', () => {
  it('glibc stops at the first copy: the second is not asked, nor anything after it', () => {
    const cfg = parseSearchConfig('search a.example a.example b.example\nnameserver 192.0.2.53\n');
    const { steps, answered } = explainSteps('web', cfg, [
      { name: 'web.a.example', rcode: 'NOERROR', answers: ['192.0.2.1'] },
      { name: 'web.b.example', rcode: 'NXDOMAIN', answers: [] },
      { name: 'web', rcode: 'NXDOMAIN', answers: [] },
    ]);
    expect(answered).toBe('web.a.example');
    expect(steps.map((s) => [s.name, s.asked])).toEqual([['web.a.example', true], ['web.a.example', false], ['web.b.example', false], ['web', false]]);
  });

  it('a timeout at the first copy ends the loop: the name as it is is still asked last', () => {
    const cfg = parseSearchConfig('search a.example a.example\nnameserver 192.0.2.53\n');
    const { steps } = explainSteps('web', cfg, [
      { name: 'web.a.example', rcode: 'TIMEOUT', answers: [] },
      { name: 'web', rcode: 'NXDOMAIN', answers: [] },
    ]);
    expect(steps.map((s) => [s.name, s.asked])).toEqual([['web.a.example', true], ['web.a.example', false], ['web', true]]);
  });
});

describe('explainLines with a search domain glibc cannot send (search a.example corp..example b.example)', () => {
  it('says the empty-label candidate was not sent and ended the search list; b.example is not asked', () => {
    const bad = parseSearchConfig('search a.example corp..example b.example\n');
    const answers = [
      { name: 'web.a.example', rcode: 'NXDOMAIN', answers: [] },
      { name: 'web', rcode: 'NXDOMAIN', answers: [] },
    ];
    expect(explainLines({ name: 'web', target: 'system', cfg: bad, clusterDomain: 'cluster.local', answers }).slice(1, 5)).toEqual([
      '  1. web.a.example → NXDOMAIN',
      '  2. web.corp..example → not sent (it has an empty label (two dots in a row); glibc cannot build the query and ends the search list here)',
      '  3. web.b.example → not asked (not asked: glibc stopped before it)',
      '  4. web → NXDOMAIN',
    ]);
  });
});

describe('ndots in words (issue 20 low: "ndots:1 in /etc/resolv.conf" with no options line)', () => {
  it("no ndots option: glibc's default; an options line: the file's", () => {
    expect(searchConfigPhrase(parseSearchConfig('search lan\nnameserver 192.0.2.53\n'))).toBe("search lan, glibc's default ndots:1");
    expect(searchConfigPhrase(parseSearchConfig('search lan\noptions ndots:1\n'))).toBe('search lan, ndots:1');
    expect(ndotsWords(parseSearchConfig('nameserver 192.0.2.53\n'))).toBe("glibc's default ndots:1 (no ndots option in /etc/resolv.conf)");
    expect(ndotsWords(parseSearchConfig('options ndots:5\n'))).toBe('ndots:5 in /etc/resolv.conf');
  });
});

describe('resultNeedsSearchExplain: never for a PTR lookup (second walk high)', () => {
  it('an NXDOMAIN for the reverse name of 172.21.0.10 from one target needs no search-list explanation; a short A name still does', () => {
    expect(needsSearchExplain('10.0.21.172.in-addr.arpa', 'NXDOMAIN', 0)).toBe(true); // the name alone looks relative: why the type decides
    expect(resultNeedsSearchExplain({ name: '10.0.21.172.in-addr.arpa', type: 'PTR', rcode: 'NXDOMAIN', answers: [] })).toBe(false);
    expect(resultNeedsSearchExplain({ name: '172.21.0.10', type: 'PTR', rcode: 'NXDOMAIN', answers: [] })).toBe(false);
    expect(resultNeedsSearchExplain({ name: 'kubernetes.default', type: 'A', rcode: 'NXDOMAIN', answers: [] })).toBe(true);
  });
});
