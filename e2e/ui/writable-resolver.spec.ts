/**
 * Sixth walk M1, M3 and L1 on the REAL backend and the e2e test bed (inside e2e/bed/sandbox.sh),
 * the window left open:
 *  - M1: a CLI `start --engine dnsmasq --verify-name …` on a 0666 /etc/resolv.conf warns
 *    RESOLV_CONF_WRITABLE with a fix whose `start` is that start's own (it named `--kubeconfig`
 *    only, and run as printed brought AdGuard back); run as printed, K2s DNS comes back on dnsmasq
 *    with the same verify name and the file saved fixed. The window's Start names its kubeconfig.
 *  - M3: while that saved original is kept, the Host DNS card, `status` and `doctor` keep saying
 *    so (the one-time warning was all there was).
 *  - L1: `chmod 666` of K2s DNS's own /etc/resolv.conf while it runs: the card, `status` and
 *    `doctor` warn at once, not only once someone writes the file; `chmod 644` ends it.
 *  - Walk 9 H1, L6: another program's valid 0666 file while it runs is refused; the printed
 *    `chmod o-w` makes the follower follow it, and the card says the mode was fixed.
 */
import { execFile } from 'node:child_process';
import { chmod, readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { k2sDns } from '../cli';
import { useBedApp } from '../support/bed-app';
import type { DoctorFinding } from '../../shared/doctor';
import type { HostDnsStatus } from '../../shared/types';

const app = useBedApp({ goto: true });
// After useBedApp's afterAll stopped K2s DNS (which puts back the file as it was saved): the
// specs after this one find the bed's /etc/resolv.conf as the bed wrote it.
test.afterAll(async () => {
  await chmod('/etc/resolv.conf', 0o644).catch(() => undefined);
});

/** Runs `command` with /bin/sh as printed, without a leading `sudo ` (this test runs as root; the bed has no sudo). */
function sh(command: string): Promise<void> {
  return new Promise((resolve, reject) => execFile('/bin/sh', ['-c', command.replace(/^sudo /, '')], { timeout: 15_000 }, (err) => (err ? reject(err) : resolve())));
}

/** The finding `id` of `k2s-dns doctor --json`. */
async function doctorFinding(id: string): Promise<DoctorFinding> {
  const r = await k2sDns(['doctor', '--json', '--kubeconfig', app.tb.kubeconfigPath]);
  return (JSON.parse(r.stdout) as DoctorFinding[]).find((f) => f.id === id)!;
}

test('M1 + M3: the CLI start\'s fix names its own options and works as printed; until then the card, status and doctor keep saying it', async () => {
  test.setTimeout(120_000);
  const page = app.page;
  const card = page.getByTestId('panel-hostdns');
  const kc = app.tb.kubeconfigPath;
  await page.getByTestId('tab-overview').click();
  await expect(card.getByTestId('dns-state')).toHaveText('stopped', { timeout: 15_000 });
  await chmod('/etc/resolv.conf', 0o666);
  const r = await k2sDns(['start', '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--kubeconfig', kc]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const fix = /^warning \[RESOLV_CONF_WRITABLE\]: .*; to save it fixed: (.+), (.+), then (.+)\.$/m.exec(r.stdout);
  expect(fix, r.stdout).not.toBeNull();
  const [, stopLine, chmodLine, startLine] = fix!;
  const cli = /^(.*k2s-dns) stop$/.exec(stopLine!)![1]!;
  expect(chmodLine).toBe('sudo chmod o-w /etc/resolv.conf');
  expect(startLine).toBe(`${cli} start --engine dnsmasq --verify-name www.example.test --kubeconfig ${kc}`);

  // M3: the open window (the start ran outside it) keeps it on the Saved original row and in a note.
  await expect(card.getByTestId('dns-state')).toHaveText('running', { timeout: 15_000 });
  await expect(card.getByTestId('dns-saved-writable')).toHaveText(' — writable by every user (mode 0666): stop puts it back so (see the note below)', { timeout: 15_000 });
  await expect(card.locator('.note').filter({ hasText: 'The saved original /etc/resolv.conf (the file stop puts back) is writable by every user (mode 0666)' })).toContainText('press Stop, run sudo chmod o-w /etc/resolv.conf in a terminal, then press Start');
  const status = await k2sDns(['status']);
  expect(status.code).toBe(0);
  expect(status.stdout).toContain(`note: The saved original /etc/resolv.conf (the file stop puts back) is writable by every user (mode 0666): stop puts it back with that owner and mode, and then a user can choose this host's DNS through it. To have it back fixed, run \`${cli} stop\`, \`sudo chmod o-w /etc/resolv.conf\`, then \`${startLine}\` (that start saves it fixed).`);
  expect((JSON.parse((await k2sDns(['status', '--json'])).stdout) as HostDnsStatus).savedOriginalWritable).toBe('writable by every user (mode 0666)');
  expect(await doctorFinding('resolv-writable')).toMatchObject({ severity: 'warn', title: 'The saved original /etc/resolv.conf is writable by every user (mode 0666)' });

  // The fix as printed: stop, the chmod, the start line.
  expect((await k2sDns(['stop'])).code).toBe(0);
  await sh(chmodLine!);
  const again = await k2sDns(startLine!.slice(`${cli} `.length).split(' '));
  expect(again.code, again.stdout + again.stderr).toBe(0);
  expect(again.stdout).not.toContain('RESOLV_CONF_WRITABLE');
  const state = JSON.parse(await readFile('/var/lib/k2s/dns-resolver-state.json', 'utf8')) as { engine: string; startedWith: Record<string, unknown>; resolvConf: { mode: number } };
  expect(state.engine).toBe('dnsmasq');
  expect(state.startedWith).toEqual({ engine: 'dnsmasq', verifyName: 'www.example.test' });
  expect(state.resolvConf.mode).toBe(0o664);
  await expect(card.getByTestId('dns-saved-writable')).toHaveCount(0, { timeout: 15_000 });
  expect((await doctorFinding('resolv-writable')).severity).toBe('ok');
});

test('L1: chmod 666 of K2s DNS\'s own /etc/resolv.conf is a warning in the card, status and doctor at once; chmod 644 ends it', async () => {
  test.setTimeout(120_000);
  const card = app.page.getByTestId('panel-hostdns');
  await expect(card.getByTestId('dns-state')).toHaveText('running', { timeout: 15_000 });
  await expect(card.getByTestId('dns-owner-writable')).toHaveCount(0);
  await chmod('/etc/resolv.conf', 0o666);
  await expect(card.getByTestId('dns-owner-writable')).toHaveText(' — the file is now writable by every user (mode 0666): a user can redirect host DNS (see the note below)', { timeout: 15_000 });
  await expect(card.locator('.note').filter({ hasText: '/etc/resolv.conf, the file K2s DNS wrote (mode 0644, owner root), is now writable by every user (mode 0666)' })).toContainText('Run sudo chmod 644 /etc/resolv.conf in a terminal.');
  const status = await k2sDns(['status']);
  expect(status.stdout).toContain("note: /etc/resolv.conf, the file K2s DNS wrote (mode 0644, owner root), is now writable by every user (mode 0666): whoever may write it can point this host's DNS elsewhere, and K2s DNS says so only once it is written (a change it does not follow). Run `sudo chmod 644 /etc/resolv.conf`.");
  expect(await doctorFinding('resolv-writable')).toMatchObject({ severity: 'warn', title: "K2s DNS's /etc/resolv.conf is writable by every user (mode 0666)", fix: 'Run `sudo chmod 644 /etc/resolv.conf`.' });
  await sh('chmod 644 /etc/resolv.conf');
  await expect(card.getByTestId('dns-owner-writable')).toHaveCount(0, { timeout: 15_000 });
  expect((await k2sDns(['status'])).stdout).not.toContain('writable');
  expect((await k2sDns(['stop'])).code).toBe(0);
  await expect(card.getByTestId('dns-state')).toHaveText('stopped', { timeout: 15_000 });
});

test('M1, walk 11 L5, the window\'s Start on a 0666 file: the RESOLV_CONF_WRITABLE paragraph once, in the Host DNS note; the timeline\'s result and warning refer to it', async () => {
  test.setTimeout(120_000);
  const card = app.page.getByTestId('panel-hostdns');
  await chmod('/etc/resolv.conf', 0o666);
  // Walk 12 L1: stopped, the line read first says Start will warn and points at the note.
  await expect(app.page.getByTestId('verdict-text')).toContainText('K2s DNS is stopped — press Start in Host DNS below; /etc/resolv.conf is writable by every user (mode 0666): Start will warn (the note under Host DNS gives the fix)', { timeout: 15_000 });
  await card.getByTestId('engine-select').selectOption('dnsmasq');
  await card.getByTestId('btn-start').click();
  await expect(card.getByTestId('step-ready')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(card.getByTestId('timeline-warnings')).toContainText('Warning: the saved original /etc/resolv.conf is writable by every user (mode 0666) (RESOLV_CONF_WRITABLE); the note above says what that means and how to fix it.', { timeout: 15_000 });
  await expect(card.getByTestId('timeline-result')).toContainText('See the warning below.');
  await expect(card.getByTestId('timeline-result')).not.toContainText('K2s follows no file a user could write');
  // The paragraph once: the Host DNS note, with the window's fix (Stop, the chmod, Start).
  await expect(card).toContainText("The saved original /etc/resolv.conf (the file stop puts back) is writable by every user (mode 0666): stop puts it back with that owner and mode, and then a user can choose this host's DNS through it. To have it back fixed, press Stop, run `sudo chmod o-w /etc/resolv.conf` in a terminal, then press Start (that start saves it fixed).".replace(/`/g, ''));
  await expect(card.getByTestId('dns-saved-writable')).toHaveText(' — writable by every user (mode 0666): stop puts it back so (see the note below)', { timeout: 15_000 });
  await card.getByTestId('btn-stop').click();
  await expect(card.getByTestId('dns-state')).toHaveText('stopped', { timeout: 30_000 });
  await expect(card.getByTestId('dns-saved-writable')).toHaveCount(0);
});

test('walk 9 H1, L6: a valid file put in place with mode 0666 while K2s DNS runs is refused; the printed chmod o-w run as printed, the window shows it followed with the mode fix, no banner, no old refusal', async () => {
  test.setTimeout(120_000);
  const card = app.page.getByTestId('panel-hostdns');
  await chmod('/etc/resolv.conf', 0o644);
  expect((await k2sDns(['start', '--kubeconfig', app.tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test'])).code).toBe(0);
  await expect(card.getByTestId('dns-state')).toHaveText('running', { timeout: 15_000 });
  // Another program's file, world-writable (install -m 666 …; mv …): the bed's nameserver, a new search list.
  await new Promise<void>((resolve, reject) => execFile('/bin/sh', ['-c', "printf 'nameserver 192.0.2.53\\nsearch corp.test\\n' > /etc/resolv.conf.new && chmod 666 /etc/resolv.conf.new && mv /etc/resolv.conf.new /etc/resolv.conf"], (err) => (err ? reject(err) : resolve())));
  const change = card.getByTestId('dns-network-change');
  await expect(change).toHaveAttribute('data-outcome', 'drift', { timeout: 15_000 });
  await expect(change).toContainText('not followed: the new file is writable by every user (mode 0666); K2s follows no file a user could write — fix it with sudo chmod o-w /etc/resolv.conf.');
  await expect(app.page.getByTestId('drift-banner')).toBeVisible();
  // The CLI's health line gives it first (walk 11 M3).
  const fix = (await k2sDns(['status'])).stdout.match(/ — to keep K2s DNS running: (sudo chmod o-w \/etc\/resolv\.conf) \(the network follower/);
  expect(fix).not.toBeNull();
  await sh(fix![1]!);
  await expect(change).toHaveAttribute('data-outcome', 'followed', { timeout: 30_000 });
  await expect(change).toContainText(/\(it was writable by every user \(mode 0666\)\); mode fixed to 0664 at .+, followed: upstreams unchanged/);
  await expect(app.page.getByTestId('drift-banner')).toHaveCount(0);
  await expect(card.getByTestId('dns-state')).toHaveText('running');
  await expect(card).not.toContainText('chmod o-w');
  expect((await k2sDns(['stop'])).code).toBe(0);
  await expect(card.getByTestId('dns-state')).toHaveText('stopped', { timeout: 15_000 });
});
