/**
 * New-user walk: on a host with no kubeconfig the Cluster card said "No kubeconfig found …" while
 * the verdict at the top said "press Start in Host DNS below" — a Start that cannot run (the
 * button is off for it). The verdict now says to point the app at a kubeconfig first, as the
 * Cluster card and the reason under Start do. The fake backend's cluster status is answered as
 * the real one answers a failed lookup (electron/core/cluster/status.ts, NoKubeconfigError).
 */
import { expect, test, type Page } from '@playwright/test';
import { fakePagePerFile } from './fake-page';
import { NO_KUBECONFIG_REASON } from '../../renderer/src/lib/button-states';

let page: Page;
fakePagePerFile({ logIntervalMs: 3_600_000 }, (p) => (page = p));

const NO_KUBECONFIG = {
  state: 'no-kubeconfig',
  message: "No kubeconfig found (tried /etc/kubernetes/admin.conf, /home/ada/.kube/config); pass --kubeconfig PATH (for the app: npm start -- --kubeconfig PATH) or set KUBECONFIG to the cluster's admin kubeconfig.",
  kubeconfigPath: null,
  context: null,
  apiServer: null,
  version: null,
  nodes: [],
  coreDnsPods: [],
  kubeDnsIp: null,
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
  await expect(start).toHaveAttribute('title', NO_KUBECONFIG_REASON);
  await expect(page.getByTestId('verdict-text')).toHaveText(
    'Cluster names do not resolve on this host: K2s DNS is stopped — point the app at a kubeconfig first (the Cluster card below says where it looked and how), then press Start in Host DNS below',
  );
  // A kubeconfig found again (the cluster answers): the plain pointer is back.
  await page.unrouteAll({ behavior: 'wait' });
  await page.getByTestId('refresh-all').click();
  await expect(page.getByTestId('cluster-state')).toHaveText('Reachable');
  await expect(page.getByTestId('verdict-text')).toHaveText('Cluster names do not resolve on this host: K2s DNS is stopped — press Start in Host DNS below');
});
