import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rename, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns } from './stop';
import { followNetwork } from './follow';
import { dnsStatus } from './status';
import { trackedHosts, TEST_START_OPTS } from '../../../e2e/support/test-deps';

const host = trackedHosts();
const quiet = () => undefined;
const ORIGINAL = 'nameserver 192.0.2.53\nsearch corp.example\n';

/** A started host whose /etc/resolv.conf someone replaced by a link to `what` (made under /run). */
async function linkedTo(what: 'dir' | 'fifo') {
  const h = await host(ORIGINAL);
  expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
  const end = join(h.root, 'run/odd');
  if (what === 'dir') await mkdir(end);
  else execFileSync('mkfifo', [end]);
  await symlink('../run/odd', join(h.root, 'etc/resolv.conf.new'));
  await rename(join(h.root, 'etc/resolv.conf.new'), join(h.root, 'etc/resolv.conf'));
  return h;
}

const WORDS = { dir: 'a directory: not a resolver file', fifo: 'a FIFO (named pipe): not a resolver file' } as const;

describe('/etc/resolv.conf → a directory or a FIFO: named as what it is, never "an empty file", never read', () => {
  it.each(['dir', 'fifo'] as const)('a link to a %s: status, follow and a kept stop say what it is', async (what) => {
    const h = await linkedTo(what);
    const status = await dnsStatus(h.deps, 'cli');
    expect(status.resolverOwner).toBe('foreign');
    expect(status.messages.join('\n')).toContain(`/etc/resolv.conf was replaced by a symlink → ../run/odd, which is ${WORDS[what]}: host apps get no nameserver from it`);
    // The window's note names the control there is (the card's Stop reads "Stop… (choose at the top)"), walk 12 M2.
    const gui = (await dnsStatus(h.deps, 'gui')).messages.join('\n');
    expect(gui).toContain(`which is ${WORDS[what]}: host apps get no nameserver from it; choose in the banner at the top.`);
    expect(gui).not.toContain('press Stop');

    const r = await followNetwork(h.deps);
    expect(r).toMatchObject({ kind: 'drift', change: { reason: `the link ends at /run/odd, which is ${WORDS[what]}; stop puts the saved original back` } });
    expect(JSON.stringify(r)).not.toContain('empty');

    const stop = await stopDns(h.deps, { onDrift: 'keep' }, quiet);
    // Walk 9 M2: kept as asked, yet no DNS: a warning and status's exit 5.
    expect(stop).toMatchObject({ ok: true, exitCode: 5, warnings: [{ code: 'RESOLVER_DOWN', message: expect.stringContaining(`No name resolves on this host now: the kept /etc/resolv.conf is a symlink → ../run/odd, which is ${WORDS[what]};`) }] });
    expect(stop.message).toContain(`No name resolves on this host now: /etc/resolv.conf is a symlink → ../run/odd, which is ${WORDS[what]}`);
  });

  it('a stop without --on-drift puts the saved original back over such a link, saying why', async () => {
    const h = await linkedTo('fifo');
    const stop = await stopDns(h.deps, {}, quiet);
    expect(stop).toMatchObject({ ok: true });
    expect(stop.message).toContain(`Someone else had replaced /etc/resolv.conf by a symlink → ../run/odd, which is ${WORDS.fifo}. Keeping their file would give host apps no nameserver`);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
  });

  it('/etc/resolv.conf itself a FIFO: status names it', async () => {
    const h = await host(ORIGINAL);
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    await rm(join(h.root, 'etc/resolv.conf'));
    execFileSync('mkfifo', [join(h.root, 'etc/resolv.conf')]);
    expect((await dnsStatus(h.deps, 'cli')).messages.join('\n')).toContain(`/etc/resolv.conf is ${WORDS.fifo}; move it away`);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'drift', change: { how: '/etc/resolv.conf replaced by a FIFO (named pipe)' } });
  });

  it('HostFs.readFile of a FIFO with no writer refuses it at once instead of waiting for a writer', async () => {
    const h = await host(ORIGINAL);
    execFileSync('mkfifo', [join(h.root, 'run/pipe')]);
    await expect(h.deps.fs.readFile('/run/pipe')).rejects.toThrow('/run/pipe is a FIFO (named pipe), not a file');
    await expect(h.deps.fs.readFile('/run/pipe', { maxBytes: 10 })).rejects.toThrow('/run/pipe is a FIFO (named pipe), not a file');
    expect((await h.deps.fs.lstat('/run/pipe'))?.special).toBe('fifo');
  });
});
