/**
 * Issue #20: a file written by "an unknown program" (no header: `printf > /etc/resolv.conf`, or
 * Debian's isc-dhclient through dhclient-script's make_resolv_conf) is followed — it is a real
 * network writer — but (a) it is named truthfully everywhere, never "by k2s-dns", and (b) the
 * file from before Start is kept beside the saved original, so `stop --restore start` can put it
 * back byte for byte; a plain stop still restores the newest (followed) file.
 */
import { describe, expect, it } from 'vitest';
import { chmod, chown, lstat, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns, uninstallDns } from './stop';
import { followNetwork } from './follow';
import { dnsStatus } from './status';
import { formatStatus } from '../../cli/print';
import { networkChangeLine } from '../../../renderer/src/lib/network-changes';
import { trackedHosts, TEST_START_OPTS } from '../../../e2e/support/test-deps';
import { cliTimeText } from '../../../shared/clock';

const host = trackedHosts();
const quiet = () => undefined;
const ORIGINAL = '# the admin\'s own file\nnameserver 192.0.2.53\nsearch corp.example\n';
/** What dhclient-script's make_resolv_conf writes: no header at all. */
const DHCLIENT = 'domain lan.example\nsearch lan.example\nnameserver 192.0.2.88\n';
const START_COPY = 'var/lib/k2s/dns-resolver-start.json';
/** The backend's clock in status JSON; the CLI prints it local with its zone (shared/clock.ts cliTimeText). */
const hhmmss = (iso: string) => `${new Date(iso).toISOString().slice(11, 19)} UTC`;
const root0 = process.geteuid?.() === 0;

/** A host whose original is 0640 root:4 (adm), so mode and owner are checked too; K2s DNS started. */
async function started() {
  const h = await host(ORIGINAL);
  await chmod(join(h.root, 'etc/resolv.conf'), 0o640);
  if (root0) await chown(join(h.root, 'etc/resolv.conf'), 0, 4);
  const before = await lstat(join(h.root, 'etc/resolv.conf'));
  expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
  const startedAt = JSON.parse(await readFile(join(h.root, 'var/lib/k2s/dns-resolver-state.json'), 'utf8')).savedAt as string;
  return { ...h, startedAt, before };
}

/** A headerless write by rename, as dhclient-script does (mv -f of its temp file). */
async function dhclientWrites(root: string, text = DHCLIENT) {
  await writeFile(join(root, 'etc/resolv.conf.dhclient-new'), text, { mode: 0o644 });
  await rename(join(root, 'etc/resolv.conf.dhclient-new'), join(root, 'etc/resolv.conf'));
}

describe('a followed file with no header (issue #20)', () => {
  it('one name for one file: the record of a drift and status\'s judgement of the file there now say the same writer, with its first comment quoted, never as a program name (walk 8 L4)', async () => {
    const h = await host(ORIGINAL);
    expect(await startDns(h.deps, { ...TEST_START_OPTS, onNetworkChange: 'keep' }, quiet)).toMatchObject({ ok: true });
    // Written in place twice, refused for the same reason (the keep policy): first with no comment…
    await writeFile(join(h.root, 'etc/resolv.conf'), 'nameserver 192.0.2.99\n');
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'drift', change: { writer: 'an unknown program', evidence: '' } });
    // …then by hand with one: a new record, not the first file's writer kept.
    await writeFile(join(h.root, 'etc/resolv.conf'), '# my own\nnameserver 192.0.2.98\n');
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'drift', change: { writer: 'an unknown program', evidence: '# my own' } });
    const st = await dnsStatus(h.deps);
    const who = 'another program (its first comment: "# my own")';
    expect(st.driftWriter).toBe(who);
    // The follower's verb (walk 11 L10): written in place, said so in status's drift note too.
    expect(st.messages.find((m) => m.startsWith('/etc/resolv.conf was rewritten in place by'))).toContain(`rewritten in place by ${who} while K2s ran`);
    expect(st.messages.find((m) => m.includes('changed the resolver'))).toContain(`: ${who} changed the resolver (/etc/resolv.conf rewritten in place); not followed: the policy is --on-network-change keep.`);
    expect(networkChangeLine(st.networkChange!)).toMatch(/network change not followed: another program \(its first comment: "# my own"\) — /);
    expect(formatStatus(st)).not.toMatch(/unknown program|no header/);
  });

  it('is named "another program (the file does not say which)" in status, --json, the CLI and the timeline — never "by k2s-dns"', async () => {
    const h = await started();
    await dhclientWrites(h.root);
    const r = await followNetwork(h.deps);
    expect(r).toMatchObject({ kind: 'followed', change: { writer: 'an unknown program', evidence: '', to: ['192.0.2.88'] } });
    const at = (r as { change: { at: string } }).change.at;

    const st = await dnsStatus(h.deps);
    expect(st.savedOriginal).toBe(`written by another program (the file does not say which) at ${hhmmss(at)}, followed while K2s DNS ran`);
    const printed = formatStatus(st);
    expect(printed).toContain(`saved:      written by another program (the file does not say which) at ${cliTimeText(Date.parse(at))}, followed while K2s DNS ran`);
    expect(printed).not.toMatch(/saved: .*by k2s-dns/);
    expect(JSON.parse(JSON.stringify(st)).savedOriginal).not.toContain('k2s-dns');
    expect(st.messages.join('\n')).toContain('another program (the file does not say which) wrote a new resolver');
    expect(networkChangeLine(st.networkChange!)).toMatch(/network change followed: another program \(the file does not say which\) — upstreams 192\.0\.2\.53 → 192\.0\.2\.88$/);
  });

  it('before any follow the saved original is "the file in place at Start", and no start copy is offered', async () => {
    const h = await started();
    const st = await dnsStatus(h.deps);
    expect(st.savedOriginal).toBe(`the file in place at Start, saved at ${hhmmss(h.startedAt)} by k2s-dns`);
    expect(st.startCopy).toBeUndefined();
    expect(await lstat(join(h.root, START_COPY)).catch(() => null)).toBeNull();
  });

  it('keeps the file from before Start, byte for byte with mode and owner, once; stop --restore start puts it back and removes the copy', async () => {
    const h = await started();
    const before = h.before;
    await dhclientWrites(h.root);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'followed' });
    const copy = JSON.parse(await readFile(join(h.root, START_COPY), 'utf8'));
    expect(Buffer.from(copy.resolvConf.contentBase64, 'base64').toString('utf8')).toBe(ORIGINAL);
    expect(copy).toMatchObject({ savedAt: h.startedAt, resolvConf: { kind: 'file', mode: 0o640, uid: before.uid, gid: before.gid } });
    expect(((await lstat(join(h.root, START_COPY))).mode & 0o777)).toBe(0o600);

    // A second follow replaces the saved original again, never the start copy.
    await dhclientWrites(h.root, 'nameserver 192.0.2.99\n');
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'followed' });
    expect(Buffer.from(JSON.parse(await readFile(join(h.root, START_COPY), 'utf8')).resolvConf.contentBase64, 'base64').toString('utf8')).toBe(ORIGINAL);

    const st = await dnsStatus(h.deps);
    expect(st.startCopy).toEqual({ savedAt: h.startedAt });
    expect(st.messages).toContain(`The file from before Start (${hhmmss(h.startedAt)}) is kept; \`sudo npx k2s-dns stop --restore start\` puts it back.`);

    const stop = await stopDns(h.deps, { restore: 'start' }, quiet);
    expect(stop).toMatchObject({ ok: true });
    expect(stop.message).toContain(`Restored the file from before Start (saved at ${h.startedAt}), byte for byte, instead of the file another program (the file does not say which) wrote at`);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    const after = await lstat(join(h.root, 'etc/resolv.conf'));
    expect(after.mode & 0o7777).toBe(0o640);
    expect([after.uid, after.gid]).toEqual([before.uid, before.gid]);
    expect(await lstat(join(h.root, START_COPY)).catch(() => null)).toBeNull();
    expect(await lstat(join(h.root, 'var/lib/k2s/dns-resolver-state.json')).catch(() => null)).toBeNull();
  });

  it('drift after a follow (walk 7 M2): status names what the restore choice puts back (the followed file) and the command that puts back the file from before Start, in one note (walk 11 L5); that command does', async () => {
    const h = await started();
    await dhclientWrites(h.root);
    const r = await followNetwork(h.deps);
    expect(r).toMatchObject({ kind: 'followed' });
    const at = (r as { change: { at: string } }).change.at;
    await writeFile(join(h.root, 'etc/resolv.conf'), 'garbage that is no resolver file\n');
    const st = await dnsStatus(h.deps);
    expect(st.resolverOwner).toBe('foreign');
    // Named as the banner's button names it (walk 9 L1), the file from before Start said once.
    expect(st.messages.filter((m) => m.includes('from before Start'))).toEqual([
      `The file from before Start (${hhmmss(h.startedAt)}) is kept; \`sudo npx k2s-dns stop --restore start\` puts it back over their file, while "Restore the saved file from ${hhmmss(at)}" (\`sudo npx k2s-dns stop --on-drift restore\`) puts back the saved file written by another program (the file does not say which) at ${hhmmss(at)}.`,
    ]);
    expect((await dnsStatus(h.deps, 'gui')).messages.filter((m) => m.includes('from before Start'))).toEqual([
      `The file from before Start (${hhmmss(h.startedAt)}) is kept; choosing "the file from before Start" in "Stop puts back" beside Stop puts it back, with Stop or the drift banner's restore, instead of the saved file written by another program (the file does not say which) at ${hhmmss(at)} (the default).`,
    ]);
    // The printed command, as printed.
    expect(await stopDns(h.deps, { restore: 'start' }, quiet)).toMatchObject({ ok: true });
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
  });

  it('deleted after a follow (walk 11 M2): the one note names no file of theirs, and says what a plain stop puts back; --restore start puts back the file from before Start', async () => {
    const h = await started();
    await dhclientWrites(h.root);
    const r = await followNetwork(h.deps);
    expect(r).toMatchObject({ kind: 'followed' });
    const at = (r as { change: { at: string } }).change.at;
    await rm(join(h.root, 'etc/resolv.conf'));
    const st = await dnsStatus(h.deps);
    expect(st).toMatchObject({ resolverOwner: 'foreign', driftGone: 'deleted' });
    expect(st.messages.filter((m) => m.includes('from before Start'))).toEqual([
      `The file from before Start (${hhmmss(h.startedAt)}) is kept; \`sudo npx k2s-dns stop --restore start\` puts it back, while a plain \`sudo npx k2s-dns stop\` puts back the saved file written by another program (the file does not say which) at ${hhmmss(at)}.`,
    ]);
    expect(st.messages.join('\n')).not.toContain('their file');
    expect(await stopDns(h.deps, { restore: 'start' }, quiet)).toMatchObject({ ok: true });
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
  });

  it('no drift after a follow: no restore-choice sentence', async () => {
    const h = await started();
    await dhclientWrites(h.root);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'followed' });
    expect((await dnsStatus(h.deps)).messages.filter((m) => m.includes('from before Start'))).toEqual([
      `The file from before Start (${hhmmss(h.startedAt)}) is kept; \`sudo npx k2s-dns stop --restore start\` puts it back.`,
    ]);
    expect((await dnsStatus(h.deps, 'gui')).messages.filter((m) => m.includes('from before Start'))).toEqual([
      `The file from before Start (${hhmmss(h.startedAt)}) is kept; choosing "the file from before Start" in "Stop puts back" beside Stop puts it back.`,
    ]);
  });

  it('plain stop keeps its default: the newest followed file, byte for byte; the start copy goes with the state', async () => {
    const h = await started();
    await dhclientWrites(h.root);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'followed' });
    const stop = await stopDns(h.deps, {}, quiet);
    expect(stop).toMatchObject({ ok: true });
    expect(stop.message).toContain('Restored the file another program (the file does not say which) wrote at');
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(DHCLIENT);
    expect(await lstat(join(h.root, START_COPY)).catch(() => null)).toBeNull();
  });

  it('uninstall removes the start copy too', async () => {
    const h = await started();
    await dhclientWrites(h.root);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'followed' });
    const r = await uninstallDns(h.deps, {}, quiet);
    expect(r).toMatchObject({ ok: true });
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(DHCLIENT);
    expect(await lstat(join(h.root, START_COPY)).catch(() => null)).toBeNull();
  });

  it('a leftover start copy (K2s\'s own CLI stopped, a crash) is neither shown nor restored, and a fresh start removes it', async () => {
    const h = await host(ORIGINAL);
    const stale = { version: 1, savedAt: '2026-01-01T00:00:00.000Z', resolvConf: { kind: 'file', contentBase64: Buffer.from('nameserver 203.0.113.1\n').toString('base64'), mode: 0o644, uid: 0, gid: 0, immutable: false } };
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(h.root, 'var/lib/k2s'), { recursive: true, mode: 0o700 });
    await writeFile(join(h.root, START_COPY), JSON.stringify(stale), { mode: 0o600 });
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    expect(await lstat(join(h.root, START_COPY)).catch(() => null)).toBeNull();
    // Written again after start (a crash between a follow's two writes): no follow in the state, so not offered.
    await writeFile(join(h.root, START_COPY), JSON.stringify(stale), { mode: 0o600 });
    expect((await dnsStatus(h.deps)).startCopy).toBeUndefined();
    const stop = await stopDns(h.deps, { restore: 'start' }, quiet);
    expect(stop).toMatchObject({ ok: true });
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    expect(await lstat(join(h.root, START_COPY)).catch(() => null)).toBeNull();
  });

  it('power loss inside `stop --restore start` right after the restore: recovery keeps the file from before Start and removes both copies', async () => {
    const h = await started();
    await dhclientWrites(h.root);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'followed' });
    // What the restore step left before the power went: the start file in place, state and copy still there,
    // the journal of a stop whose process is gone.
    const { restoreResolver } = await import('../host/resolver-state');
    const copy = JSON.parse(await readFile(join(h.root, START_COPY), 'utf8'));
    await restoreResolver(h.deps.fs, copy.resolvConf);
    const { writeJournal } = await import('./journal');
    await writeJournal(h.deps.fs, { version: 1, op: 'stop', step: 'stop-service', pid: 2 ** 22 + 7, startedAt: new Date().toISOString(), updatedAt: new Date().toISOString() });
    const { recoverNow } = await import('./recover');
    expect(await recoverNow(h.deps, quiet)).not.toBeNull();
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    expect((await lstat(join(h.root, 'etc/resolv.conf'))).mode & 0o7777).toBe(0o640);
    expect(await lstat(join(h.root, START_COPY)).catch(() => null)).toBeNull();
    expect(await lstat(join(h.root, 'var/lib/k2s/dns-resolver-state.json')).catch(() => null)).toBeNull();
  });
});
