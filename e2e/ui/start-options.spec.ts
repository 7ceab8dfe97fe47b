/**
 * Start options say what Start will use and can express what Diagnostics suggests: the
 * Kubeconfig option names the file itself (not the lookup rules), also while the API is down.
 */
import { expect, test, type Page } from '@playwright/test';
import { FAKE_KUBECONFIG } from '../support/backend-fake-data';
import { fakePagePerFile } from './fake-page';

let page: Page;
const api = { up: true };
fakePagePerFile({ stepDelayMs: 20, logIntervalMs: 3_600_000, api }, (p) => (page = p));

test('the Kubeconfig option shows the file Start uses, also with the API down', async () => {
  const options = page.getByTestId('start-options');
  await options.locator('summary').click();
  await expect(options.getByTestId('kubeconfig-file')).toContainText(`${FAKE_KUBECONFIG} — the file Start uses`);
  await expect(options.getByTestId('kubeconfig-order')).toHaveCount(0);
  api.up = false;
  await page.getByTestId('refresh-all').click();
  await expect(page.getByTestId('cluster-state')).not.toHaveText('Reachable', { timeout: 10_000 });
  await expect(options.getByTestId('kubeconfig-file')).toContainText(FAKE_KUBECONFIG);
  api.up = true;
});
