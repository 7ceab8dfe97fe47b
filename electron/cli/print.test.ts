import { describe, expect, it } from 'vitest';
import type { ClusterDiscovery, QueryResult } from '../../shared/types';
import { formatDoctor } from './print-doctor';
import { formatQuery, formatZones, printEvent, type PrintedSteps } from './print';
import { eaiAgainError, gaiLookup, type LookupAll } from '../core/probes/gai-lookup';
import { terminalSafe } from './terminal-safe';
import { formatResolverDiff } from './print-diff';
import type { ResolverDiff } from '../../shared/types';

const ESC = '\u001b';
/** True when the text holds a byte a terminal would act on (C0 except the printers' own \n, \t; DEL; C1). */
const hasControl = (s: string) => /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(s);

describe('terminal-safe CLI output', () => {
  it('shows C0, DEL and C1 controls as visible escapes and leaves other text alone', () => {
    expect(terminalSafe(`a${ESC}[2Jb\r\n\t\u007f\u009b31m\u0085`)).toBe('a\\x1b[2Jb\\x0d\\x0a\\x09\\x7f\\u009b31m\\u0085');
    expect(terminalSafe('kubernetes.default.svc.cluster.local → 172.21.0.1 ü')).toBe('kubernetes.default.svc.cluster.local → 172.21.0.1 ü');
    // Trojan Source (CVE-2021-42574): bidi overrides/isolates and zero-width characters are shown, not obeyed.
    expect(terminalSafe('ab\u202ecorp.lan \u2066x\u2069 \u200bz\ufeff')).toBe('ab\\u202ecorp.lan \\u2066x\\u2069 \\u200bz\\ufeff');
  });

  // Regression: main printed DNS answers and ConfigMap text raw.
  it('query: a TXT answer with ESC, CSI and a fake line cannot drive the terminal', () => {
    const r: QueryResult = {
      name: 'evil.example.test', type: 'TXT', server: '127.0.0.1:53', transport: 'udp', rcode: 'NOERROR', latencyMs: 3,
      answers: [{ name: `x${ESC}]0;pwned\u0007.example.test`, ttl: 30, type: 'TXT', data: `"${ESC}[2J\u009b1;1H\nOK: fake line"` }],
    };
    const text = formatQuery(r);
    expect(hasControl(text)).toBe(false);
    expect(text.split('\n')).toEqual([
      ';; evil.example.test TXT via 127.0.0.1:53 (udp): NOERROR in 3 ms',
      'x\\x1b]0;pwned\\x07.example.test\t30\tIN\tTXT\t"\\x1b[2J\\u009b1;1H\\x0aOK: fake line"',
    ]);
  });

  it('query: a getaddrinfo EAI_AGAIN back in milliseconds is a temporary failure, not TIMEOUT; one after a real wait stays TIMEOUT (walk 18 M4)', async () => {
    const again: LookupAll = (_n, cb) => cb(Object.assign(new Error('EAI_AGAIN'), { code: 'EAI_AGAIN' }), []);
    const fast = await gaiLookup('example.com', 5000, again);
    expect(fast.rcode).toBe('TIMEOUT');
    const [head, err] = formatQuery({ ...fast, latencyMs: 6.326, error: eaiAgainError(6.326) }).split('\n');
    expect(head).toBe(';; example.com A via system (getaddrinfo): temporary failure (EAI_AGAIN) in 6.326 ms');
    expect(err).toBe(';; error: EAI_AGAIN: temporary failure in 6.326 ms, sooner than any resolver timeout — a nameserver answered SERVFAIL, or none could be reached');
    expect(fast.error).toMatch(/^EAI_AGAIN: temporary failure in [\d.]+ ms, sooner than any resolver timeout/);
    const slow = formatQuery({ ...fast, latencyMs: 5012.5, error: eaiAgainError(5012.5) }).split('\n');
    expect(slow).toEqual([';; example.com A via system (getaddrinfo): TIMEOUT in 5012.5 ms', ';; error: EAI_AGAIN: temporary failure — no nameserver answered in time, or one answered SERVFAIL']);
  });

  it('zones and lifecycle events: server-block keys and reasons from the Corefile are escaped', () => {
    const d = {
      kubeconfigPath: '/etc/kubernetes/admin.conf', context: 'ctx', apiServer: 'https://x', kubeDnsIp: '172.21.0.10', kubernetesServiceIp: '172.21.0.1',
      clusterDomain: 'cluster.local', serviceCidrs: ['172.21.0.0/16'], podCidrs: ['172.20.0.0/16'], cidrSource: 'default',
      zones: [{ zone: `corp${ESC}[8m.test`, upstream: '172.21.0.10:53', reason: `server block corp${ESC}[8m.test:53 \u009b2K`, clusterDomain: false }],
      warnings: [`import ${ESC}[31mmissing`],
    } as unknown as ClusterDiscovery;
    const text = formatZones(d);
    expect(hasControl(text)).toBe(false);
    expect(text).toContain('corp\\x1b[8m.test  172.21.0.10:53  server block corp\\x1b[8m.test:53 \\u009b2K');
    expect(text).toContain('warning: import \\x1b[31mmissing');
    const lines: string[] = [];
    printEvent({ type: 'step', op: 'start', step: 'discover', status: 'done', message: `zone a${ESC}[1Ab`, at: '' } as never, false, (s) => lines.push(s));
    expect(lines).toEqual(['✓ discover     zone a\\x1b[1Ab']);
  });

  it('doctor: titles, meanings and fixes are escaped', () => {
    const text = formatDoctor([{ id: 'x', severity: 'warn', title: `t${ESC}c`, meaning: 'm\u009b', fix: `f\u007f`, detail: {} } as never]);
    expect(hasControl(text)).toBe(false);
    expect(text).toContain('t\\x1bc');
    expect(text).toContain('fix: f\\x7f');
  });
});

describe('k2s-dns diff output', () => {
  it('a search domain with an OSC title sequence (DHCP option 119) is escaped on its diff line', () => {
    const savedText = `nameserver 192.0.2.53\nsearch a${ESC}]0;PWNED\u0007.lan b.lan\n`;
    const d = { saved: { kind: 'file', contentBase64: Buffer.from(savedText).toString('base64') }, identical: false, changes: ['content changed'], savedText, currentText: 'nameserver 127.0.0.1\n' } as unknown as ResolverDiff;
    const text = formatResolverDiff(d);
    expect(text).toContain('-search a\\x1b]0;PWNED\\x07.lan b.lan');
    expect(text).toContain('+nameserver 127.0.0.1');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it('the diff header reads "--- /etc/resolv.conf  saved original" (no \\x09); a tab in the file stays visible', () => {
    const d = { saved: { kind: 'file', contentBase64: Buffer.from('nameserver\t192.0.2.53\n').toString('base64') }, identical: false, changes: [], savedText: 'nameserver\t192.0.2.53\n', currentText: 'nameserver 127.0.0.1\n' } as unknown as ResolverDiff;
    const lines = formatResolverDiff(d).split('\n');
    expect(lines).toContain('--- /etc/resolv.conf  saved original');
    expect(lines).toContain('+++ /etc/resolv.conf  current');
    expect(lines).toContain('-nameserver\\x09192.0.2.53');
  });

  it('walk 6 L5: a current file with NUL bytes is one line naming its size, never its bytes', () => {
    const garbage = Buffer.from([0x6e, 0, 0xff, 10, 0, 0, 10]);
    const d = { saved: { kind: 'file', contentBase64: Buffer.from('nameserver 192.0.2.53\n').toString('base64') }, current: { kind: 'file', contentBase64: garbage.toString('base64') }, identical: false, changes: [], savedText: 'nameserver 192.0.2.53\n', currentText: garbage.toString('utf8') } as unknown as ResolverDiff;
    const lines = formatResolverDiff(d).split('\n');
    expect(lines).toContain('-nameserver 192.0.2.53');
    expect(lines).toContain('+(binary: 7 bytes, holds NUL bytes; not shown)');
    expect(lines.join('\n')).not.toMatch(/\\x00|\uFFFD/);
  });
});

describe('one message per fact in lifecycle output (walk 10 L1, issue #20)', () => {
  const run = (events: unknown[]): string[] => {
    const lines: string[] = [];
    const steps: PrintedSteps = { steps: [] };
    for (const e of events) printEvent(e as never, false, (s) => lines.push(s), steps);
    return lines;
  };
  const KEPT = 'Kept the /etc/resolv.conf someone else wrote while K2s ran (nameservers 192.0.2.9 → none); the copy saved at start was discarded. No name resolves on this host: nothing answers on 127.0.0.1:53.';

  it('stop --on-drift keep: the long restore text is printed once, the result line refers to the step and names the code', () => {
    const lines = run([
      { type: 'step', op: 'stop', step: 'restore', status: 'done', message: KEPT, at: 0 },
      { type: 'step', op: 'stop', step: 'stop-service', status: 'done', message: 'Stopped k2s-dnsproxy (PID 7).', at: 0 },
      { type: 'result', op: 'stop', ok: false, exitCode: 5, code: 'RESOLVER_DOWN', message: `K2s DNS is stopped. ${KEPT}`, at: 0 },
    ]);
    expect(lines[2]).toBe('FAILED [RESOLVER_DOWN]: K2s DNS is stopped. See the restore step above.');
    expect(lines.join('\n').split(KEPT).length - 1).toBe(1);
  });

  it('stop --on-drift keep as stop reports it (ok, exit 5, the RESOLVER_DOWN warning): the restore text once, the code on the warning line', () => {
    const warning = 'No name resolves on this host now: the kept /etc/resolv.conf sends host apps to 127.0.0.1:53, where nothing answers once k2s-dnsproxy is stopped.';
    const lines = run([
      { type: 'step', op: 'stop', step: 'restore', status: 'done', message: KEPT, at: 0 },
      { type: 'result', op: 'stop', ok: true, exitCode: 5, message: `K2s DNS is stopped. ${KEPT}`, warnings: [{ code: 'RESOLVER_DOWN', message: warning }], at: 0 },
    ]);
    // A new user's finding: "See the restore step above." pointed at a `✓ restore` line; the warning is below.
    expect(lines.slice(1)).toEqual(['OK, WITH WARNINGS: K2s DNS is stopped. See the restore step above and the warning below.', `warning [RESOLVER_DOWN]: ${warning}`]);
    expect(lines.join('\n').split(KEPT).length - 1).toBe(1);
  });

  it('a result that refers to a step and has warnings points at the warning lines below it, in number; one that is the step\'s text whole too', () => {
    const w = (code: string) => ({ code, message: `${code} warning text.` });
    const two = run([
      { type: 'step', op: 'stop', step: 'restore', status: 'done', message: KEPT, at: 0 },
      { type: 'result', op: 'stop', ok: true, exitCode: 5, message: `K2s DNS is stopped. ${KEPT}`, warnings: [w('RESOLVER_DOWN'), w('KEPT_RESOLV_CONF_WRITABLE')], at: 0 },
    ]);
    expect(two[1]).toBe('OK, WITH WARNINGS: K2s DNS is stopped. See the restore step above and the 2 warnings below.');
    const whole = run([
      { type: 'step', op: 'stop', step: 'restore', status: 'done', message: KEPT, at: 0 },
      { type: 'result', op: 'stop', ok: true, exitCode: 5, message: KEPT, warnings: [w('RESOLVER_DOWN')], at: 0 },
    ]);
    expect(whole[1]).toBe('OK, WITH WARNINGS: see the restore step above and the warning below.');
  });

  it('a warning whose text is the whole result (RESOLV_CONF_WRITABLE) is printed once, on its warning line', () => {
    const w = 'The saved original /etc/resolv.conf is writable by every user (mode 0666): stop puts it back so.';
    const lines = run([{ type: 'result', op: 'start', ok: true, exitCode: 0, message: w, warnings: [{ code: 'RESOLV_CONF_WRITABLE', message: w }], at: 0 }]);
    expect(lines).toEqual(['OK, WITH WARNINGS: see the warning below.', `warning [RESOLV_CONF_WRITABLE]: ${w}`]);
  });

  it('a refusal printed in full names its code too, as one that refers to a step does', () => {
    const message = 'k2s-dns stop restores /etc/resolv.conf and stops the proxy: run it as root (sudo npx k2s-dns stop).';
    const full = run([{ type: 'result', op: 'stop', ok: false, exitCode: 3, code: 'NOT_ROOT', message, at: 0 }]);
    expect(full).toEqual([`REFUSED [NOT_ROOT]: ${message}`]);
    const failed = run([{ type: 'result', op: 'start', ok: false, exitCode: 1, code: 'VERIFY_UPSTREAM', message: 'Rolled back.', at: 0 }]);
    expect(failed).toEqual(['FAILED [VERIFY_UPSTREAM]: Rolled back.']);
    const referred = run([
      { type: 'step', op: 'start', step: 'preflight', status: 'failed', message: `${message} (a step's own text)`, at: 0 },
      { type: 'result', op: 'start', ok: false, exitCode: 3, code: 'NOT_ROOT', message: `${message} (a step's own text)`, at: 0 },
    ]);
    expect(referred[1]).toBe('REFUSED [NOT_ROOT]: see the preflight step above.');
  });

  it('short step texts and results that repeat no step are printed whole', () => {
    const lines = run([
      { type: 'step', op: 'stop', step: 'stop-service', status: 'done', message: 'Stopped k2s-dnsproxy.', at: 0 },
      { type: 'result', op: 'stop', ok: true, exitCode: 0, message: 'K2s DNS is stopped; the host resolver is back as it was.', at: 0 },
    ]);
    expect(lines[1]).toBe('OK: K2s DNS is stopped; the host resolver is back as it was.');
  });
});

describe('lifecycle lines', () => {
  it('a running start: its skipped steps with the same text are said once, then the result (walk 14: six identical lines)', () => {
    const lines: string[] = [];
    const printed: PrintedSteps = { steps: [] };
    const ev = (step: string, status: string, message: string) => printEvent({ type: 'step', op: 'start', step, status, message, at: '' } as never, false, (s) => lines.push(s), printed);
    ev('preflight', 'done', 'dnsmasq at /usr/sbin/dnsmasq');
    for (const step of ['save', 'discover', 'config', 'service', 'activate', 'verify']) ev(step, 'skipped', 'K2s DNS is already running: nothing to do.');
    ev('ready', 'skipped', 'other text');
    expect(lines).toEqual(['✓ preflight    dnsmasq at /usr/sbin/dnsmasq', '– save         K2s DNS is already running: nothing to do.', '– ready        other text']);
    expect(printed.steps.map((s) => s.step)).toEqual(['preflight', 'save', 'discover', 'config', 'service', 'activate', 'verify', 'ready']);
  });
});
