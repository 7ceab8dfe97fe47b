/**
 * One control per job and text as text: one Start button in the window (the verdict points at
 * the Host DNS card's), one verb for every "read it again" button ("Check again"), keyboard
 * focus kept on something meaningful through Start and Stop (never dropped to the body), and
 * no literal backtick anywhere a backend message is shown (`code` spans render as <code>).
 */
import { expect, test, type Page } from '@playwright/test';
import { fakePagePerFile } from './fake-page';

let page: Page;
fakePagePerFile({ stepDelayMs: 60, logIntervalMs: 3_600_000 }, (p) => (page = p));

const TABS = ['overview', 'zones', 'diff', 'logs', 'query', 'topology', 'diagnostics'] as const;

/** Every button label on every tab. */
async function allButtons(p: Page): Promise<string[]> {
  const out: string[] = [];
  for (const t of TABS) {
    await p.getByTestId(`tab-${t}`).click();
    await expect(p.getByTestId('panel-crashed')).toHaveCount(0);
    out.push(...(await p.locator('main button:visible, header button:visible').allInnerTexts()).map((s) => s.trim()));
  }
  await p.getByTestId('tab-overview').click();
  return out;
}

test('one Start button; every refresh says "Check again"', async () => {
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-cause', 'stopped', { timeout: 15_000 });
  await expect(page.getByTestId('verdict-text')).toContainText('press Start in Host DNS below');
  const labels = await allButtons(page);
  expect(labels.filter((l) => l === 'Start')).toEqual(['Start']);
  expect(labels.filter((l) => /^(Refresh|Reload|Re-?check|Probe again|Run checks)$/i.test(l))).toEqual([]);
  expect(labels).toContain('Check all again');
  expect(labels).toContain('Check again');
});

test('keyboard Start and Stop: focus goes to the timeline, then to the next button — never the body', async () => {
  const card = page.getByTestId('panel-hostdns');
  await card.getByTestId('btn-start').focus();
  await page.keyboard.press('Enter');
  await expect(card.getByTestId('timeline-heading')).toBeFocused();
  await expect(card.getByTestId('dns-state')).toHaveText('running', { timeout: 15_000 });
  await expect(card.getByTestId('btn-stop')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(card.getByTestId('dns-state')).toHaveText('stopped', { timeout: 15_000 });
  await expect(card.getByTestId('btn-start')).toBeFocused();
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);
});

test('backend messages with `code` spans: no literal backtick on any tab', async () => {
  const tick = 'run `sudo npx k2s-dns stop` first';
  // Every channel a backend sentence reaches the page by: status notes, a refused call,
  // Diagnostics (title, meaning, fix) and the cluster's message.
  await page.route('**/api/dns:status', async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    if (body.ok) body.data.messages = [...body.data.messages, `A note: ${tick}.`];
    await route.fulfill({ response: res, json: body });
  });
  await page.route('**/api/doctor:run', async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    if (body.ok) body.data = [{ id: 'tick', severity: 'warn', title: `Title with \`code\``, meaning: `Meaning: ${tick}.`, fix: `Fix: ${tick}.` }, ...body.data];
    await route.fulfill({ response: res, json: body });
  });
  await page.route('**/api/cluster:status', async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    if (body.ok) body.data.message = `Cluster: ${tick}.`;
    await route.fulfill({ response: res, json: body });
  });
  await page.route('**/api/dns:start', (route) => route.fulfill({ json: { ok: false, error: { code: 'BAD_INPUT', message: `Refused: ${tick}.` } } }));
  await page.getByTestId('refresh-all').click();
  await page.getByTestId('panel-hostdns').getByTestId('btn-start').click();
  await expect(page.getByTestId('dns-error')).toContainText('Refused: run sudo npx k2s-dns stop first.');
  await expect(page.getByTestId('dns-error').locator('code')).toHaveText('sudo npx k2s-dns stop');
  await page.getByTestId('tab-diagnostics').click();
  await page.getByTestId('diagnostics-run').click();
  await expect(page.getByTestId('finding-tick')).toContainText('Meaning: run sudo npx k2s-dns stop first.');
  for (const t of TABS) {
    await page.getByTestId(`tab-${t}`).click();
    await expect(page.getByTestId('panel-crashed')).toHaveCount(0);
    const text = await page.locator('body').innerText();
    expect(text, `tab ${t}`).not.toContain('`');
  }
  // Wait for handlers in flight (the 1 s status poll, the checks Start re-runs): one finishing
  // after a plain unrouteAll fails the next test with "Route is already handled".
  await page.unrouteAll({ behavior: 'wait' });
});

test('one time format: the saved original, the verdict and the checks say HH:MM:SS', async () => {
  await page.getByTestId('tab-overview').click();
  const card = page.getByTestId('panel-hostdns');
  await card.getByTestId('btn-start').click();
  await expect(card.getByTestId('dns-state')).toHaveText('running', { timeout: 15_000 });
  await expect(card.getByTestId('dns-saved')).toHaveText(/^the file in place at Start, saved at \d{2}:\d{2}:\d{2} by k2s-dns$/);
  await page.getByTestId('verdict-recheck').click();
  await expect(page.getByTestId('verdict-text')).toHaveText(/, checked \d{2}:\d{2}:\d{2}$/, { timeout: 15_000 });
  await page.getByTestId('tab-topology').click();
  await expect(page.getByTestId('topology-probed-at')).toHaveText(/^Last probe \d{2}:\d{2}:\d{2}$/, { timeout: 15_000 });
  await page.getByTestId('tab-overview').click();
  await card.getByTestId('btn-stop').click();
  await expect(card.getByTestId('dns-state')).toHaveText('stopped', { timeout: 15_000 });
});
