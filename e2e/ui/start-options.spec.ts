/**
 * Start options say what Start will use and can express what Diagnostics suggests: the
 * Kubeconfig option names the file itself (not the lookup rules), also while the API is down;
 * Upstreams carries the CLI's `--upstream IP` (dns:start `upstreams`, one field of
 * shared/operation-input.ts) and a wrong one is refused in the window's words.
 */
import { expect, test, type Page } from '@playwright/test';
import { FAKE_KUBECONFIG, FAKE_LAN_NAMESERVER } from '../support/backend-fake-data';
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

test('Upstreams in Start options: what Diagnostics suggests as --upstream IP, sent with Start', async () => {
  const options = page.getByTestId('start-options');
  await options.getByTestId('start-upstreams').fill('192.0.2.99, [fd00::1]:53');
  const sent = page.waitForRequest('**/api/dns:start');
  await page.getByTestId('panel-hostdns').getByTestId('btn-start').click();
  expect((await sent).postDataJSON()).toEqual({ upstreams: ['192.0.2.99', '[fd00::1]:53'] });
  await expect(page.getByTestId('panel-hostdns').getByTestId('dns-state')).toHaveText('running', { timeout: 15_000 });
  // While it runs the disabled field shows what runs (the fake forwards to its LAN nameserver
  // whatever was typed), not the preference for the next Start (walk5 L6); after Stop the typed value is back.
  await expect(options.getByTestId('start-upstreams')).toBeDisabled();
  await expect(options.getByTestId('start-upstreams')).toHaveValue(FAKE_LAN_NAMESERVER);
  await expect(options.getByTestId('start-options-running')).toHaveText(' — what runs now (change them after Stop)');
  await page.getByTestId('panel-hostdns').getByTestId('btn-stop').click();
  await expect(page.getByTestId('panel-hostdns').getByTestId('dns-state')).toHaveText('stopped', { timeout: 15_000 });
  await expect(options.getByTestId('start-upstreams')).toHaveValue('192.0.2.99, [fd00::1]:53');
  await expect(options.getByTestId('start-options-running')).toHaveCount(0);
  // A wrong one is refused in the window's words (the contract's upstream rule), nothing started.
  await options.getByTestId('start-upstreams').fill('not-an-ip');
  await page.getByTestId('panel-hostdns').getByTestId('btn-start').click();
  await expect(page.getByTestId('dns-error')).toContainText(/^Upstreams: /);
  await expect(page.getByTestId('panel-hostdns').getByTestId('dns-state')).toHaveText('stopped');
  await options.getByTestId('start-upstreams').fill('');
});
