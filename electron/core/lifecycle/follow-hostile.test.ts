import { describe, expect, it } from 'vitest';
import { mkdir, rename, symlink, writeFile, rm } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { startDns } from './start';
import { followNetwork } from './follow';
import { trackedHosts, TEST_START_OPTS } from '../../../e2e/support/test-deps';

const host = trackedHosts();
const quiet = () => undefined;

/** A host whose /etc/resolv.conf is resolvconf's link, started. */
async function linkedHost() {
  const h = await host();
  await mkdir(join(h.root, 'run/resolvconf'), { recursive: true });
  await writeFile(join(h.root, 'run/resolvconf/resolv.conf'), 'nameserver 192.0.2.53\n');
  await rename(join(h.root, 'etc/resolv.conf'), join(h.root, 'etc/old'));
  await symlink('../run/resolvconf/resolv.conf', join(h.root, 'etc/resolv.conf'));
  expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
  return h;
}

describe('following hostile link targets', () => {
  it('the saved link target replaced by a FIFO: the look ends (idle: no resolver file there), it does not block on the open', async () => {
    const h = await linkedHost();
    await rm(join(h.root, 'run/resolvconf/resolv.conf'));
    execFileSync('mkfifo', [join(h.root, 'run/resolvconf/resolv.conf')]);
    const r = await Promise.race([followNetwork(h.deps), new Promise((res) => setTimeout(() => res('hung'), 5000))]);
    expect(r).toMatchObject({ kind: 'idle', why: 'no new resolver file' });
  }, 15000);

  it('the saved link target replaced by a symlink to a FIFO: the look ends', async () => {
    const h = await linkedHost();
    execFileSync('mkfifo', [join(h.root, 'run/fifo')]);
    await rm(join(h.root, 'run/resolvconf/resolv.conf'));
    await symlink('/run/fifo', join(h.root, 'run/resolvconf/resolv.conf'));
    const r = await Promise.race([followNetwork(h.deps), new Promise((res) => setTimeout(() => res('hung'), 5000))]);
    expect(r).toMatchObject({ kind: 'idle', why: 'no new resolver file' });
  }, 15000);
});
