/**
 * A user with no kubeconfig of their own on a K2s host: K2s's admin.conf is root's (0600), so the
 * window's lookup finds none, yet the privileged helper's start (as root) reads it by itself, as
 * `sudo k2s-dns start` does (electron/core/cluster/kubeconfig-default.ts kubeconfigForSudo). Start
 * was off with "No kubeconfig found"; it is now on, with a line naming the file the start reads
 * as root and saying the Cluster card cannot read it. The fake backend's cluster status is
 * answered as the real backend answers then (electron/core/cluster/status.ts, startKubeconfig).
 */
import { expect, test, type Page } from '@playwright/test';
import { fakePagePerFile } from './fake-page';

let page: Page;
fakePagePerFile({ logIntervalMs: 3_600_000 }, (p) => (page = p));

// As the backend writes it (shared/root-kubeconfig.ts clusterAsRootMessage: the path a code span), and as the card shows it (the span as <code>, no backticks).
const MESSAGE = 'Only root reads the kubeconfig `/etc/kubernetes/admin.conf`: Start reads it as root, but this window cannot show the cluster as this user; to see it here, restart the app with a kubeconfig you can read (k2s-dns app --kubeconfig PATH).';
const SHOWN = MESSAGE.replace(/`/g, '');
const ROOT_ONLY = {
  state: 'no-kubeconfig',
  message: MESSAGE,
  kubeconfigPath: null,
  context: null,
  apiServer: null,
  version: null,
  nodes: [],
  coreDnsPods: [],
  kubeDnsIp: null,
  appKubeconfigCommand: 'k2s-dns app --kubeconfig PATH',
  startKubeconfig: '/etc/kubernetes/admin.conf',
};

test("root-only admin.conf: Start is on and says it reads that file as root; the Cluster card says it cannot read it", async () => {
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-cause', 'stopped', { timeout: 15_000 });
  await page.route('**/api/cluster:status', (route) => route.fulfill({ json: { ok: true, data: ROOT_ONLY } }));
  await page.getByTestId('refresh-all').click();
  await expect(page.getByTestId('cluster-state')).toHaveText('Root-only kubeconfig');
  await expect(page.getByTestId('cluster-message')).toHaveText(SHOWN);
  await expect(page.getByTestId('cluster-message').locator('code')).toHaveText('/etc/kubernetes/admin.conf');
  const start = page.getByTestId('panel-hostdns').getByTestId('btn-start');
  await expect(start).toBeEnabled();
  await expect(page.getByTestId('start-kubeconfig-root')).toHaveText('Start reads the kubeconfig /etc/kubernetes/admin.conf as root; this user cannot read it, so the Cluster card cannot show the cluster.');
  await expect(page.getByTestId('start-kubeconfig-root').locator('code')).toHaveText('/etc/kubernetes/admin.conf');
  await expect(page.getByTestId('disabled-reasons')).not.toContainText('No kubeconfig');
  await expect(page.getByTestId('kubeconfig-file-root')).toHaveText('/etc/kubernetes/admin.conf — the file Start reads as root (this user cannot read it)');
  await expect(page.getByTestId('verdict-text')).toHaveText('Cluster names do not resolve on this host: K2s DNS is stopped — press Start in Host DNS below');
  // The Start options stay closed: nothing there to fix (they open for a missing kubeconfig).
  await expect(page.getByTestId('start-options')).not.toHaveAttribute('open', '');
});

test('none found by root either: Start is off for it, and the root line is gone', async () => {
  await page.unrouteAll({ behavior: 'wait' });
  const { startKubeconfig: _root, ...none } = ROOT_ONLY;
  await page.route('**/api/cluster:status', (route) => route.fulfill({ json: { ok: true, data: { ...none, message: 'No kubeconfig found (tried /etc/kubernetes/admin.conf); pass --kubeconfig PATH (for the app: k2s-dns app --kubeconfig PATH) or set KUBECONFIG to the cluster\'s admin kubeconfig.' } } }));
  await page.getByTestId('refresh-all').click();
  await expect(page.getByTestId('cluster-state')).toHaveText('No kubeconfig');
  await expect(page.getByTestId('panel-hostdns').getByTestId('btn-start')).toBeDisabled();
  await expect(page.getByTestId('start-kubeconfig-root')).toHaveCount(0);
  await expect(page.getByTestId('disabled-reasons')).toContainText('No kubeconfig found: start K2s first, or restart the app with k2s-dns app --kubeconfig PATH.');
});
