/**
 * Issue 20.4, the verdict names the whole outage: K2s DNS was started and its proxy killed. The
 * verdict says no names resolve at all (not only cluster names), that nothing answers on
 * 127.0.0.1:53 and that nothing restarts the proxy; the card marks the listener unbound (the
 * fake reports what the backend reads from the kernel's socket table); and the verdict is not
 * repeated in the card's notes (one message per fact).
 */
import { expect, test, type Page } from '@playwright/test';
import { fakePagePerFile } from './fake-page';

let page: Page;
const host = { running: true, proxyDead: false };
fakePagePerFile({ stepDelayMs: 20, logIntervalMs: 3_600_000, host, running: true }, (p) => (page = p));

test('proxy killed: "No names resolve …", listener unbound, the verdict said once', async () => {
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toHaveAttribute('data-level', 'ok', { timeout: 15_000 });
  const card = page.getByTestId('panel-hostdns');
  await expect(card.getByTestId('dns-listener')).toHaveAttribute('data-bound', 'true');
  host.proxyDead = true;
  await page.getByTestId('verdict-recheck').click();
  await expect(verdict).toHaveAttribute('data-cause', 'proxy-down', { timeout: 15_000 });
  await expect(page.getByTestId('verdict-text')).toContainText('No names resolve on this host: nothing answers on 127.0.0.1:53; k2s-dnsproxy is not running and nothing restarts it');
  await expect(card.getByTestId('dns-listener')).toHaveAttribute('data-bound', 'false');
  // Start alone repairs a dead proxy (start runs in full while it is down): no "Stop, then Start".
  await expect(page.getByTestId('verdict-text')).toContainText('nothing restarts it — press Start in Host DNS below');
  await expect(page.getByTestId('verdict-action')).toHaveCount(0);
  await expect(page.getByTestId('tabpanel-overview')).not.toContainText('Stop, then Start');
  await expect(card.getByTestId('dns-listeners')).toHaveText('127.0.0.1:53 — not bound: nothing listens there (kernel socket table)');
  // The verdict's sentence appears once on the Overview.
  const text = await page.getByTestId('tabpanel-overview').innerText();
  expect(text.split('No names resolve on this host').length - 1).toBe(1);
});

test('proxy killed: the Query tester\'s route still goes through k2s-dnsproxy, the hop that does not answer (walk 10 M1)', async () => {
  await page.getByTestId('tab-query').click();
  const q = page.getByTestId('panel-query');
  await q.getByTestId('query-target').selectOption('system');
  await q.getByTestId('query-name').fill('kubernetes.default.svc.cluster.local');
  await q.getByTestId('query-type').selectOption('A');
  await q.getByTestId('query-run').click();
  await expect(q.getByTestId('query-result')).toHaveAttribute('data-stale', 'false');
  await expect(q.getByTestId('query-route')).toContainText('/etc/resolv.conf → nameserver 127.0.0.1 → k2s-dnsproxy (127.0.0.1:53)');
  await expect(q.getByTestId('query-route')).not.toContainText('not through the K2s proxy');
  await expect(q.getByTestId('query-route-break')).toHaveText('k2s-dnsproxy on 127.0.0.1:53 does not answer');
  await page.getByTestId('tab-overview').click();
});

test('a green Start result does not stay green under the dead proxy\'s red verdict', async () => {
  host.proxyDead = false;
  host.running = false;
  const card = page.getByTestId('panel-hostdns');
  await expect(card.getByTestId('dns-state')).toHaveText('stopped', { timeout: 10_000 });
  await card.getByTestId('btn-start').click();
  const result = card.getByTestId('timeline-result');
  await expect(result).toHaveText('K2s DNS is running: cluster names resolve on this host.', { timeout: 15_000 });
  await expect(result).toHaveAttribute('data-stale', 'false');
  host.proxyDead = true;
  await page.getByTestId('verdict-recheck').click();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-cause', 'proxy-down', { timeout: 15_000 });
  await expect(result).toHaveAttribute('data-stale', 'true');
  await expect(result).toHaveText(/^At \d{2}:\d{2}:\d{2}: K2s DNS is running: cluster names resolve on this host\. — no longer so: see the verdict above\.$/);
  await expect(result).not.toHaveClass(/ok-text/);
});
