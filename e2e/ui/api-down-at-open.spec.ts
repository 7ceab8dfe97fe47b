/**
 * Issue 20 (M2), every view live or labelled: a window opened while the Kubernetes API does
 * not answer (K2s DNS running) has never read nodes, pods or zones. The Cluster card said
 * "Nodes (0/0 Ready)", "CoreDNS pods (0/0 ready)" and "kube-dns ClusterIP —" while the proxy
 * forwarded to 172.21.0.10, and the Zones tab showed only the error. Now: counts "not known",
 * the ClusterIP the running proxy forwards to and the zones it routes, each labelled as such;
 * once the API answers, the card and the tab show what it says, by themselves. Fake backend.
 */
import { expect, test, type Page } from '@playwright/test';
import { fakePagePerFile } from './fake-page';

let page: Page;
const api = { up: false };
const host = { running: true };
// Failed requests the browser logs (walk 6 L9: "Failed to load resource: … 504 (Gateway Timeout)" while the API was down).
const failedLoads: string[] = [];
fakePagePerFile({ stepDelayMs: 20, logIntervalMs: 3_600_000, api, host }, (p) => {
  page = p;
  page.on('response', (r) => {
    if (r.status() >= 400) failedLoads.push(`${r.status()} ${r.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') failedLoads.push(m.text());
  });
});

test('Cluster card opened while the API is down: not known, never 0/0; kube-dns from the running proxy', async () => {
  const card = page.getByTestId('panel-cluster');
  await expect(card.getByTestId('cluster-state')).toHaveText('Unreachable');
  await expect(card.getByTestId('cluster-nodes-heading')).toHaveText('Nodes (not known: the API server does not answer)');
  await expect(card.getByTestId('cluster-coredns-heading')).toHaveText('CoreDNS pods (not known: the API server does not answer)');
  await expect(card.getByTestId('cluster-kubedns')).toHaveText('172.21.0.10 (the address the running proxy forwards to; the API does not answer)');
  await expect(card).not.toContainText('0/0');
  await expect(card.getByTestId('cluster-nodes')).toHaveCount(0);
  api.up = true;
  await expect(card.getByTestId('cluster-state')).toHaveText('Reachable', { timeout: 5_000 });
  await expect(card.getByTestId('cluster-nodes-heading')).toHaveText('Nodes (1/1 Ready)');
  await expect(card.getByTestId('cluster-kubedns')).toHaveText('172.21.0.10');
  api.up = false;
});

test('Zones tab opened while the API is down: the zones the running proxy routes, labelled', async () => {
  await page.getByTestId('tab-zones').click();
  const panel = page.getByTestId('panel-zones');
  await expect(panel.getByRole('alert')).toContainText('Cannot reach the Kubernetes API');
  await expect(panel.getByTestId('zones-in-use-heading')).toHaveText('Zones in use by the running proxy (the API does not answer)');
  await expect(panel.getByTestId('zone-in-use-cluster.local')).toContainText('172.21.0.10');
});

test('Query tester while the API is down: the route uses the zones the running proxy forwards, said so (walk 10 M2)', async () => {
  await page.getByTestId('tab-query').click();
  const q = page.getByTestId('panel-query');
  await q.getByTestId('query-target').selectOption('system');
  await q.getByTestId('query-name').fill('kubernetes.default.svc.cluster.local');
  await q.getByTestId('query-type').selectOption('A');
  await q.getByTestId('query-run').click();
  await expect(q.getByTestId('query-result')).toHaveAttribute('data-stale', 'false');
  await expect(q.getByTestId('query-result')).toContainText('172.21.0.1');
  const route = q.getByTestId('query-route');
  await expect(route).toContainText('→ k2s-dnsproxy (127.0.0.1:53); there kubernetes.default.svc.cluster.local matches zone cluster.local (cluster domain) → 172.21.0.10');
  await expect(q.getByTestId('query-route-zone')).toHaveText('cluster.local');
  await expect(q.getByTestId('query-route-zones-from')).toHaveText('(zones of the running proxy; the API does not answer)');
  await expect(route).not.toContainText('no cluster zone');
});

test('the API down is a state the window shows, not a failed request: no HTTP error and no console error (walk 6 L9)', async () => {
  api.up = false;
  await page.getByTestId('tab-zones').click();
  await page.getByTestId('refresh-all').click();
  await expect(page.getByTestId('panel-zones').getByRole('alert')).toContainText('Cannot reach the Kubernetes API');
  await page.getByTestId('tab-overview').click();
  await expect(page.getByTestId('panel-cluster').getByTestId('cluster-state')).toHaveText('Unreachable');
  expect(failedLoads).toEqual([]);
});

