/**
 * Sixth walk M3 and L1: a saved original a user could write was said once, in the start's
 * RESOLV_CONF_WRITABLE warning, and then forgotten (status, doctor and the window said nothing);
 * K2s DNS's own /etc/resolv.conf made writable in place (`chmod 666`) was silent until someone
 * wrote it. Status and doctor keep saying both while they hold, with the fix (shared/writable-resolver.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chmod, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns } from './stop';
import { dnsStatus } from './status';
import { readDoctorContext } from '../doctor/context';
import { checkResolverWritable } from '../doctor/resolver-writable';
import { setCliName, setCliRunningStart } from '../../../shared/fix';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';
import type { LifecycleDeps } from './deps';

const newHost = trackedHosts();
afterEach(() => {
  setCliName('npx k2s-dns');
  setCliRunningStart(null);
});

const doctor = async (deps: LifecycleDeps, frontEnd: 'cli' | 'gui' = 'cli') => checkResolverWritable(await readDoctorContext(deps, { kubeconfigPath: null, frontEnd }));

const SAVED_0666 = "The saved original /etc/resolv.conf (the file stop puts back) is writable by every user (mode 0666): stop puts it back with that owner and mode, and then a user can choose this host's DNS through it.";

describe('a saved original a user could write (M3)', () => {
  it('status, its JSON field and doctor keep saying it while K2s DNS runs, with the running start in the fix; gone once the original is back fixed', async () => {
    setCliName('k2s-dns');
    const h = await newHost('nameserver 192.0.2.53\n');
    const file = join(h.root, 'etc/resolv.conf');
    await chmod(file, 0o666);
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).warnings?.map((w) => w.code)).toContain('RESOLV_CONF_WRITABLE');
    const s = await dnsStatus(h.deps);
    expect(s.state).toBe('running');
    expect(s.savedOriginalWritable).toBe('writable by every user (mode 0666)');
    expect(s.messages).toContain(`${SAVED_0666} To have it back fixed, run \`sudo k2s-dns stop\`, \`sudo chmod o-w /etc/resolv.conf\`, then \`sudo k2s-dns start --verify-name www.example.test\` (that start saves it fixed).`);
    // The window's words: its buttons, the command for a terminal.
    expect((await dnsStatus(h.deps, 'gui')).messages).toContain(`${SAVED_0666} To have it back fixed, press Stop, run \`sudo chmod o-w /etc/resolv.conf\` in a terminal, then press Start (that start saves it fixed).`);
    // Doctor: a warning with the same words.
    const f = await doctor(h.deps);
    expect(f).toMatchObject({ id: 'resolv-writable', severity: 'warn', title: 'The saved original /etc/resolv.conf is writable by every user (mode 0666)', meaning: SAVED_0666 });
    expect(f.fix).toBe('To have it back fixed, run `sudo k2s-dns stop`, `sudo chmod o-w /etc/resolv.conf`, then `sudo k2s-dns start --verify-name www.example.test` (that start saves it fixed).');
    expect((await doctor(h.deps, 'gui')).remedy?.gui).toBe('To have it back fixed, press Stop, run `sudo chmod o-w /etc/resolv.conf` in a terminal, then press Start (that start saves it fixed).');
    // The fix as printed: stop, chmod, start.
    expect((await stopDns(h.deps, {}, () => undefined)).ok).toBe(true);
    await chmod(file, 0o644);
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).warnings?.map((w) => w.code) ?? []).not.toContain('RESOLV_CONF_WRITABLE');
    const fixed = await dnsStatus(h.deps);
    expect(fixed.savedOriginalWritable).toBeUndefined();
    expect(fixed.messages.join('\n')).not.toContain('writable');
    expect(await doctor(h.deps)).toMatchObject({ severity: 'ok', title: 'Only root may write /etc/resolv.conf', fix: null });
  });

  it('a saved symlink whose target a user could write: judged by the target, as start was', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    await mkdir(join(h.root, 'run/resolvconf'), { recursive: true });
    await writeFile(join(h.root, 'run/resolvconf/resolv.conf'), 'nameserver 192.0.2.53\n', { mode: 0o644 });
    await chmod(join(h.root, 'run/resolvconf/resolv.conf'), 0o646);
    await rm(join(h.root, 'etc/resolv.conf'));
    await symlink('../run/resolvconf/resolv.conf', join(h.root, 'etc/resolv.conf'));
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).warnings?.map((w) => w.code)).toContain('RESOLV_CONF_WRITABLE');
    expect((await dnsStatus(h.deps)).savedOriginalWritable).toBe('writable by every user (mode 0646)');
    await chmod(join(h.root, 'run/resolvconf/resolv.conf'), 0o644);
    expect((await dnsStatus(h.deps)).savedOriginalWritable).toBeUndefined();
  });

  it('no start recorded: doctor says a start would save the file as it is (before the one-time warning)', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    await chmod(join(h.root, 'etc/resolv.conf'), 0o666);
    const f = await doctor(h.deps);
    expect(f).toMatchObject({ severity: 'warn', title: '/etc/resolv.conf is writable by every user (mode 0666)', fix: 'Run `sudo chmod o-w /etc/resolv.conf` before starting.' });
    expect(f.meaning).toBe("/etc/resolv.conf is writable by every user (mode 0666): a start saves it as your original as it is (warning RESOLV_CONF_WRITABLE), stop puts it back so, and a user can choose this host's DNS through it.");
    // Status says it too, in doctor's words, and marks the resolver hop (walk 11 L8: after `stop
    // --on-drift keep` kept such a file only doctor said it).
    const s = await dnsStatus(h.deps);
    expect(s.resolverWritable).toBe('writable by every user (mode 0666)');
    expect(s.messages).toContain(`${f.meaning} ${f.fix}`);
  });
});

describe("K2s DNS's own /etc/resolv.conf made writable in place (L1)", () => {
  it('chmod 666 while running: status, doctor and the window warn at once (no write needed), with `chmod 644`; chmod 644 ends it', async () => {
    setCliName('k2s-dns');
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    const file = join(h.root, 'etc/resolv.conf');
    expect((await dnsStatus(h.deps)).liveResolverWritable).toBeUndefined();
    await chmod(file, 0o666);
    const s = await dnsStatus(h.deps);
    expect(s.resolverOwner).toBe('k2s');
    expect(s.liveResolverWritable).toBe('writable by every user (mode 0666)');
    const meaning = "/etc/resolv.conf, the file K2s DNS wrote (mode 0644, owner root), is now writable by every user (mode 0666): whoever may write it can point this host's DNS elsewhere, and K2s DNS says so only once it is written (a change it does not follow).";
    expect(s.messages).toContain(`${meaning} Run \`sudo chmod 644 /etc/resolv.conf\`.`);
    expect((await dnsStatus(h.deps, 'gui')).messages).toContain(`${meaning} Run \`sudo chmod 644 /etc/resolv.conf\` in a terminal.`);
    expect(await doctor(h.deps)).toMatchObject({ severity: 'warn', title: "K2s DNS's /etc/resolv.conf is writable by every user (mode 0666)", meaning, fix: 'Run `sudo chmod 644 /etc/resolv.conf`.' });
    await chmod(file, 0o644);
    expect((await dnsStatus(h.deps)).liveResolverWritable).toBeUndefined();
    expect((await doctor(h.deps)).severity).toBe('ok');
  });

  it('under the sandbox\'s wrapper the fix goes through its `sh -c` (sixth walk M2)', async () => {
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true);
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    await chmod(join(h.root, 'etc/resolv.conf'), 0o666);
    expect((await dnsStatus(h.deps)).messages.join('\n')).toContain("Run `/tmp/k2sdns-app-Ab12/k2s-dns sh -c 'chmod 644 /etc/resolv.conf'`.");
  });
});
