/**
 * The Host DNS card for a user who cannot read root's state file while K2s DNS runs: it says what
 * cannot be read and why, not "Listeners none … nothing saved". Rendered to markup with the store
 * mocked at the edge.
 */
import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { HostDnsStatus } from '../../../shared/types';
import { describeNetworkChange } from '../../../shared/network-writer';

const state = vi.hoisted(() => ({ status: null as unknown, error: null, busy: false }));
vi.mock('../stores', () => ({ useDns: (sel: (s: typeof state) => unknown) => sel(state) }));
vi.mock('./LifecycleControls', () => ({ LifecycleControls: () => null }));
vi.mock('./TimelineView', () => ({ TimelineView: () => null }));

import { HostDnsPanel } from './HostDnsPanel';
import { timeText } from '../../../shared/clock';

const running: HostDnsStatus = {
  state: 'running',
  engine: null,
  engineVersion: null,
  listeners: [],
  skippedListeners: [],
  resolverOwner: 'k2s',
  upstreams: [],
  clusterDomain: null,
  kubeDnsIp: null,
  savedAt: null,
  savedBy: null,
  pid: 4242,
  messages: [],
  operation: null,
};

/** The text of the <dd> with `testid`. */
const cell = (html: string, testid: string) => new RegExp(`data-testid="${testid}"[^>]*>(.*?)</dd>`, 's').exec(html)?.[1]?.replace(/<[^>]*>/g, '').trim();

describe('HostDnsPanel', () => {
  it('names the engine as the Engine select does ("AdGuard dnsproxy v0.83.1"), never by its internal name (new-user walk low)', () => {
    state.status = { ...running, engine: 'adguard', engineVersion: 'v0.83.1' };
    const html = renderToStaticMarkup(<HostDnsPanel />);
    expect(/data-testid="dns-engine"[^>]*>([^<]*)</.exec(html)?.[1]?.trim()).toBe('AdGuard dnsproxy v0.83.1');
  });

  it('names the running proxy\'s PID beside the engine, also after a CLI start (third walk low); none while stopped', () => {
    state.status = { ...running, engine: 'dnsmasq', engineVersion: '2.90' };
    expect(/data-testid="dns-pid"[^>]*>([^<]*)</.exec(renderToStaticMarkup(<HostDnsPanel />))?.[1]?.trim()).toBe('· k2s-dnsproxy PID 4242');
    state.status = { ...running, state: 'stopped', pid: null };
    expect(renderToStaticMarkup(<HostDnsPanel />)).not.toContain('dns-pid');
  });

  it("root-only state while running: listeners and upstreams as the running proxy's config names them, marked as read from it (new user: 'not known' beside a 0644 config)", () => {
    const stateUnreadable = '/var/lib/k2s/dns-resolver-state.json is readable by root only (its directory /var/lib/k2s is 0700) and this app runs as uid 1000';
    state.status = { ...running, stateUnreadable, configFacts: { file: '/etc/k2s/dnsproxy.yaml', listeners: [{ address: '127.0.0.1', port: 53 }, { address: '172.19.1.1', port: 53 }], upstreams: ['192.168.1.1', '192.0.2.9:5353'] } };
    const html = renderToStaticMarkup(<HostDnsPanel />);
    const mark = " — read from the proxy's config /etc/k2s/dnsproxy.yaml (the saved state is root-only)";
    expect(cell(html, 'dns-listeners')?.replace(/&#x27;/g, "'")).toBe(`127.0.0.1:53, 172.19.1.1:53${mark}`);
    expect(cell(html, 'dns-upstreams')?.replace(/&#x27;/g, "'")).toBe(`192.168.1.1, 192.0.2.9:5353${mark}`);
    // The config does not say which zone is the cluster domain.
    expect(cell(html, 'dns-cluster-domain')).toBe('not known to this app (the saved state is root-only)');
  });

  it('root-only state while running: listeners, upstreams and the saved original are "not known", with the file and why', () => {
    state.status = { ...running, stateUnreadable: '/var/lib/k2s/dns-resolver-state.json is readable by root only (its directory /var/lib/k2s is 0700) and this app runs as uid 1000' };
    const html = renderToStaticMarkup(<HostDnsPanel />);
    expect(cell(html, 'dns-listeners')).toBe('not known to this app (the saved state is root-only)');
    expect(cell(html, 'dns-upstreams')).toBe('not known to this app (the saved state is root-only)');
    expect(cell(html, 'dns-cluster-domain')).toBe('not known to this app (the saved state is root-only)');
    expect(cell(html, 'dns-saved')).toBe('cannot be read: /var/lib/k2s/dns-resolver-state.json is readable by root only (its directory /var/lib/k2s is 0700) and this app runs as uid 1000');
    expect(html).not.toContain('nothing saved');
  });

  it("after Stop as a user (root's 0700 state directory): the engine-less card says it once, on the Saved original row; nothing listens (new-user walk)", () => {
    const unseen = '/var/lib/k2s is readable by root only (0700), so whether it holds a saved state cannot be seen as uid 1000; K2s DNS is not running and does not own /etc/resolv.conf, so most likely nothing is saved (Stop removes it)';
    state.status = { ...running, state: 'stopped', resolverOwner: 'original', pid: null, stateUnreadable: unseen };
    const html = renderToStaticMarkup(<HostDnsPanel />);
    expect(cell(html, 'dns-listeners')).toBe('none');
    expect(cell(html, 'dns-upstreams')).toBe('—');
    expect(cell(html, 'dns-cluster-domain')).toBe('none in use: Start reads it from the cluster');
    expect(cell(html, 'dns-saved')).toBe(`cannot be read: ${unseen}`);
    expect(html.split('cannot be seen').length - 1).toBe(1);
    expect(html).not.toContain('no resolver is saved');
  });

  it("as a user while it runs: the engine the status names from the proxy's argv", () => {
    state.status = { ...running, engine: 'dnsmasq', stateUnreadable: '/var/lib/k2s/dns-resolver-state.json is readable by root only (its directory /var/lib/k2s is 0700) and this app runs as uid 1000' };
    const html = renderToStaticMarkup(<HostDnsPanel />);
    expect(/data-testid="dns-engine"[^>]*>([^<]*)</.exec(html)?.[1]?.trim()).toBe('dnsmasq');
  });

  it('the cluster domain K2s DNS routes, from its state, as it is', () => {
    state.status = { ...running, clusterDomain: 'cluster.local' };
    expect(cell(renderToStaticMarkup(<HostDnsPanel />), 'dns-cluster-domain')).toBe('cluster.local');
  });

  it('a readable, empty state still says none / nothing saved', () => {
    state.status = { ...running, state: 'stopped', resolverOwner: 'original', pid: null };
    const html = renderToStaticMarkup(<HostDnsPanel />);
    expect(cell(html, 'dns-listeners')).toBe('none');
    expect(cell(html, 'dns-saved')).toBe('nothing saved');
  });

  it('after a followed headerless file the saved original names its writer, never "by k2s-dns" (issue #20)', () => {
    const at = new Date().toISOString();
    const change = { at, outcome: 'followed' as const, writer: 'an unknown program', evidence: '', how: '/etc/resolv.conf replaced by a regular file', from: ['192.0.2.53'], to: ['192.0.2.88'] };
    state.status = { ...running, savedAt: at, savedBy: 'k2s-dns', networkChange: change, followedChange: change };
    const html = renderToStaticMarkup(<HostDnsPanel />);
    expect(cell(html, 'dns-saved')).toMatch(/^written by another program \(the file does not say which\) at \d\d:\d\d:\d\d, followed while K2s DNS ran$/);
    expect(cell(html, 'dns-saved')).not.toContain('k2s-dns');
  });

  it('a followed change whose nameservers stayed the same says "upstreams unchanged", as the timeline does, not "192.0.2.53 → 192.0.2.53" (walk 7 L8)', () => {
    const change = { at: new Date().toISOString(), outcome: 'followed' as const, writer: 'an unknown program', evidence: '', how: '/etc/resolv.conf replaced by a regular file', from: ['192.0.2.53'], to: ['192.0.2.53'] };
    state.status = { ...running, networkChange: change, followedChange: change };
    const row = cell(renderToStaticMarkup(<HostDnsPanel />), 'dns-network-change');
    expect(row).toMatch(/; followed: upstreams unchanged \(192\.0\.2\.53; the file changed otherwise, e\.g\. its search list or options\); stop restores that file\.$/);
    change.to = ['10.77.0.2'];
    expect(cell(renderToStaticMarkup(<HostDnsPanel />), 'dns-network-change')).toMatch(/; followed: upstreams 192\.0\.2\.53 → 10\.77\.0\.2; stop restores that file\.$/);
  });

  it('Resolver owner after an rm: "none: … deleted", not "another program" (walk 7 L5)', () => {
    state.status = { ...running, resolverOwner: 'foreign', driftGone: 'deleted' };
    expect(cell(renderToStaticMarkup(<HostDnsPanel />), 'dns-owner')).toBe('none: /etc/resolv.conf was deleted since K2s DNS started');
    state.status = { ...running, resolverOwner: 'foreign' };
    expect(cell(renderToStaticMarkup(<HostDnsPanel />), 'dns-owner')).toBe('another program, since K2s DNS started');
  });

  it('Resolver owner while stopped with no /etc/resolv.conf: "none: … does not exist", not "this host" (walk 10 M5)', () => {
    state.status = { ...running, state: 'stopped', resolverOwner: 'original', resolverMissing: { kind: 'absent' } };
    expect(cell(renderToStaticMarkup(<HostDnsPanel />), 'dns-owner')).toBe('none: /etc/resolv.conf does not exist');
    state.status = { ...running, state: 'stopped', resolverOwner: 'original', resolverMissing: { kind: 'dangling', target: '/run/x' } };
    expect(cell(renderToStaticMarkup(<HostDnsPanel />), 'dns-owner')).toBe('none: /etc/resolv.conf is a dangling symlink (→ /run/x)');
    state.status = { ...running, state: 'stopped', resolverOwner: 'original' };
    expect(cell(renderToStaticMarkup(<HostDnsPanel />), 'dns-owner')).toBe('this host (not K2s DNS)');
  });

  it('before any follow the saved original is the file in place at Start, saved by k2s-dns', () => {
    state.status = { ...running, savedAt: new Date().toISOString(), savedBy: 'k2s-dns' };
    const html = renderToStaticMarkup(<HostDnsPanel />);
    expect(cell(html, 'dns-saved')).toMatch(/^the file in place at Start, saved at \d\d:\d\d:\d\d by k2s-dns$/);
  });
  it('an old drift whose file is K2s\'s again is told in the past, and its status note is not repeated (issue 20 low)', () => {
    const change = { at: '2026-12-04T15:54:31.518Z', outcome: 'drift' as const, writer: 'an unknown program', evidence: '', how: '/etc/resolv.conf replaced by a new file', from: ['192.0.2.53'], to: ['192.0.2.53'], reason: 'the new file is not text (it holds NUL bytes)', ended: true };
    state.status = { ...running, networkChange: change, messages: [describeNetworkChange(change)] };
    const html = renderToStaticMarkup(<HostDnsPanel />);
    expect(html).toContain('data-ended="true"');
    // The writer in the one phrase every view uses (walk 8 L4), never "an unknown program".
    expect(cell(html, 'dns-network-change')).toMatch(/: another program \(the file does not say which\) — \/etc\/resolv\.conf replaced by a new file;/);
    expect(cell(html, 'dns-network-change')).toMatch(/— \/etc\/resolv\.conf replaced by a new file; was not followed: the new file is not text \(it holds NUL bytes\)\. That drift is over: \/etc\/resolv\.conf is K2s DNS(&#x27;|')s own file again\.$/);
    expect(html).not.toContain('class="note"');
  });

  it("a status note's ISO time shows as the window's HH:MM:SS, not ISO (issue 20 low: mixed time formats)", () => {
    const at = new Date(Date.now() - 60_000).toISOString();
    state.status = { ...running, messages: [`Recovered an interrupted stop (${at})`] };
    const html = renderToStaticMarkup(<HostDnsPanel />);
    expect(html).toContain(`Recovered an interrupted stop (${timeText(Date.parse(at))})`);
    expect(html).not.toContain(at);
  });

  it('the backend gone (lost): the state badge says disconnected, the last state read only as last known (issue 20 low: it kept saying "starting")', () => {
    state.status = { ...running, state: 'starting' };
    (state as { lost?: string | null }).lost = 'The app backend does not answer (Failed to fetch)';
    try {
      const html = renderToStaticMarkup(<HostDnsPanel />);
      expect(/data-testid="dns-state"[^>]*>([^<]*)</.exec(html)?.[1]).toBe('disconnected');
      expect(/data-testid="dns-last-known">(.*?)<\/span>/.exec(html)?.[1]?.replace(/<!-- -->/g, '')).toBe('the app backend does not answer; last known: starting');
    } finally {
      (state as { lost?: string | null }).lost = null;
    }
    expect(/data-testid="dns-state"[^>]*>([^<]*)</.exec(renderToStaticMarkup(<HostDnsPanel />))?.[1]).toBe('starting');
  });

  it('a dead network follower: the Network changes row says follow is not in effect, and status\'s note says press Start (walk5 M3)', () => {
    const note = 'The network follower is not running (onNetworkChange follow): a new resolver file from the network is not followed and shows as drift; press Start to restart it.';
    state.status = { ...running, onNetworkChange: 'follow', follower: { running: false, pid: null }, messages: [note] };
    const html = renderToStaticMarkup(<HostDnsPanel />);
    expect(cell(html, 'dns-network-policy')).toBe('follow, but the network follower is not running: a new resolver file from the network is not followed and shows as drift (Start restarts it)');
    expect(html).toContain('data-follower="down"');
    expect(html).toContain(note);
    state.status = { ...running, onNetworkChange: 'follow', follower: { running: true, pid: 5150 } };
    expect(cell(renderToStaticMarkup(<HostDnsPanel />), 'dns-network-policy')).toMatch(/^follow: when the network writes/);
  });

  it('walk 24: keep says what it does and nothing about where it was chosen (a CLI start\'s --on-network-change keep is not "chosen in Start options")', () => {
    state.status = { ...running, onNetworkChange: 'keep', follower: null };
    expect(cell(renderToStaticMarkup(<HostDnsPanel />), 'dns-network-policy')).toBe('keep: when the network writes a new resolver file, it stays as drift and you choose in the banner');
  });

  it('sixth walk M3/L1: a saved original and K2s DNS\'s own file a user could write are marked on their rows, and the note with the fix stays', () => {
    const note = "The saved original /etc/resolv.conf (the file stop puts back) is writable by every user (mode 0666): stop puts it back with that owner and mode, and then a user can choose this host's DNS through it. To have it back fixed, press Stop, run `sudo chmod o-w /etc/resolv.conf` in a terminal, then press Start (that start saves it fixed).";
    state.status = { ...running, savedAt: '2026-01-01T00:00:00.000Z', savedBy: 'k2s-dns', savedOriginalWritable: 'writable by every user (mode 0666)', liveResolverWritable: 'writable by group 4 (mode 0664)', messages: [note] };
    const html = renderToStaticMarkup(<HostDnsPanel />);
    expect(cell(html, 'dns-saved')).toMatch(/ — writable by every user \(mode 0666\): stop puts it back so \(see the note below\)$/);
    expect(cell(html, 'dns-owner')).toBe('K2s DNS (nameserver 127.0.0.1) — the file is now writable by group 4 (mode 0664): a user can redirect host DNS (see the note below)');
    expect(html).toContain('class="note"');
    expect(html.replace(/<[^>]*>/g, '')).toContain('run sudo chmod o-w /etc/resolv.conf in a terminal');
    state.status = running;
    const plain = renderToStaticMarkup(<HostDnsPanel />);
    expect(plain).not.toContain('dns-saved-writable');
    expect(plain).not.toContain('dns-owner-writable');
  });
});
