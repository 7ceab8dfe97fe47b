/**
 * Breaker 10 L2, L4: a refused file whose owner or mode is changed later was written when the
 * follower first saw it. A chmod of a file refused for its bytes (NUL) keeps the refusal's first
 * time; a follow after the printed chmod fix says the write at the refusal's time and the fix at
 * its own, in status's note and in its `saved:` words.
 */
import { describe, expect, it } from 'vitest';
import { chmod, chown, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeNetworkChange } from '../../../shared/network-writer';
import { savedOriginalWords } from '../../../shared/saved-copy';
import { startDns } from './start';
import { followNetwork } from './follow';
import { dnsStatus } from './status';
import { trackedHosts, TEST_START_OPTS } from '../../../e2e/support/test-deps';

const host = trackedHosts();
const quiet = () => undefined;
const THEIRS = '# written by my-dhcp\nnameserver 192.0.2.66\nsearch corp.test\n';
const readState = async (root: string) => JSON.parse(await readFile(join(root, 'var/lib/k2s/dns-resolver-state.json'), 'utf8'));
const WRITE = Date.parse('2026-12-05T01:25:53.000Z');
const FIX = Date.parse('2026-12-05T01:25:59.000Z');

/** Puts `text` at /etc/resolv.conf by rename, root:root with `mode`. */
async function theyWrite(root: string, text: string, mode: number) {
  const tmp = join(root, 'etc/resolv.conf.new');
  await writeFile(tmp, text);
  await chown(tmp, 0, 0);
  await chmod(tmp, mode);
  await rename(tmp, join(root, 'etc/resolv.conf'));
}

describe('the time a refused file was written', () => {
  it('a NUL file refused at 01:27:31 and chmod 644 at 01:27:33: still refused, its record keeps 01:27:31', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    let now = Date.parse('2026-12-05T01:27:31.000Z');
    h.deps.now = () => now;
    await theyWrite(h.root, `${THEIRS}\0\0`, 0o666);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'drift' });
    const first = (await readState(h.root)).lastNetworkChange;
    expect(first.at).toBe('2026-12-05T01:27:31.000Z');

    now = Date.parse('2026-12-05T01:27:33.000Z');
    await chmod(join(h.root, 'etc/resolv.conf'), 0o644);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'drift', change: { at: '2026-12-05T01:27:31.000Z', judged: { mode: 0o644 } } });
    const second = (await readState(h.root)).lastNetworkChange;
    expect(second.at).toBe('2026-12-05T01:27:31.000Z');
    expect(second.judged.mode).toBe(0o644);
    expect(second.reason).toBe(first.reason);
    // Other bytes are another file: a new time.
    now = Date.parse('2026-12-05T01:27:40.000Z');
    await theyWrite(h.root, `${THEIRS}# again\0`, 0o644);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'drift', change: { at: '2026-12-05T01:27:40.000Z' } });
  });

  it('written 0666 at 01:25:53, chmod o-w at 01:25:59: the note and saved: say the write at :53, the fix at :59', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    let now = WRITE;
    h.deps.now = () => now;
    await theyWrite(h.root, THEIRS, 0o666);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'drift' });
    now = FIX;
    await chmod(join(h.root, 'etc/resolv.conf'), 0o664);
    const r = await followNetwork(h.deps);
    expect(r).toMatchObject({ kind: 'followed', change: { at: '2026-12-05T01:25:59.000Z', fixed: { refusedAt: '2026-12-05T01:25:53.000Z', fix: 'mode fixed to 0664' } } });
    const change = (await readState(h.root)).lastNetworkChange;
    const note = '2026-12-05T01:25:53.000Z: another program (its first comment: "# written by my-dhcp") wrote a new resolver (/etc/resolv.conf replaced by a new file); not followed then (it was writable by every user (mode 0666)); mode fixed to 0664 at 01:25:59 UTC, followed: upstreams 192.0.2.53 → 192.0.2.66, and stop restores that file.';
    expect(describeNetworkChange(change)).toBe(note);
    const s = await dnsStatus(h.deps);
    expect(s.messages).toContain(note);
    const hhmmss = (ms: number) => `${new Date(ms).toISOString().slice(11, 19)} UTC`;
    expect(s.savedOriginal).toBe('written by another program (its first comment: "# written by my-dhcp") at 01:25:53 UTC; mode fixed to 0664 at 01:25:59 UTC, followed while K2s DNS ran');
    expect(savedOriginalWords(s.savedAt!, s.savedBy, change, hhmmss)).toBe(s.savedOriginal);
  });
});
