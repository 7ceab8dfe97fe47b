/**
 * dnsmasq drops root to Debian's own `dnsmasq` system user, not the shared `nobody`: dnsmasq
 * hands its log-facility file to that user (log.c log_start), so as `nobody` any other program
 * running as nobody could read and change the query log (new-user walk). Without that user the
 * start falls back to nobody and says so once (SHARED_PROXY_ACCOUNT).
 */
import { describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { startOptionsOf } from './options';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();
const NOBODY = 'root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n';
const DNSMASQ = 'dnsmasq:x:994:65534:dnsmasq:/var/lib/misc:/usr/sbin/nologin\n';

/** A dnsmasq start on a test host whose /etc/passwd is `passwd`: the result and the argv the service manager got. */
async function startWith(passwd: string) {
  const h = await newHost('nameserver 192.0.2.53\n');
  await writeFile(join(h.root, 'etc/passwd'), passwd);
  const opts = { ...startOptionsOf({ engine: 'dnsmasq' }, { path: TEST_START_OPTS.kubeconfigPath, tried: [], explicit: false }, 'cli'), verifyExternalName: TEST_START_OPTS.verifyExternalName };
  const r = await startDns(h.deps, opts, () => undefined);
  return { r, argv: h.services.started.map((s) => s.argv) };
}

describe('start --engine dnsmasq: the account dnsmasq drops to', () => {
  it("a host with Debian's dnsmasq user: --user=dnsmasq --group=nogroup, no warning", async () => {
    const { r, argv } = await startWith(NOBODY + DNSMASQ);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(argv).toHaveLength(1);
    expect(argv[0]!.filter((w) => w.startsWith('--user=') || w.startsWith('--group='))).toEqual(['--user=dnsmasq', '--group=nogroup']);
    expect(r.warnings ?? []).toEqual([]);
    expect(r.message).not.toContain('Warning');
  });

  it('a host without it: --user=nobody, and the start result says so once (SHARED_PROXY_ACCOUNT) with the fix', async () => {
    const { r, argv } = await startWith(NOBODY);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(argv[0]!.filter((w) => w.startsWith('--user=') || w.startsWith('--group='))).toEqual(['--user=nobody', '--group=nogroup']);
    expect((r.warnings ?? []).map((w) => w.code)).toEqual(['SHARED_PROXY_ACCOUNT']);
    expect(r.warnings![0]!.message).toContain('install dnsmasq-base');
    expect(r.message.split('shared account nobody')).toHaveLength(2);
  });

  it('adguard is not affected: the service manager drops it (runAs), no --user on its argv, no warning', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    await writeFile(join(h.root, 'etc/passwd'), NOBODY);
    await mkdir(join(h.root, 'opt/k2s/bin'), { recursive: true });
    await writeFile(join(h.root, 'opt/k2s/bin/dnsproxy'), '#!/bin/sh\n', { mode: 0o755 });
    const r = await startDns(h.deps, { ...TEST_START_OPTS, engine: 'adguard' }, () => undefined);
    expect(r).toMatchObject({ ok: true });
    expect(h.services.started[0]!.argv[0]).toMatch(/\/opt\/k2s\/bin\/dnsproxy$/);
    expect(h.services.started[0]!.argv.some((w) => w.startsWith('--user'))).toBe(false);
    expect(h.services.started[0]!.runAs).toEqual({ user: 'nobody', group: 'nogroup' });
    expect((r.warnings ?? []).map((w) => w.code)).not.toContain('SHARED_PROXY_ACCOUNT');
  });
});
