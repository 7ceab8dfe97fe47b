import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MANAGED_HEADER, MANAGED_NOTE } from './k2s-paths';
import { parseResolvConf, renderManagedResolvConf } from './resolv-conf';

const dir = join(import.meta.dirname, '..', 'fixtures', 'resolv');
const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Record<
  string,
  { nameservers: string[]; search: string[]; options: string[] }
>;
const files = readdirSync(dir).filter((f) => f.endsWith('.conf'));

describe('parseResolvConf on fixtures/resolv', () => {
  it('has an expectation for every fixture file', () => {
    expect(files.sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(files)('%s', (file) => {
    const conf = parseResolvConf(readFileSync(join(dir, file), 'utf8'));
    const want = expected[file]!;
    expect(conf.nameservers).toEqual(want.nameservers);
    expect(conf.search).toEqual(want.search);
    expect(conf.options).toEqual(want.options);
  });

  it('keeps odd lines of odd-lines.conf in unknown and sortlist', () => {
    const conf = parseResolvConf(readFileSync(join(dir, 'odd-lines.conf'), 'utf8'));
    expect(conf.unknown).toEqual(['nameserver', 'unknown-directive foo']);
    expect(conf.sortlist).toEqual(['130.155.160.0/255.255.240.0']);
  });
});

describe('parseResolvConf edge cases', () => {
  it('reads IPv6 with %zone, no trailing newline, and trailing ; comments', () => {
    const conf = parseResolvConf('nameserver fe80::1%wlp2s0 ; router\r\nsearch a.example ;b.example');
    expect(conf.nameservers).toEqual(['fe80::1%wlp2s0']);
    expect(conf.search).toEqual(['a.example']);
  });

  it('sends invalid nameservers to unknown and lets domain override an earlier search', () => {
    const conf = parseResolvConf('nameserver dns.example\nnameserver 300.1.1.1\nsearch x.example y.example\ndomain z.example\n');
    expect(conf.nameservers).toEqual([]);
    expect(conf.unknown).toEqual(['nameserver dns.example', 'nameserver 300.1.1.1']);
    expect(conf.search).toEqual(['z.example']);
  });

  it('keeps more than three nameservers in file order', () => {
    const text = ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4'].map((n) => `nameserver ${n}`).join('\n');
    expect(parseResolvConf(text).nameservers).toEqual(['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4']);
  });

  it('accumulates options across lines', () => {
    expect(parseResolvConf('options ndots:5\noptions\tedns0  trust-ad\n').options).toEqual(['ndots:5', 'edns0', 'trust-ad']);
  });
});

describe('renderManagedResolvConf', () => {
  it('renders header, loopback nameserver, search and options exactly', () => {
    const text = renderManagedResolvConf({ search: ['corp.example.com', 'lan'], options: ['edns0', 'trust-ad', 'ndots:2'] });
    expect(text).toBe(
      `${MANAGED_HEADER}\n${MANAGED_NOTE}\nnameserver 127.0.0.1\nsearch corp.example.com lan\noptions edns0 trust-ad ndots:2\n`,
    );
    expect(text.split('\n')[0]).toBe('# Managed by K2s native Linux installation; restored by k2s stop or uninstall');
    // The second line names this CLI's restoring commands only, and says the first is K2s's marker (new-user walk).
    expect(text.split('\n')[1]).toBe('# Written by K2s DNS while it runs: "k2s-dns stop" or "k2s-dns uninstall" (or Stop in its window) puts back your original, saved in /var/lib/k2s/dns-resolver-state.json; the line above is K2s\'s own marker, kept because K2s matches it');
  });

  it('omits empty search/options lines and drops duplicates', () => {
    expect(renderManagedResolvConf({ search: [], options: [] })).toBe(`${MANAGED_HEADER}\n${MANAGED_NOTE}\nnameserver 127.0.0.1\n`);
    expect(renderManagedResolvConf({ search: ['lan', 'lan'], options: ['rotate', 'rotate'] })).toBe(
      `${MANAGED_HEADER}\n${MANAGED_NOTE}\nnameserver 127.0.0.1\nsearch lan\noptions rotate\n`,
    );
  });

  it('round-trips through the parser', () => {
    const text = renderManagedResolvConf({ search: ['c.example'], options: ['ndots:2', 'timeout:1', 'attempts:3', 'rotate'] });
    expect(parseResolvConf(text)).toEqual({
      nameservers: ['127.0.0.1'],
      search: ['c.example'],
      options: ['ndots:2', 'timeout:1', 'attempts:3', 'rotate'],
      sortlist: [],
      unknown: [],
    });
  });

  it('refuses tokens that would inject a directive', () => {
    expect(() => renderManagedResolvConf({ search: ['lan\nnameserver 6.6.6.6'], options: [] })).toThrow(
      'is not a valid domain name',
    );
    expect(() => renderManagedResolvConf({ search: [], options: ['ndots:1 #'] })).toThrow('is not a valid option token');
  });
});
