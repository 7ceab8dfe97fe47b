/**
 * stop's restore reads /etc/resolv.conf three times (before, right before the rename, after) and
 * reads no immutable flag from any of them (teardown.ts readNow): it runs no `lsattr`, two
 * processes less on its path (issue #21), and still puts the original back byte for byte.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns } from './stop';
import { makeTestHost } from '../../../e2e/support/test-deps';

const hosts: Array<{ cleanup: () => Promise<unknown> }> = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.cleanup();
});

const ORIGINAL = 'nameserver 192.0.2.53\noptions edns0\n';

describe("stop's restore", () => {
  it('runs no lsattr and restores the original byte for byte', async () => {
    const h = await makeTestHost(ORIGINAL);
    hosts.push(h);
    expect((await startDns(h.deps, { kubeconfigPath: '/etc/kubernetes/admin.conf', verifyExternalName: 'www.example.test' }, () => undefined)).ok).toBe(true);
    const ran: string[] = [];
    const real = h.deps.exec;
    h.deps.exec = { run: (file, args, opts) => (ran.push(file), real.run(file, args, opts)) };
    const r = await stopDns(h.deps, {}, () => undefined);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    expect(ran.filter((f) => f === 'lsattr')).toEqual([]);
  });
});
