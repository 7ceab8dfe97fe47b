import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { admGidFrom, LOG_GUARD_NICE, logOwnership, openQueryLog, renderLogrotate, rotateLogIfOver, rotatedLogPath, startLogGuard } from './query-log';

let dir: string;
const started: number[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'k2s-qlog-'));
});
afterEach(() => {
  for (const pid of started.splice(0)) spawnSync('kill', ['-KILL', String(pid)]);
  rmSync(dir, { recursive: true, force: true });
});
const isRoot = process.geteuid?.() === 0;

describe('query log privacy', () => {
  it('finds the adm gid in /etc/group text; 0640 root:adm with it, 0600 root:root without', () => {
    expect(admGidFrom('root:x:0:\nadm:x:4:syslog,alice\nnogroup:x:65534:\n')).toBe(4);
    expect(admGidFrom('root:x:0:\nadmin:x:4:\n')).toBeNull();
    expect(logOwnership(4)).toEqual({ uid: 0, gid: 4, mode: 0o640 });
    expect(logOwnership(null)).toEqual({ uid: 0, gid: 0, mode: 0o600 });
  });

  // Regression: main created and kept the log 0644 (every local user read every query).
  it('creates the log 0640 and repairs an existing world-readable one', async () => {
    const log = path.join(dir, 'dnsproxy.log');
    await (await openQueryLog(log, 4)).close();
    expect(statSync(log).mode & 0o777).toBe(0o640);
    if (isRoot) expect([statSync(log).uid, statSync(log).gid]).toEqual([0, 4]);
    writeFileSync(path.join(dir, 'old.log'), 'x\n', { mode: 0o644 });
    const fh = await openQueryLog(path.join(dir, 'old.log'), null);
    await fh.appendFile('y\n');
    await fh.close();
    expect(statSync(path.join(dir, 'old.log')).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(dir, 'old.log'), 'utf8')).toBe('x\ny\n');
  });

  it('refuses a symlink planted at the log path instead of writing through it', async () => {
    const target = path.join(dir, 'victim');
    writeFileSync(target, 'keep\n', { mode: 0o600 });
    const log = path.join(dir, 'dnsproxy.log');
    symlinkSync(target, log);
    await expect(openQueryLog(log, 4)).rejects.toThrow(`The proxy log ${log} is a symlink; remove it`);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readFileSync(target, 'utf8')).toBe('keep\n');
  });

  it('refuses a symlinked log directory (O_NOFOLLOW checks only the last component)', async () => {
    const elsewhere = path.join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, path.join(dir, 'logdir'));
    const log = path.join(dir, 'logdir', 'dnsproxy.log');
    await expect(openQueryLog(log, 4)).rejects.toThrow(`The proxy log directory ${path.join(dir, 'logdir')} is a symlink; remove it`);
    expect(existsSync(path.join(elsewhere, 'dnsproxy.log'))).toBe(false);
  });
});

describe('query log size cap', () => {
  it('rotates at the cap: one old copy with the same mode, the log truncated', async () => {
    const log = path.join(dir, 'dnsproxy.log');
    writeFileSync(log, 'a'.repeat(999), { mode: 0o640 });
    expect(await rotateLogIfOver(log, 1000)).toBe(false);
    appendFileSync(log, 'b');
    writeFileSync(rotatedLogPath(log), 'older copy');
    expect(await rotateLogIfOver(log, 1000)).toBe(true);
    expect(statSync(log).size).toBe(0);
    expect(readFileSync(rotatedLogPath(log), 'utf8')).toBe(`${'a'.repeat(999)}b`);
    expect(statSync(rotatedLogPath(log)).mode & 0o777).toBe(0o640);
    expect(await rotateLogIfOver(path.join(dir, 'missing.log'), 1000)).toBe(false);
  });

  it('the guard keeps a log a writer grows fast under 2 × cap, and exits with the proxy', async () => {
    const log = path.join(dir, 'dnsproxy.log');
    // A stand-in proxy: appends 1 KiB lines (O_APPEND, like the proxy's stdout) for a while.
    const writer = spawn('sh', ['-c', `i=0; while [ $i -lt 400 ]; do head -c 1023 /dev/zero | tr '\\0' q >> '${log}'; echo >> '${log}'; i=$((i+1)); sleep 0.01; done; sleep 2`], { stdio: 'ignore' });
    started.push(writer.pid!);
    const was = process.env.NODE_EXTRA_CA_CERTS;
    process.env.NODE_EXTRA_CA_CERTS = '/etc/ssl/certs/ca-certificates.crt';
    const guard = await startLogGuard(log, writer.pid!, 64 * 1024, 50).finally(() => (was === undefined ? delete process.env.NODE_EXTRA_CA_CERTS : (process.env.NODE_EXTRA_CA_CERTS = was)));
    started.push(guard);
    // No TLS in it: started without NODE_EXTRA_CA_CERTS (child-env.ts), which Node loads at start-up.
    expect((readFileSync(`/proc/${guard}/environ`, 'utf8')).split('\0').filter((e) => e.startsWith('NODE_EXTRA_CA_CERTS='))).toEqual([]);
    // Background work: it yields the CPU to start's own processes (the proxy, the capture companion).
    expect(os.getPriority(guard)).toBe(LOG_GUARD_NICE);
    expect(LOG_GUARD_NICE).toBe(19);
    // …and its session's autogroup, the group the kernel weighs against the others (sched(7)),
    // where the kernel has autogroups.
    if (existsSync(`/proc/${guard}/autogroup`)) expect(readFileSync(`/proc/${guard}/autogroup`, 'utf8')).toMatch(/^\/autogroup-\d+ nice 19\n$/);
    let maxSeen = 0;
    await expect
      .poll(() => {
        maxSeen = Math.max(maxSeen, existsSync(log) ? lstatSync(log).size : 0);
        return existsSync(rotatedLogPath(log));
      }, { timeout: 20_000 })
      .toBe(true);
    await new Promise<void>((r) => writer.once('exit', () => r()));
    expect(lstatSync(log).size).toBeLessThan(2 * 64 * 1024);
    expect(lstatSync(rotatedLogPath(log)).size).toBeLessThan(2 * 64 * 1024);
    // 400 KiB written, at most two files of about the cap kept.
    expect(lstatSync(log).size + lstatSync(rotatedLogPath(log)).size).toBeLessThan(400 * 1024);
    await expect.poll(() => spawnSync('kill', ['-0', String(guard)]).status, { timeout: 10_000 }).not.toBe(0);
  });

  it('writes a logrotate snippet: copytruncate, one old copy, 10 MiB', () => {
    expect(renderLogrotate('/var/log/dnsproxy/dnsproxy.log')).toBe(
      '# Written by k2s-dns: the K2s DNS proxy log (one line per query when query logging is on).\n/var/log/dnsproxy/dnsproxy.log {\n  maxsize 10M\n  rotate 1\n  copytruncate\n  missingok\n  notifempty\n  nocompress\n}\n',
    );
  });
});
