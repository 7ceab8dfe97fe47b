/**
 * New-user pass (ux2): what the window shows for a stopped host's expected NXDOMAIN (neutral, not
 * a green tick) and the Diagnostics counts in words ("1 error", never "1 errors"). Fake backend.
 */
import { expect, test, type Page } from '@playwright/test';
import { fakePagePerFile } from './fake-page';

let page: Page;
fakePagePerFile({ stepDelayMs: 20, logIntervalMs: 3_600_000 }, (p) => (page = p));

test('stopped: host apps getting NXDOMAIN for the cluster name is neutral, with the reason; your resolv.conf stays green', async () => {
  await page.getByTestId('tab-topology').click();
  const panel = page.getByTestId('panel-topology');
  await panel.getByTestId('topology-probe').click();
  const system = panel.getByTestId('hop-system');
  await expect(system).toHaveAttribute('data-mark', 'idle');
  await expect(system).toHaveAttribute('data-ok', 'null');
  await expect(system).not.toHaveClass(/\b(ok|bad)\b/);
  await expect(panel.getByTestId('hop-reason-system')).toHaveText('your nameservers answered NXDOMAIN: cluster names need K2s DNS');
  await expect(panel.getByTestId('hop-resolver')).toHaveAttribute('data-ok', 'true');
});

test('Diagnostics summary badges use singular for one', async () => {
  await page.getByTestId('tab-diagnostics').click();
  const summary = page.getByTestId('diagnostics-summary');
  await expect(summary).toBeVisible({ timeout: 15_000 });
  const badges = await summary.locator('.badge').allInnerTexts();
  // The stopped fake has 0 errors, 1 warning, 1 info and 10 ok findings: one singular case at least.
  expect(badges.map((b) => b.trim())).toEqual(['0 errors', '1 warning', '1 info', '10 ok']);
  for (const b of badges) {
    const m = /^(\d+) (\w+)$/.exec(b.trim());
    expect(m, b).not.toBeNull();
    const [n, word] = [Number(m![1]), m![2]!];
    if (word === 'error' || word === 'warning') expect(n, b).toBe(1);
    if (word === 'errors' || word === 'warnings') expect(n, b).not.toBe(1);
  }
});
