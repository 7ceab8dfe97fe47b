/**
 * Issue 20.3, every view live or labelled: with the window left open, the Cluster card and the
 * Zones tab follow the API going down and coming back within 5 s without a Refresh, and say
 * "last known at HH:MM:SS" for what they can no longer read; the Resolver diff follows a start
 * made outside the window (the fake host flipped as a CLI start would).
 */
import { expect, test, type Page } from '@playwright/test';
import { fakePagePerFile } from './fake-page';

let page: Page;
const api = { up: true };
const host: { running: boolean; savedUnknown?: string; savedRootOnly?: string } = { running: false };
fakePagePerFile({ stepDelayMs: 20, logIntervalMs: 3_600_000, api, host }, (p) => (page = p));

/** Within 5 s: the bound for a view to follow the API. */
const LIVE = { timeout: 5_000 };

test('Cluster card: API down → Unreachable with the last known nodes, labelled; API back → Reachable, by itself', async () => {
  const card = page.getByTestId('panel-cluster');
  await expect(card.getByTestId('cluster-state')).toHaveText('Reachable');
  api.up = false;
  await expect(card.getByTestId('cluster-state')).toHaveText('Unreachable', LIVE);
  await expect(card.getByTestId('cluster-message')).toContainText('Cannot reach the Kubernetes API');
  await expect(card.getByTestId('cluster-last-known')).toHaveText(/^The facts below are last known at \d{2}:\d{2}:\d{2}, when the API last answered/);
  // The nodes are the last known ones, not "0/0".
  await expect(card.getByRole('heading', { name: /^Nodes/ })).toHaveText(/^Nodes \(1\/1 Ready\) — last known at \d{2}:\d{2}:\d{2}$/);
  await expect(card.getByTestId('cluster-version')).toHaveText('v1.33.3');
  api.up = true;
  await expect(card.getByTestId('cluster-state')).toHaveText('Reachable', LIVE);
  await expect(card.getByTestId('cluster-last-known')).toHaveCount(0);
  await expect(card.getByRole('heading', { name: /^Nodes/ })).toHaveText('Nodes (1/1 Ready)');
});

test('Zones: API down → the zones stay, labelled last known; back → the label goes, by itself', async () => {
  await page.getByTestId('tab-zones').click();
  const panel = page.getByTestId('panel-zones');
  await expect(panel.getByTestId('zone-cluster.local')).toBeVisible();
  api.up = false;
  await expect(panel.getByTestId('zones-last-known')).toHaveText(/^The zones below are last known at \d{2}:\d{2}:\d{2}/, LIVE);
  await expect(panel.getByTestId('zone-cluster.local')).toBeVisible();
  api.up = true;
  await expect(panel.getByTestId('zones-last-known')).toHaveCount(0, LIVE);
});

test('Resolver diff: a start made outside the window shows within 5 s without a Refresh', async () => {
  await page.getByTestId('tab-diff').click();
  const panel = page.getByTestId('panel-diff');
  await expect(panel.getByTestId('diff-saved')).toHaveText(/^No saved original/);
  host.running = true;
  await expect(panel.getByTestId('diff-saved')).toHaveText('symlink → /run/NetworkManager/resolv.conf', LIVE);
  host.running = false;
  await expect(panel.getByTestId('diff-saved')).toHaveText(/^No saved original/, LIVE);
});

test('Resolver diff as a user after Stop (root\'s 0700 state directory): says what it can tell, never that a root-only copy exists', async () => {
  await page.getByTestId('tab-diff').click();
  const panel = page.getByTestId('panel-diff');
  host.savedUnknown = "Nothing saved as far as uid 1000 can tell: k2s-dnsproxy is not running and /etc/resolv.conf is not K2s's, so it is your own file and there is nothing to compare (stop removes the saved copy). /var/lib/k2s is readable by root only (0700); to be sure, run as root: `sudo k2s-dns diff`, or `su -c 'k2s-dns diff'` where sudo is not installed.";
  try {
    await expect(panel.getByTestId('diff-saved')).toHaveText("Nothing saved as far as uid 1000 can tell: k2s-dnsproxy is not running and /etc/resolv.conf is not K2s's, so it is your own file and there is nothing to compare (stop removes the saved copy). /var/lib/k2s is readable by root only (0700); to be sure, run as root: sudo k2s-dns diff, or su -c 'k2s-dns diff' where sudo is not installed.", LIVE);
    await expect(panel.getByRole('alert')).toHaveCount(0);
  } finally {
    delete host.savedUnknown;
  }
  await expect(panel.getByTestId('diff-saved')).toHaveText(/^No saved original/, LIVE);
});

test('Resolver diff as a user across a start: the current K2s-owned file and the saved original as root\'s, never the older diff beside an error', async () => {
  await page.getByTestId('tab-diff').click();
  const panel = page.getByTestId('panel-diff');
  // New user (package trial as ada): the diff read before Start stayed, "last known", saying
  // k2s-dnsproxy is not running while Overview said running.
  host.savedUnknown = "Nothing saved as far as uid 1000 can tell: k2s-dnsproxy is not running and /etc/resolv.conf is not K2s's, so it is your own file and there is nothing to compare (stop removes the saved copy). /var/lib/k2s is readable by root only (0700); to be sure, run as root: `sudo k2s-dns diff`, or `su -c 'k2s-dns diff'` where sudo is not installed.";
  host.savedRootOnly = "The saved original resolver is in /var/lib/k2s/dns-resolver-state.json, which only root can read (its directory /var/lib/k2s is 0700), so the diff cannot be shown to uid 1000; run as root: `sudo k2s-dns diff`, or `su -c 'k2s-dns diff'` where sudo is not installed.";
  try {
    await expect(panel.getByTestId('diff-saved')).toHaveText(/^Nothing saved as far as uid 1000 can tell/, LIVE);
    host.running = true;
    await expect(panel.getByTestId('diff-saved')).toHaveText("The saved original resolver is in /var/lib/k2s/dns-resolver-state.json, which only root can read (its directory /var/lib/k2s is 0700), so the diff cannot be shown to uid 1000; run as root: sudo k2s-dns diff, or su -c 'k2s-dns diff' where sudo is not installed.", LIVE);
    await expect(panel.getByTestId('diff-current')).toHaveText('regular file, mode 0644, uid 0');
    await expect(panel.getByTestId('diff-current-text')).toContainText('nameserver 127.0.0.1');
    await expect(panel.getByRole('alert')).toHaveCount(0);
    await expect(panel.getByTestId('diff-last-known')).toHaveCount(0);
    await expect(panel).not.toContainText('not running');
    await expect(panel).not.toContainText('Nothing to compare');
    host.running = false;
    await expect(panel.getByTestId('diff-saved')).toHaveText(/^Nothing saved as far as uid 1000 can tell/, LIVE);
    await expect(panel.getByTestId('diff-current-text')).toHaveCount(0);
  } finally {
    host.running = false;
    delete host.savedUnknown;
    delete host.savedRootOnly;
  }
});

test('one time format: Topology and Diagnostics say HH:MM:SS like "last known at"', async () => {
  await page.getByTestId('tab-topology').click();
  await expect(page.getByTestId('topology-probed-at')).toHaveText(/^Last probe \d{2}:\d{2}:\d{2}$/, { timeout: 15_000 });
  await page.getByTestId('tab-diagnostics').click();
  await expect(page.getByTestId('diagnostics-ran-at')).toHaveText(/^checked \d{2}:\d{2}:\d{2}$/, { timeout: 15_000 });
});

test('Zones: opening the tab reads the zones at once when they are older than a few seconds', async () => {
  await page.getByTestId('tab-overview').click();
  // The condition under test is age: the zones read while the tab was open get older than
  // CADENCE_MS.zonesOnOpen (2 s) while another tab is shown.
  await page.waitForTimeout(2500);
  const asked = page.waitForRequest((r) => r.url().endsWith('/api/zones:list'), { timeout: 1500 });
  await page.getByTestId('tab-zones').click();
  // Well before the tab's first poll tick (4 s): the open itself asked.
  await asked;
  await expect(page.getByTestId('panel-zones').getByTestId('zone-cluster.local')).toBeVisible();
});

test('Cluster card: opened again after the API came back while another tab was shown, it asks at once (walk 7 L3)', async () => {
  const card = page.getByTestId('panel-cluster');
  await page.getByTestId('tab-overview').click();
  await expect(card.getByTestId('cluster-state')).toHaveText('Reachable');
  api.up = false;
  await expect(card.getByTestId('cluster-state')).toHaveText('Unreachable', LIVE);
  await page.getByTestId('tab-topology').click();
  api.up = true;
  // The condition under test is age: the card's answer gets older than CADENCE_MS.cluster (3 s)
  // while another tab is shown (the walk: Overview opened 5 s after `api up`).
  await page.waitForTimeout(3500);
  const asked = page.waitForRequest((r) => r.url().endsWith('/api/cluster:status'), { timeout: 1500 });
  await page.getByTestId('tab-overview').click();
  // Well before the card's first poll tick (3 s): the open itself asked.
  await asked;
  await expect(card.getByTestId('cluster-state')).toHaveText('Reachable', { timeout: 2500 });
});
