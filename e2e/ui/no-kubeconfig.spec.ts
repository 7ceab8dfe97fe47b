/**
 * New-user walk: on a host with no kubeconfig the Cluster card said "No kubeconfig found …" while
 * the verdict at the top said "press Start in Host DNS below" — a Start that cannot run (the
 * button is off for it). The verdict now says to point the app at a kubeconfig first, as the
 * Cluster card and the reason under Start do. The fake backend's cluster status is answered as
 * the installed package's real one answers a failed lookup (electron/core/cluster/status.ts,
 * NoKubeconfigError): the reason under Start names the line it gives, `k2s-dns app`, not the
 * checkout's `npm start`, which the package does not have.
 */
import { expect, test, type Page } from '@playwright/test';
import { fakePagePerFile } from './fake-page';

let page: Page;
fakePagePerFile({ logIntervalMs: 3_600_000 }, (p) => (page = p));

const NO_KUBECONFIG = {
  state: 'no-kubeconfig',
  message: "No kubeconfig found (tried /etc/kubernetes/admin.conf, /home/ada/.kube/config); pass --kubeconfig PATH (for the app: k2s-dns app --kubeconfig PATH) or set KUBECONFIG to the cluster's admin kubeconfig.",
  kubeconfigPath: null,
  context: null,
  apiServer: null,
  version: null,
  nodes: [],
  coreDnsPods: [],
  kubeDnsIp: null,
  appKubeconfigCommand: 'k2s-dns app --kubeconfig PATH',
};

test('no kubeconfig: the verdict says to point the app at one first, with the Cluster card and Start off for it', async () => {
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-cause', 'stopped', { timeout: 15_000 });
  await expect(page.getByTestId('verdict-text')).toHaveText('Cluster names do not resolve on this host: K2s DNS is stopped — press Start in Host DNS below');
  await page.route('**/api/cluster:status', (route) => route.fulfill({ json: { ok: true, data: NO_KUBECONFIG } }));
  await page.getByTestId('refresh-all').click();
  await expect(page.getByTestId('cluster-state')).toHaveText('No kubeconfig');
  await expect(page.getByTestId('cluster-message')).toHaveText(NO_KUBECONFIG.message);
  const start = page.getByTestId('panel-hostdns').getByTestId('btn-start');
  await expect(start).toBeDisabled();
  await expect(start).toHaveAttribute('title', 'No kubeconfig found: start K2s first, or restart the app with k2s-dns app --kubeconfig PATH.');
  await expect(page.getByTestId('disabled-reasons')).toContainText('restart the app with k2s-dns app --kubeconfig PATH.');
  await expect(page.getByTestId('disabled-reasons').locator('code')).toHaveText('k2s-dns app --kubeconfig PATH');
  await expect(page.getByTestId('verdict-text')).toHaveText(
    'Cluster names do not resolve on this host: K2s DNS is stopped — point the app at a kubeconfig first (the Cluster card below says where it looked and how), then press Start in Host DNS below',
  );
  // A kubeconfig found again (the cluster answers): the plain pointer is back.
  await page.unrouteAll({ behavior: 'wait' });
  await page.getByTestId('refresh-all').click();
  await expect(page.getByTestId('cluster-state')).toHaveText('Reachable');
  await expect(page.getByTestId('verdict-text')).toHaveText('Cluster names do not resolve on this host: K2s DNS is stopped — press Start in Host DNS below');
});
