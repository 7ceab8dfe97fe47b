import { describe, expect, it } from 'vitest';
import { renderCaptureUnit } from '../../../shared/capture-unit';
import { CAPTURE_EXIT_CONFIG } from '../../../shared/capture-exit';
import { isCaptureArgv } from '../host/capture-companion';
import { PassThrough } from 'node:stream';
import { accountFrom, firstLine, runCapture } from './capture-main';
import { argsOfGoLine, CAPTURE_HELD_FLAG, CAPTURE_VERB, captureArgs, capturePorts, heldGoLine, parseCaptureArgs } from './capture-args';
import type { HostFs } from '../host/host-fs';
import { tcpdumpArgv } from './tcpdump-argv';

describe('capture companion command line', () => {
  it('round-trips listeners and ports, and refuses anything not plain', () => {
    const args = captureArgs({ listeners: ['127.0.0.1:53', '172.19.1.1:53', '[::1]:53'], ports: [53, 5353, 53] });
    expect(args).toEqual(['--listen', '127.0.0.1:53', '--listen', '172.19.1.1:53', '--listen', '[::1]:53', '--port', '53', '--port', '5353']);
    expect(parseCaptureArgs(args)).toEqual({ listeners: ['127.0.0.1:53', '172.19.1.1:53', '[::1]:53'], ports: [53, 5353] });
    for (const bad of [['--listen', '127.0.0.1'], ['--listen', '127.0.0.1:53;rm'], ['--port', '0'], ['--port', '65536'], ['--listen', '127.0.0.1:53', '--port', '53', '--user', 'root'], ['--listen', '127.0.0.1:53'], ['--port', '53', '--listen']]) {
      expect(() => parseCaptureArgs(bad)).toThrow();
    }
  });

  it('captures the listeners\' ports and every upstream\'s (53 when none is written)', () => {
    expect(capturePorts([53], ['192.0.2.53', '172.21.0.10:53', '[2001:db8::1]:5353', '198.51.100.1:1053', 'fe80::1'])).toEqual([53, 1053, 5353]);
  });

  it('tcpdump argv: any interface, drops to nobody after opening, a filter of exactly those ports', () => {
    expect(tcpdumpArgv({ iface: 'any', ports: capturePorts([53], ['198.51.100.1:1053']), user: 'nobody' })).toEqual(['-i', 'any', '-y', 'LINUX_SLL2', '-n', '-s', '4200', '-B', '2048', '-U', '-w', '-', '-Z', 'nobody', '(port 53 or port 1053) and not (outbound and ifindex 1)']);
  });

  it('tcpdump argv tunings the bench compares: immediate mode, both loopback copies (the reader before)', () => {
    expect(tcpdumpArgv({ iface: 'any', ports: [53], user: 'nobody' }, { immediate: true, loopbackOnce: false })).toEqual(['-i', 'any', '-y', 'LINUX_SLL2', '-n', '-s', '4200', '-B', '2048', '--immediate-mode', '-U', '-w', '-', '-Z', 'nobody', 'port 53']);
  });

  it('finds the parser\'s account in /etc/passwd', () => {
    expect(accountFrom('root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n', 'nobody')).toEqual({ uid: 65534, gid: 65534 });
    expect(accountFrom('root:x:0:0::/root:/bin/bash\n', 'nobody')).toBeNull();
  });

  it('knows its own processes by the verb after node and the entry, never by a substring', () => {
    expect(isCaptureArgv(['/usr/bin/node', '/usr/lib/k2s-dns/dist/k2s-dns.mjs', CAPTURE_VERB, '--listen', '127.0.0.1:53'])).toBe(true);
    expect(isCaptureArgv(['/usr/bin/node', '/x/k2s-dns.mjs', 'status', '--capture-watch'])).toBe(false);
    expect(isCaptureArgv(['/usr/bin/tcpdump', '-i', 'any'])).toBe(false);
  });
});

describe('k2s-dnsproxy-capture.service', () => {
  it('is a companion of k2s-dnsproxy.service: started, stopped and restarted with it, never alone, and it stops its capture itself; not restarted for a bad flags file (78, EX_CONFIG)', () => {
    const unit = renderCaptureUnit(['/usr/bin/node', '/usr/lib/k2s-dns/dist/k2s-dns.mjs', CAPTURE_VERB, '--listen', '127.0.0.1:53', '--port', '53']);
    expect(unit.split('\n').filter((l) => /^(PartOf|Requisite|After|WantedBy|ExecStart|ExecStop|KillMode|Restart|RestartPreventExitStatus|Type)=/.test(l))).toEqual([
      'PartOf=k2s-dnsproxy.service',
      'Requisite=k2s-dnsproxy.service',
      'After=k2s-dnsproxy.service',
      'Type=simple',
      'ExecStart=/usr/bin/node /usr/lib/k2s-dns/dist/k2s-dns.mjs capture-watch --listen 127.0.0.1:53 --port 53',
      "ExecStop=-/bin/sh -c '[ -z \"$$1\" ] || echo 0 > /proc/$$1/autogroup' k2s-capture-stop $MAINPID",
      'KillMode=mixed',
      'RestartPreventExitStatus=78',
      'Restart=on-failure',
      'WantedBy=k2s-dnsproxy.service',
    ]);
    expect(() => renderCaptureUnit(['node', 'x'])).toThrow(/absolute/);
  });
});

describe('a held capture companion (started before its flags are known)', () => {
  it('its go line carries the flags and nothing else passes as one', () => {
    const args = ['--listen', '127.0.0.1:53', '--port', '53'];
    expect(heldGoLine(args)).toBe('go ["--listen","127.0.0.1:53","--port","53"]');
    expect(argsOfGoLine(heldGoLine(args))).toEqual(args);
    expect(() => heldGoLine(['--user', 'root'])).toThrow();
    for (const bad of ['go', 'go {}', 'go [1]', 'go ["a"] x', 'GO ["--port","53"]', '', 'go [']) expect(argsOfGoLine(bad)).toBeNull();
    expect(CAPTURE_HELD_FLAG).toBe('--held');
  });

  it('firstLine: the first line, or null when the input ends first or the line passes 64 KiB', async () => {
    const a = new PassThrough();
    const la = firstLine(a);
    a.write('go ["x"');
    a.write(']\nmore\n');
    expect(await la).toBe('go ["x"]');
    const b = new PassThrough();
    const lb = firstLine(b);
    b.end('go without a newline');
    expect(await lb).toBeNull();
    const c = new PassThrough();
    const lc = firstLine(c);
    c.write('x'.repeat(70 * 1024));
    expect(await lc).toBeNull();
  });

  /**
   * A HostFs that fails the test on any use but `real` (a path, nothing done; the companion's
   * reads go to a directory that does not exist): a held companion writes nothing before its go line.
   */
  const untouchable = new Proxy({}, { get: (_t, k) => (k === 'then' ? undefined : k === 'real' ? (p: string) => `/nonexistent-k2s-test${p}` : () => { throw new Error(`fs.${String(k)} used before the go line`); }) }) as HostFs;

  it('dropped (stdin ends without a go line): exits 0 having touched nothing', async () => {
    const input = new PassThrough();
    const r = runCapture(untouchable, 0, [CAPTURE_HELD_FLAG], '/x/k2s-dns.mjs', input);
    input.end();
    expect(await r).toBe(0);
  });

  it('let go: takes its flags from the go line (a bad flag or line there is its bad configuration, 78: its keeper does not restart it; not root is 3), and never from its own argv', async () => {
    const bad = new PassThrough();
    const r1 = runCapture(untouchable, 0, [CAPTURE_HELD_FLAG], '/x/k2s-dns.mjs', bad);
    bad.end('go ["--listen","127.0.0.1:53","--port","99999"]\n');
    expect(await r1).toBe(CAPTURE_EXIT_CONFIG);
    const user = new PassThrough();
    const r2 = runCapture(untouchable, 1000, [CAPTURE_HELD_FLAG], '/x/k2s-dns.mjs', user);
    user.end(`${heldGoLine(['--listen', '127.0.0.1:53', '--port', '53'])}\n`);
    expect(await r2).toBe(3);
    const garbage = new PassThrough();
    const r3 = runCapture(untouchable, 0, [CAPTURE_HELD_FLAG], '/x/k2s-dns.mjs', garbage);
    garbage.end('rm -rf /\n');
    expect(await r3).toBe(CAPTURE_EXIT_CONFIG);
  });
});
