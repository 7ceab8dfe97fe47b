/**
 * Breaker findings on files that are no resolver file: a directory at /etc/resolv.conf is start's
 * NOT_RESOLVER_FILE refusal (was INTERNAL) and, with nothing saved, no drift in status; an
 * oversize file is RESOLV_CONF_TOO_LARGE in status's words as in start's; a drifted file with a
 * NUL byte is routed as glibc reads it (a line ends at the NUL), not as "no nameserver line".
 */
import { describe, expect, it } from 'vitest';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns } from './stop';
import { followNetwork } from './follow';
import { dnsStatus } from './status';
import { trackedHosts, TEST_START_OPTS } from '../../../e2e/support/test-deps';
import { cliCommand, shellCommand } from '../../../shared/fix';
import { statusWithHealth } from '../health/status-with-health';
import { healthProbes } from '../health/probes';
import { verdictLine } from '../../../shared/health';
import { notResolverFix } from '../../../shared/network-writer';
import { formatStatus } from '../../cli/print';
import { K2S_PATHS } from '../../../shared/k2s-paths';

const host = trackedHosts();
const quiet = () => undefined;
const ORIGINAL = 'nameserver 192.0.2.53\nsearch corp.example\n';
const MOVE = `Move it away (${shellCommand('mv /etc/resolv.conf /etc/resolv.conf.moved', true)})`;

/** Replaces /etc/resolv.conf by a directory. */
async function makeDir(root: string) {
  await rm(join(root, 'etc/resolv.conf'));
  await mkdir(join(root, 'etc/resolv.conf'));
}

describe('/etc/resolv.conf is a directory', () => {
  it('nothing saved: start refuses NOT_RESOLVER_FILE (exit 3) and changes nothing; status names it, no drift, with the fix', async () => {
    const h = await host(ORIGINAL);
    await makeDir(h.root);
    const r = await startDns(h.deps, TEST_START_OPTS, quiet);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'NOT_RESOLVER_FILE' });
    expect(r.message).toBe(`/etc/resolv.conf is a directory: not a resolver file, so K2s cannot save it as your original. ${MOVE} first. ${notResolverFix()} Nothing was changed.`);
    expect(h.services.started).toHaveLength(0);
    expect((await stat(join(h.root, 'etc/resolv.conf'))).isDirectory()).toBe(true);
    await expect(stat(h.deps.fs.real(K2S_PATHS.stateFile))).rejects.toThrow('ENOENT');

    const s = await dnsStatus(h.deps, 'cli');
    expect(s.state).toBe('stopped');
    expect(s.resolverOwner).toBe('original');
    expect(s.driftRoute).toBeUndefined();
    expect(s.startRefusal).toBe('the new file is a directory: not a resolver file');
    expect(s.messages).toEqual([`/etc/resolv.conf is a directory: not a resolver file, so start would refuse it (NOT_RESOLVER_FILE). ${MOVE} first. ${notResolverFix()}`]);

    h.world.systemAnswer = null;
    const full = await statusWithHealth(healthProbes(h.deps), 'cli');
    const out = formatStatus(full);
    expect(out).toContain("resolver:   this host's own (not K2s-owned)");
    expect(out).not.toMatch(/changed by someone else|on-drift|saved original/);
    expect(full.health?.verdict.action).toBe('replace-resolver');
    expect(verdictLine(full.health!.verdict, 'cli')).toContain('and start would refuse this /etc/resolv.conf (NOT_RESOLVER_FILE): it is a directory: not a resolver file, so K2s will not save it as your original');
  });

  it('while K2s DNS runs: start refuses NOT_RESOLVER_FILE with stop as the way out; status keeps it as drift', async () => {
    const h = await host(ORIGINAL);
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    await makeDir(h.root);
    const started = h.services.started.length;
    const r = await startDns(h.deps, TEST_START_OPTS, quiet);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'NOT_RESOLVER_FILE' });
    expect(r.message).toMatch(new RegExp(`^/etc/resolv\\.conf is a directory: not a resolver file; your original from \\S+ is still saved in ${K2S_PATHS.stateFile.replace(/[.]/g, '\\.')}\\. `));
    expect(r.message.endsWith(`${MOVE}, then run ${cliCommand('stop', true)} (it puts the saved original back), then start again. Nothing was changed.`)).toBe(true);
    expect(h.services.started).toHaveLength(started);
    expect((await dnsStatus(h.deps, 'cli')).resolverOwner).toBe('foreign');
  });
});

describe('/etc/resolv.conf larger than 64 KiB, nothing saved', () => {
  it('status gives the code start refuses with: RESOLV_CONF_TOO_LARGE', async () => {
    const h = await host(ORIGINAL);
    await writeFile(join(h.root, 'etc/resolv.conf'), `nameserver 192.0.2.53\n${'# comment\n'.repeat(20_000)}`);
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: false, exitCode: 3, code: 'RESOLV_CONF_TOO_LARGE' });
    h.world.systemAnswer = null;
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(s.startRefusal).toBe("the new file is larger than a resolver file's 65536 bytes");
    expect(verdictLine(s.health!.verdict, 'cli')).toBe(`Cluster names do not resolve on this host: K2s DNS is stopped, and start would refuse this /etc/resolv.conf (RESOLV_CONF_TOO_LARGE): it is larger than a resolver file's 65536 bytes, so K2s will not save it as your original — ${notResolverFix()}`);
    expect(s.health!.hops.find((x) => x.kind === 'resolver')!.reason).toBe("/etc/resolv.conf is this host's own file (nameservers 192.0.2.53): host apps do not ask k2s-dnsproxy; start would refuse it (RESOLV_CONF_TOO_LARGE): it is larger than a resolver file's 65536 bytes");
  });
});

describe('drift to a file with a NUL byte at the end of its nameserver line', () => {
  it('routed as glibc reads it: host apps bypass K2s DNS for 192.0.2.53; the saved original stays byte-exact', async () => {
    const h = await host(ORIGINAL);
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    await writeFile(join(h.root, 'etc/resolv.conf.tmp'), Buffer.from('nameserver 192.0.2.53\0\n'), { mode: 0o644 });
    await rename(join(h.root, 'etc/resolv.conf.tmp'), join(h.root, 'etc/resolv.conf'));
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'drift', change: { reason: 'the new file is not text (it holds NUL bytes)' } });
    const s = await dnsStatus(h.deps, 'cli');
    expect(s.resolverOwner).toBe('foreign');
    expect(s.driftRoute).toEqual({ nameservers: ['192.0.2.53'], implicit: false, viaK2s: false, keepLeavesNone: false });
    expect(s.messages.join('\n')).not.toContain('Host apps still go through K2s DNS');
    h.world.systemAnswer = null;
    const full = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(full.health!.hops.find((x) => x.kind === 'resolver')).toMatchObject({ outcome: 'foreign', ok: false, answers: ['192.0.2.53'] });
    expect(verdictLine(full.health!.verdict, 'cli')).toMatch(/^Cluster names do not resolve on this host: \/etc\/resolv\.conf was changed by another program, so host apps bypass K2s DNS — /);
    const stop = await stopDns(h.deps, {}, quiet);
    expect(stop).toMatchObject({ ok: true, exitCode: 0 });
    expect(stop.message).not.toContain('pointing at 127.0.0.1:53');
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
  });
});
