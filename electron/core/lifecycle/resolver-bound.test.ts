/**
 * Every read of /etc/resolv.conf is bounded (RESOLVER_READ_BYTES, 64 KiB + 1): a huge file
 * (the breaker's 200 MB one) is never read whole by status or stop. Stop restores the saved
 * original over it by default (no resolver file: the same rule as a file with no nameserver),
 * keeps no copy, and says it was replaced and how large it was; start refuses to save one.
 * The injected fs reports a 200 MB size and fails any unbounded read of the file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns } from './stop';
import { dnsStatus } from './status';
import { makeTestHost } from '../../../e2e/support/test-deps';
import { RESOLVER_READ_BYTES } from '../../../shared/network-writer';
import type { HostFs } from '../host/host-fs';

const hosts: Array<{ cleanup: () => Promise<unknown> }> = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.cleanup();
});

const opts = { kubeconfigPath: '/etc/kubernetes/admin.conf', verifyExternalName: 'www.example.test' };
const ORIGINAL = 'nameserver 192.0.2.53\nsearch corp.example\n';
const HUGE = 200 * 1024 * 1024;
const sink = () => undefined;

/** `fs` whose /etc/resolv.conf says it is HUGE bytes and throws on any read past the bound. */
function boundedFs(fs: HostFs, unbounded: string[]): HostFs {
  const big = (p: string) => p === '/etc/resolv.conf';
  return {
    ...fs,
    real: (p) => fs.real(p),
    lstat: async (p) => {
      const st = await fs.lstat(p);
      return st && big(p) && st.kind === 'file' ? { ...st, size: HUGE } : st;
    },
    stat: async (p) => {
      const st = await fs.stat(p);
      return st && big(p) && st.kind === 'file' ? { ...st, size: HUGE } : st;
    },
    readFile: async (p, o) => {
      if (big(p) && (o?.maxBytes === undefined || o.maxBytes > RESOLVER_READ_BYTES)) {
        unbounded.push(`${p} maxBytes=${o?.maxBytes}`);
        throw new Error(`read ${p} whole`);
      }
      return fs.readFile(p, o);
    },
  };
}

async function hugeDrift() {
  const h = await makeTestHost(ORIGINAL);
  hosts.push(h);
  expect((await startDns(h.deps, opts, sink)).ok).toBe(true);
  // Over the bound: 64 KiB of comment lines and more; the fs says 200 MB.
  await writeFile(join(h.root, 'etc/resolv.conf'), `nameserver 192.0.2.99\n${'#'.repeat(99)}\n`.repeat(1000));
  const unbounded: string[] = [];
  const deps = { ...h.deps, fs: boundedFs(h.deps.fs, unbounded) };
  return { h, deps, unbounded };
}

describe('a /etc/resolv.conf larger than a resolver file', () => {
  it('status reads it only up to the bound and names the drift by its size', async () => {
    const { deps, unbounded } = await hugeDrift();
    const s = await dnsStatus(deps);
    expect(unbounded).toEqual([]);
    expect(s.resolverOwner).toBe('foreign');
    expect(s.messages.join('\n')).toContain(`/etc/resolv.conf was replaced by a file of ${HUGE} bytes: not a resolver file: larger than 64 KiB while K2s ran`);
  });

  it('stop restores the original over it by default, reads it only up to the bound, and says how large it was', async () => {
    const { h, deps, unbounded } = await hugeDrift();
    const r = await stopDns(deps, {}, sink);
    expect(unbounded).toEqual([]);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    expect(r.message).toContain(`Someone else had replaced /etc/resolv.conf by a file of ${HUGE} bytes: not a resolver file: larger than 64 KiB. It was not kept and not copied`);
    expect(r.message).toContain('(--on-drift keep would have kept theirs)');
  });

  it('stop --on-drift keep keeps it', async () => {
    const { h, deps, unbounded } = await hugeDrift();
    const before = await readFile(join(h.root, 'etc/resolv.conf'));
    const r = await stopDns(deps, { onDrift: 'keep' }, sink);
    expect(unbounded).toEqual([]);
    expect(r.ok).toBe(true);
    expect((await readFile(join(h.root, 'etc/resolv.conf'))).equals(before)).toBe(true);
    expect(r.message).toContain('Kept the /etc/resolv.conf someone else wrote');
  });

  it('start refuses to save a copy of one', async () => {
    const h = await makeTestHost(`nameserver 192.0.2.53\n${'#'.repeat(99)}\n`.repeat(1000));
    hosts.push(h);
    const unbounded: string[] = [];
    const r = await startDns({ ...h.deps, fs: boundedFs(h.deps.fs, unbounded) }, opts, sink);
    expect(unbounded).toEqual([]);
    expect(r.ok).toBe(false);
    expect(r.code).toBe('RESOLV_CONF_TOO_LARGE');
    expect(r.message).toContain(`/etc/resolv.conf is a file of ${HUGE} bytes: not a resolver file: larger than 64 KiB, so K2s cannot save a copy`);
  });
});
