import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Exec, ExecResult } from '../host/exec';
import { parseAhosts, systemLookup, systemQuery } from './system-lookup';

/** An Exec that records the argv and returns a canned result. */
function fakeExec(result: ExecResult | Error): Exec & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    async run(file, args) {
      calls.push([file, ...args]);
      if (result instanceof Error) throw result;
      return result;
    },
  };
}

const AHOSTS = [
  '172.21.0.1      STREAM kubernetes.default.svc.cluster.local',
  '172.21.0.1      DGRAM  ',
  '172.21.0.1      RAW    ',
  'fd00::1         STREAM ',
  'fd00::1         DGRAM  ',
  '',
].join('\n');

describe('systemLookup', () => {
  it('runs getent ahosts with an argv array and maps exit 0 to NOERROR with unique A/AAAA', async () => {
    const exec = fakeExec({ code: 0, stdout: AHOSTS, stderr: '' });
    const r = await systemLookup('kubernetes.default.svc.cluster.local', exec);
    expect(exec.calls).toEqual([['getent', 'ahosts', '--', 'kubernetes.default.svc.cluster.local']]);
    expect(r).toMatchObject({
      name: 'kubernetes.default.svc.cluster.local',
      server: 'system',
      transport: 'getaddrinfo',
      rcode: 'NOERROR',
      answers: [
        { name: 'kubernetes.default.svc.cluster.local', type: 'A', ttl: null, data: '172.21.0.1' },
        { name: 'kubernetes.default.svc.cluster.local', type: 'AAAA', ttl: null, data: 'fd00::1' },
      ],
    });
  });

  it('maps exit 2 to NXDOMAIN, a kill to TIMEOUT, others to ERROR', async () => {
    expect((await systemLookup('nope.example.test', fakeExec({ code: 2, stdout: '', stderr: '' }))).rcode).toBe('NXDOMAIN');
    const t = await systemLookup('slow.example.test', fakeExec({ code: null, stdout: '', stderr: '' }));
    expect(t.rcode).toBe('TIMEOUT');
    expect(t.error).toBe('getent ahosts did not finish in time: the nameservers in /etc/resolv.conf, or the servers they forward to, did not answer');
    const e = await systemLookup('x', fakeExec({ code: 1, stdout: '', stderr: 'Unknown database' }));
    expect(e).toMatchObject({ rcode: 'ERROR', error: 'getent ahosts exited with 1: Unknown database' });
    const missing = await systemLookup('x', fakeExec(new Error('spawn getent ENOENT')));
    expect(missing).toMatchObject({ rcode: 'ERROR', error: 'getent ahosts exited with -1: spawn getent ENOENT' });
  });

  it('asks the real getent for localhost (files in nsswitch.conf)', async () => {
    // execFile never writes to the child's stdin: nodeExec's stdin.end('') can race getent's
    // exit and raise an unhandled EPIPE (reported to the owner of electron/core/host/exec.ts).
    const realExec: Exec = {
      run: (file, args) =>
        new Promise((resolve) => {
          execFile(file, [...args], (err, stdout, stderr) =>
            resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
          );
        }),
    };
    const r = await systemLookup('localhost', realExec);
    expect(r.rcode).toBe('NOERROR');
    expect(r.answers.map((a) => a.data)).toContain('127.0.0.1');
  });
});

describe('parseAhosts', () => {
  it('skips lines that do not start with an address', () => {
    expect(parseAhosts('garbage line\n10.0.0.5 STREAM x\n', 'x')).toEqual([{ name: 'x', type: 'A', ttl: null, data: '10.0.0.5' }]);
    // A host without IPv4 (AI_ADDRCONFIG + getent's AI_V4MAPPED): the A answer comes back mapped.
    expect(parseAhosts('::ffff:172.21.0.1 STREAM x\n::ffff:172.21.0.1 DGRAM\nfd00::1 STREAM\n', 'x')).toEqual([
      { name: 'x', type: 'A', ttl: null, data: '172.21.0.1' },
      { name: 'x', type: 'AAAA', ttl: null, data: 'fd00::1' },
    ]);
  });
});

describe('systemQuery', () => {
  const fake = (code: number, stdout: string): Exec & { calls: string[][] } => {
    const calls: string[][] = [];
    return { calls, run: async (file, args) => (calls.push([file, ...args]), { code, stdout, stderr: '' }) };
  };

  it('asks getnameinfo (getent hosts IP) for a PTR and returns the names as PTR records', async () => {
    const exec = fake(0, '172.21.0.10     kube-dns.kube-system.svc.cluster.local\n');
    const r = await systemQuery('172.21.0.10', 'PTR', exec);
    expect(exec.calls).toEqual([['getent', 'hosts', '--', '172.21.0.10']]);
    expect(r).toMatchObject({ rcode: 'NOERROR', type: 'PTR', answers: [{ name: '172.21.0.10', type: 'PTR', ttl: null, data: 'kube-dns.kube-system.svc.cluster.local' }] });
  });

  it('says which types the system resolver cannot answer instead of running an A lookup', async () => {
    const exec = fake(0, '');
    const mx = await systemQuery('example.test', 'MX', exec);
    expect(mx).toMatchObject({ rcode: 'ERROR', type: 'MX' });
    expect(mx.error).toMatch(/answers only A\/AAAA, and PTR for an IP; ask MX through the K2s proxy/);
    // The app's compare shows it: no CLI flag in it (the CLI's usage error adds them).
    expect(mx.error).toBe('The system resolver (getaddrinfo) answers only A/AAAA, and PTR for an IP; ask MX through the K2s proxy, CoreDNS or an upstream.');
    expect((await systemQuery('example.test', 'PTR', exec)).error).toMatch(/takes an IP address/);
    expect(exec.calls).toEqual([]);
  });
});
