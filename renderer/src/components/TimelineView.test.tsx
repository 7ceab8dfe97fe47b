/**
 * Issue 20 medium: a window opened after a CLI start (no operation in its timeline) still says the
 * proxy was killed and restarted by the watchdog. Rendered to markup with the stores mocked at the edge.
 */
import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { HostDnsStatus } from '../../../shared/types';
import { clockTime } from '../../../shared/clock';

const state = vi.hoisted(() => ({ status: null as unknown, busy: null, events: [] as unknown[], networkChanges: [], lost: null as string | null }));
const health = vi.hoisted(() => ({ report: null as unknown }));
vi.mock('../stores', () => ({ useDns: (sel: (s: typeof state) => unknown) => sel(state), useHealth: (sel: (s: typeof health) => unknown) => sel(health) }));

import { TimelineView } from './TimelineView';

const at = Date.parse('2026-12-04T12:32:57Z');
const running = {
  state: 'running', engine: 'dnsmasq', engineVersion: null, pid: 415, listeners: [], skippedListeners: [], resolverOwner: 'k2s', upstreams: [], clusterDomain: null,
  kubeDnsIp: null, savedAt: null, savedBy: null, messages: [], operation: null,
  proxyExit: { pid: 353, at: new Date(at).toISOString(), how: 'killed by signal KILL (exit status 137)', restartedBy: 'watchdog' },
} as unknown as HostDnsStatus;

describe('TimelineView without an operation this window saw', () => {
  it('the watchdog\'s restart of a CLI-started proxy is said: when, how, the dead and the new PID', () => {
    state.status = running;
    const html = renderToStaticMarkup(<TimelineView />);
    expect(html).toContain(`At ${clockTime(at)} k2s-dnsproxy (PID 353) was killed by signal KILL (exit status 137); the watchdog restarted it as PID 415.`);
  });
  it('nothing to say: no timeline', () => {
    state.status = { ...running, proxyExit: null };
    expect(renderToStaticMarkup(<TimelineView />)).toBe('');
  });
});

describe('TimelineView with the backend gone', () => {
  it('a start run elsewhere (seen in the journal) is not "running" for good once the backend does not answer (issue 20 low)', () => {
    state.status = { ...running, state: 'starting', proxyExit: null };
    state.events = [{ type: 'step', op: 'start', step: 'verify', status: 'running', message: 'start run outside this window by k2s-dns process 77 (followed from its journal)', at }];
    const heading = () => /data-testid="timeline-heading"[^>]*>(.*?)<\/h3>/.exec(renderToStaticMarkup(<TimelineView />))?.[1]?.replace(/<!-- -->/g, '');
    expect(heading()).toBe('start — running');
    state.lost = 'The app backend does not answer (Failed to fetch)';
    try {
      expect(heading()).toBe('start — how it ended is not known: the app backend does not answer');
    } finally {
      state.lost = null;
      state.events = [];
    }
  });
});

describe('TimelineView under a verdict checked after the result', () => {
  const stopped = { ...running, state: 'stopped', pid: null, proxyExit: null, resolverOwner: 'original' };
  const result = (op: 'start' | 'stop', message: string) => [
    { type: 'step', op, step: op === 'start' ? 'ready' : 'restore', status: 'done', message: 'x', at },
    { type: 'result', op, ok: true, exitCode: 0, message, at: at + 1 },
  ];
  const report = (level: 'error' | 'warn') => ({ checkedAt: at + 5000, verdict: { level, resolves: false, text: 'K2s DNS is stopped' } });
  const resultLine = () => /<p[^>]*data-testid="timeline-result"[^>]*>(.*?)<\/p>/.exec(renderToStaticMarkup(<TimelineView />));
  it('a completed Stop stays as it is: no "no longer so" under a red "stopped" verdict (walk 5 M6)', () => {
    state.status = stopped;
    state.events = result('stop', 'K2s DNS is stopped; the host resolver is back as it was.');
    health.report = report('error');
    try {
      const m = resultLine();
      expect(m?.[0]).toContain('data-stale="false"');
      expect(m?.[0]).toContain('class="ok-text"');
      expect(m?.[1]?.replace(/<!-- -->/g, '')).toBe('K2s DNS is stopped; the host resolver is back as it was.');
    } finally {
      health.report = null;
      state.events = [];
    }
  });
  it('a Start result under a later red verdict is history: muted, with "no longer so"', () => {
    state.status = { ...running, proxyExit: null };
    state.events = result('start', 'K2s DNS is running: cluster names resolve on this host.');
    health.report = report('error');
    try {
      const m = resultLine();
      expect(m?.[0]).toContain('data-stale="true"');
      expect(m?.[1]?.replace(/<!-- -->/g, '')).toBe(`At ${clockTime(at + 1)}: K2s DNS is running: cluster names resolve on this host. — no longer so: see the verdict above.`);
    } finally {
      health.report = null;
      state.events = [];
    }
  });
});

describe('TimelineView step marks', () => {
  it('a Keep whose restore step says "No name resolves on this host now" draws that step amber (!), not a green ● (walk 5 L12)', () => {
    state.status = { ...running, state: 'stopped', pid: null, proxyExit: null, resolverOwner: 'original' };
    state.events = [
      { type: 'step', op: 'stop', step: 'restore', status: 'done', message: 'Kept the /etc/resolv.conf someone else wrote while K2s ran (nameserver 192.0.2.53 → 127.0.0.1); the copy saved at start was discarded. No name resolves on this host now: nothing answers on 127.0.0.1:53.', at },
      { type: 'step', op: 'stop', step: 'stop-service', status: 'done', message: 'Stopped k2s-dnsproxy (PID 415).', at: at + 1 },
      { type: 'result', op: 'stop', ok: true, exitCode: 0, message: 'K2s DNS is stopped.', at: at + 2 },
    ];
    try {
      const html = renderToStaticMarkup(<TimelineView />);
      expect(html).toMatch(/<li class="step done warn" data-testid="step-restore" data-status="done" data-warn="true"><span class="icon" aria-hidden="true">!<\/span>/);
      expect(html).toMatch(/<li class="step done" data-testid="step-stop-service" data-status="done" data-warn="false"><span class="icon" aria-hidden="true">●<\/span>/);
    } finally {
      state.events = [];
    }
  });
});

describe('TimelineView: a Keep\'s long note once (walk 11 L5)', () => {
  const kept = 'Kept the /etc/resolv.conf someone else wrote while K2s ran (nameserver 192.0.2.53 → 127.0.0.1); the copy saved at start was discarded. The kept file is not text (it holds NUL bytes), so `sudo k2s-dns start` refuses to save it as the original: replace it with a resolver file first (reconnect the network, or write a line such as `nameserver 192.0.2.1` with your router\'s or company DNS\'s IP address in place of 192.0.2.1).';
  it('the restore step points at the result, which keeps the fix; a one-sentence step stays whole', () => {
    state.status = { ...running, state: 'stopped', pid: null, proxyExit: null, resolverOwner: 'original' };
    state.events = [
      { type: 'step', op: 'stop', step: 'restore', status: 'done', message: kept, at },
      { type: 'step', op: 'stop', step: 'stop-service', status: 'done', message: 'Stopped k2s-dnsproxy (PID 415).', at: at + 1 },
      { type: 'result', op: 'stop', ok: true, exitCode: 0, message: `K2s DNS is stopped. ${kept} Stopped k2s-dnsproxy (PID 415).`, at: at + 2 },
    ];
    try {
      const html = renderToStaticMarkup(<TimelineView />).replace(/<!-- -->/g, '');
      expect(html.split('replace it with a resolver file first').length - 1).toBe(1);
      const step = /data-testid="step-restore".*?<span class="step-msg">(.*?)<\/span><\/li>/.exec(html)?.[1];
      // Walk 12 M3: the row points at the result, so "Kept … discarded" is said once.
      expect(step).toBe('Done: the result below says what it did.');
      expect(html.split('the copy saved at start was discarded').length - 1).toBe(1);
      expect(html).toContain('Stopped k2s-dnsproxy (PID 415).</span></li>');
      expect(/data-testid="timeline-result"[^>]*>(.*?)<\/p>/.exec(html)?.[1]).toContain('replace it with a resolver file first');
    } finally {
      state.events = [];
    }
  });
  it('walk 12 M3: with the verdict giving the replace fix (replace-resolver), the result refers to it instead of repeating it', () => {
    state.status = { ...running, state: 'stopped', pid: null, proxyExit: null, resolverOwner: 'original' };
    state.events = [
      { type: 'step', op: 'stop', step: 'restore', status: 'done', message: kept, at },
      { type: 'result', op: 'stop', ok: true, exitCode: 0, message: `K2s DNS is stopped. ${kept} Stopped k2s-dnsproxy (PID 415).`, at: at + 2 },
    ];
    health.report = { checkedAt: at + 3, hops: [], verdict: { level: 'error', cause: 'not-resolver', action: 'replace-resolver', resolves: false, summary: 'x', hopId: null } };
    try {
      const html = renderToStaticMarkup(<TimelineView />).replace(/<!-- -->/g, '');
      const result = /data-testid="timeline-result"[^>]*>(.*?)<\/p>/.exec(html)?.[1] ?? '';
      expect(result).toContain('refuses to save it as the original: the verdict above says how to replace it. Stopped k2s-dnsproxy (PID 415).');
      expect(html).not.toContain('replace it with a resolver file first');
    } finally {
      state.events = [];
      health.report = null;
    }
  });
});

describe('TimelineView: a rolled-back start\'s failed step (walk 24)', () => {
  it('the failed verify row says it failed, not "Done", when the result says its words in full', () => {
    const cause = 'The upstream you entered in Start options does not resolve example.com: no answer in 2 s; nothing outside the cluster would resolve. Check the address.';
    state.status = { ...running, state: 'stopped', pid: null, proxyExit: null, resolverOwner: 'original' };
    state.events = [
      { type: 'step', op: 'start', step: 'verify', status: 'failed', message: cause, at },
      { type: 'step', op: 'start', step: 'rollback', status: 'done', message: 'Put back /etc/resolv.conf.', at: at + 1 },
      { type: 'result', op: 'start', ok: false, exitCode: 1, code: 'VERIFY_UPSTREAM', message: `${cause} Every change was rolled back; the host resolver is as before.`, at: at + 2 },
    ];
    try {
      const html = renderToStaticMarkup(<TimelineView />).replace(/<!-- -->/g, '');
      expect(/data-testid="step-verify".*?<span class="step-msg">(.*?)<\/span><\/li>/.exec(html)?.[1]).toBe('Failed: the result below says why.');
      expect(html).not.toContain('Done: the result below says what it did.');
    } finally {
      state.events = [];
    }
  });
});

describe('TimelineView: a start warning carried in its result (walk 11 L5)', () => {
  const W = "/etc/resolv.conf is writable by every user (mode 0666); K2s follows no file a user could write. It was saved as your original as it is; to save it fixed: sudo k2s-dns stop, sudo chmod o-w /etc/resolv.conf, then sudo k2s-dns start.";
  const events = [
    { type: 'step', op: 'start', step: 'ready', status: 'done', message: 'Host DNS goes through k2s-dnsproxy.', at },
    { type: 'result', op: 'start', ok: true, exitCode: 0, message: `K2s DNS is running: cluster.local goes to CoreDNS at 172.21.0.10, everything else to 192.0.2.53. Warning: ${W}`, warnings: [{ code: 'RESOLV_CONF_WRITABLE', message: W }], at: at + 1 },
  ];
  it('the result line refers to the warning; with the Host DNS note shown, the warning refers to it: the paragraph is not in the timeline', () => {
    state.status = { ...running, proxyExit: null, savedOriginalWritable: 'writable by every user (mode 0666)' };
    state.events = events;
    try {
      const html = renderToStaticMarkup(<TimelineView />).replace(/<!-- -->/g, '');
      expect(html).toContain('K2s DNS is running: cluster.local goes to CoreDNS at 172.21.0.10, everything else to 192.0.2.53. See the warning below.');
      expect(html).toContain('<strong>Warning:</strong> the saved original /etc/resolv.conf is writable by every user (mode 0666) (RESOLV_CONF_WRITABLE); the note above says what that means and how to fix it.');
      expect(html).not.toContain('K2s follows no file a user could write');
    } finally {
      state.events = [];
    }
  });
  it('without the note (stopped since): the warning keeps its own text, once', () => {
    state.status = { ...running, proxyExit: null };
    state.events = events;
    try {
      const html = renderToStaticMarkup(<TimelineView />).replace(/<!-- -->/g, '');
      expect(html.split('K2s follows no file a user could write').length - 1).toBe(1);
      expect(html).toContain('See the warning below.');
    } finally {
      state.events = [];
    }
  });
});
