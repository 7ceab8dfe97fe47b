import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRouteFile, renderRouteFile, renderRouteUnit, ROUTE_UNIT_NAME, ROUTE_WATCH_SCRIPT } from './resolved-route-unit';

const ROUTE = { link: 'k2s-proxy0', address: '172.19.1.1', domains: ['~cluster.local', '~20.172.in-addr.arpa', '~21.172.in-addr.arpa'] };

describe('route file (what k2s-dnsproxy-resolved re-applies)', () => {
  it('renders one key per line and parses back to the same route', () => {
    const text = renderRouteFile(ROUTE);
    expect(text.split('\n').slice(1)).toEqual(['link k2s-proxy0', 'address 172.19.1.1', 'domain ~cluster.local', 'domain ~20.172.in-addr.arpa', 'domain ~21.172.in-addr.arpa', '']);
    expect(parseRouteFile(text)).toEqual(ROUTE);
  });
  it('refuses what the script would refuse: a link name with a space, an address with a shell word, no zone', () => {
    expect(() => renderRouteFile({ ...ROUTE, link: 'k2s proxy0' })).toThrow(/not a plain interface name/);
    expect(() => renderRouteFile({ ...ROUTE, address: '172.19.1.1;reboot' })).toThrow(/not a plain IPv4 or IPv6/);
    expect(() => renderRouteFile({ ...ROUTE, domains: [] })).toThrow(/at least one ~zone/);
    expect(parseRouteFile('link k2s-proxy0\naddress 172.19.1.1\ndomain ~$(reboot)\n')).toBeNull();
  });
});

describe('renderRouteUnit', () => {
  it('runs as root (no DynamicUser/User), tied to k2s-dnsproxy.service, output to the journal', () => {
    const unit = renderRouteUnit('/var/lib/k2s/dns-resolved-route.conf');
    for (const line of ['PartOf=k2s-dnsproxy.service', 'Requisite=k2s-dnsproxy.service', 'After=k2s-dnsproxy.service', 'After=systemd-resolved.service', 'Type=simple', 'Restart=on-failure', 'WantedBy=k2s-dnsproxy.service']) {
      expect(unit).toContain(`\n${line}\n`);
    }
    expect(unit).not.toMatch(/DynamicUser=|User=|StandardOutput=/);
    expect(unit).toContain(`" ${ROUTE_UNIT_NAME} /var/lib/k2s/dns-resolved-route.conf\n`);
    expect(() => renderRouteUnit('dns-resolved-route.conf')).toThrow(/not an absolute path/);
  });
});

/**
 * The script against stand-ins for ip(8) and resolvectl(1) on PATH: `ip -o monitor address`
 * prints the events of $EVENTS and ends (the script then exits 1, as it does when the monitor
 * dies); `ip -o addr show dev L to A` holds the address while $HAVE is 1; resolvectl logs each
 * call and answers `dns|domain|default-route LINK` from $CUR_* (what resolved has now).
 */
describe('ROUTE_WATCH_SCRIPT', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = '';
  });
  function run(opts: { file?: string | null; have: boolean; events: string[]; cur?: { dns: string; domain: string; route: string } }): { code: number | null; calls: string[]; stderr: string } {
    dir = mkdtempSync(join(tmpdir(), 'k2sdns-route-'));
    const bin = join(dir, 'bin');
    spawnSync('mkdir', [bin]);
    writeFileSync(join(bin, 'ip'), '#!/bin/bash\nif [ "$2" = monitor ]; then while IFS= read -r l; do echo "$l"; done < "$EVENTS_FILE"; exit 0; fi\n[ "$HAVE" = 1 ] && echo "3: k2s-proxy0    inet 172.19.1.1/24 scope global k2s-proxy0"\nexit 0\n');
    writeFileSync(join(bin, 'resolvectl'), '#!/bin/bash\necho "$*" >> "$CALLS"\ncase "$1 $#" in "dns 2") echo "Link 3 (k2s-proxy0): $CUR_DNS";; "domain 2") echo "Link 3 (k2s-proxy0): $CUR_DOMAIN";; "default-route 2") echo "Link 3 (k2s-proxy0): $CUR_ROUTE";; esac\n');
    chmodSync(join(bin, 'ip'), 0o755);
    chmodSync(join(bin, 'resolvectl'), 0o755);
    const file = join(dir, 'route.conf');
    if (opts.file !== null) writeFileSync(file, opts.file ?? renderRouteFile(ROUTE), { mode: 0o600 });
    const events = join(dir, 'events');
    writeFileSync(events, opts.events.map((e) => `${e}\n`).join(''));
    const calls = join(dir, 'calls');
    writeFileSync(calls, '');
    const cur = opts.cur ?? { dns: '', domain: '', route: 'yes' };
    const r = spawnSync('bash', ['-c', ROUTE_WATCH_SCRIPT, ROUTE_UNIT_NAME, file], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { PATH: `${bin}:/usr/bin:/bin`, HAVE: opts.have ? '1' : '0', EVENTS_FILE: events, CALLS: calls, CUR_DNS: cur.dns, CUR_DOMAIN: cur.domain, CUR_ROUTE: cur.route },
    });
    return { code: r.status, calls: readFileSync(calls, 'utf8').split('\n').filter((l) => l !== '' && !/^(dns|domain|default-route) k2s-proxy0$/.test(l)), stderr: r.stderr };
  }
  const SET = ['dns k2s-proxy0 172.19.1.1', 'domain k2s-proxy0 ~cluster.local ~20.172.in-addr.arpa ~21.172.in-addr.arpa', 'default-route k2s-proxy0 no'];
  const ADDED = '3: k2s-proxy0    inet 172.19.1.1/24 scope global k2s-proxy0\\       valid_lft forever preferred_lft forever';

  it.skipIf(process.getuid?.() !== 0)('address assigned: applies the route at once and again on each address event; a deletion event does nothing; ends with exit 1 when the monitor ends', () => {
    const r = run({ have: true, events: [`Deleted ${ADDED}`, ADDED] });
    expect(r.calls).toEqual([...SET, ...SET]);
    expect(r.code).toBe(1);
  });
  it.skipIf(process.getuid?.() !== 0)('resolved has the route already: no set call (an unrelated address event costs three reads)', () => {
    const r = run({ have: true, events: [ADDED], cur: { dns: '172.19.1.1', domain: '~cluster.local ~20.172.in-addr.arpa ~21.172.in-addr.arpa', route: 'no' } });
    expect(r.calls).toEqual([]);
  });
  it('no route file (stopped), or the address not on the link: no resolvectl call at all', () => {
    expect(run({ file: null, have: true, events: [ADDED] }).calls).toEqual([]);
    expect(run({ have: false, events: [ADDED] }).calls).toEqual([]);
  });
  it('a route file with a shell word in it is ignored with a message, never run', () => {
    const r = run({ file: 'link k2s-proxy0\naddress 172.19.1.1;reboot\ndomain ~cluster.local\n', have: true, events: [] });
    expect(r.calls).toEqual([]);
    expect(r.stderr).toContain('is not a route file; ignored');
  });
});
