/**
 * Lows of the third walk (issue 20), fake backend, at 900 and 1280 px: Start, Stop and Uninstall
 * stay on one line (also the drift's longer Stop…); the Start options' selects and the Upstreams
 * placeholder show their whole text; a query filter's match stays visible in a narrow Name cell;
 * the Engine select's choice is the app's (another window, a reload), not one window's.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { AppBackend } from '../../electron/core/backend';
import { createFakeBackend } from '../support/backend-fake';
import { startWebServer, type WebServer } from '../../electron/web/server';
import { RENDERER_DIR, serveFake } from './serve-fake';

const WIDTHS = [900, 1280] as const;

/** The fake, optionally with /etc/resolv.conf rewritten by another program while running (the drift's Stop… button). */
async function serve(drift = false): Promise<WebServer> {
  if (!drift) return serveFake({ logIntervalMs: 3_600_000 });
  const fake = createFakeBackend({ logIntervalMs: 3_600_000, running: true });
  const patched: AppBackend = { ...fake, dnsStatus: async (i) => ({ ...(await fake.dnsStatus(i)), resolverOwner: 'foreign' }) };
  return startWebServer({ backend: patched, staticDir: RENDERER_DIR });
}

/** The distinct line tops of an element's text (1 = one line). */
const textLines = (l: Locator) =>
  l.evaluate((e) => {
    const r = document.createRange();
    r.selectNodeContents(e);
    return new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top))).size;
  });

/**
 * Whether `text` fits the element's content box in its own font: the width of a span with that
 * text, plus `extraPx` (a select's arrow), against clientWidth minus the padding.
 */
const fits = (l: Locator, text: string, extraPx = 0) =>
  l.evaluate(
    (e, [t, extra]) => {
      const cs = getComputedStyle(e);
      const probe = document.createElement('span');
      probe.style.cssText = `position:absolute;visibility:hidden;white-space:pre;font:${cs.font};letter-spacing:${cs.letterSpacing}`;
      probe.textContent = t;
      document.body.append(probe);
      const need = probe.getBoundingClientRect().width + extra;
      probe.remove();
      const room = e.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      return { need: Math.ceil(need), room, ok: need <= room };
    },
    [text, extraPx] as const,
  );

/**
 * Whether a select is as wide as it wants to be (its widest option and the arrow: Chromium's
 * menulist is never cut then): its width against a copy's beside it with no width limit.
 */
const selectWhole = (l: Locator) =>
  l.evaluate((e) => {
    const copy = e.cloneNode(true) as HTMLSelectElement;
    copy.style.cssText = 'position:absolute;visibility:hidden;width:auto;max-width:none;min-width:0;flex:none';
    e.parentElement!.append(copy);
    const want = copy.getBoundingClientRect().width;
    copy.remove();
    const has = e.getBoundingClientRect().width;
    return { want: Math.ceil(want), has: Math.floor(has), ok: has >= want - 0.5 };
  });

for (const drift of [false, true]) {
  test(`Start, Stop and Uninstall are one line, each label unbroken, at 900 and 1280 px${drift ? ' (drift: Stop… (choose at the top))' : ''}`, async ({ browser }) => {
    const server = await serve(drift);
    const page = await browser.newPage();
    try {
      await page.goto(server.url);
      const host = page.getByTestId('panel-hostdns');
      const stop = host.getByTestId(drift ? 'btn-stop-drift' : 'btn-stop');
      await expect(stop).toBeVisible();
      if (drift) await expect(stop).toHaveText('Stop… (choose at the top)');
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 860 });
        const buttons = [host.getByTestId('btn-start'), stop, host.getByTestId('btn-uninstall')];
        await expect(buttons[2]!).toHaveText('Uninstall');
        const boxes = await Promise.all(buttons.map((b) => b.boundingBox()));
        for (const [i, b] of buttons.entries()) {
          expect(await textLines(b), `${width} px: ${await b.textContent()} on one line`).toBe(1);
          expect(Math.abs(boxes[i]!.y - boxes[0]!.y), `${width} px: ${await b.textContent()} beside Start`).toBeLessThanOrEqual(1);
          expect(boxes[i]!.height).toBeLessThanOrEqual(boxes[0]!.height + 1);
        }
        // Inside the card, not past its edge.
        const card = (await host.boundingBox())!;
        expect(boxes[2]!.x + boxes[2]!.width).toBeLessThanOrEqual(card.x + card.width);
      }
    } finally {
      await page.close();
      await server.close();
    }
  });
}

test('Start options: the selects and the Upstreams placeholder show their whole text, the hints wrap inside the card, at 900 and 1280 px', async ({ browser }) => {
  const server = await serve();
  const page = await browser.newPage();
  try {
    await page.goto(server.url);
    const options = page.getByTestId('start-options');
    await options.locator('summary').click();
    const network = options.getByTestId('start-network-change');
    const kubeSwitch = options.getByTestId('start-kubeswitch');
    const upstreams = options.getByTestId('start-upstreams');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 860 });
      for (const [select, values] of [[network, ['follow', 'keep']], [kubeSwitch, ['auto', 'none', 'address']]] as const) {
        for (const v of values) {
          await select.selectOption(v);
          const shown = await select.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]!.text);
          const whole = await selectWhole(select);
          expect(whole.ok, `${width} px: the select showing "${shown}" wants ${whole.want} px, has ${whole.has}`).toBe(true);
          // Its text in its content box (the arrow sits in the padding of Chromium's menulist).
          const fit = await fits(select, shown);
          expect(fit.ok, `${width} px: "${shown}" needs ${fit.need} px, the select has ${fit.room}`).toBe(true);
        }
      }
      await network.selectOption('follow');
      await kubeSwitch.selectOption('auto');
      await expect(options.getByTestId('start-network-change-hint')).toHaveText('New nameservers from the network become the upstreams; Stop restores the newest file.');
      await expect(options.getByTestId('start-kubeswitch-hint')).toHaveText('Also listens on 172.19.1.1 when it is assigned here.');
      const placeholder = (await upstreams.getAttribute('placeholder'))!;
      expect(placeholder).toBe('the saved nameservers');
      const fit = await fits(upstreams, placeholder);
      expect(fit.ok, `${width} px: the placeholder needs ${fit.need} px, the field has ${fit.room}`).toBe(true);
      const card = (await page.getByTestId('panel-hostdns').boundingBox())!;
      for (const hint of [options.getByTestId('start-network-change-hint'), options.getByTestId('start-kubeswitch-hint')]) {
        const b = (await hint.boundingBox())!;
        expect(b.x + b.width, `${width} px: the hint ends inside the card`).toBeLessThanOrEqual(card.x + card.width);
        expect(await hint.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
      }
    }
  } finally {
    await page.close();
    await server.close();
  }
});

test('walk 10 L9: the Logs query filter shows its whole placeholder at 900 and 1280 px', async ({ browser }) => {
  const server = await serve();
  const page = await browser.newPage();
  try {
    await page.goto(server.url);
    await page.getByTestId('tab-logs').click();
    await page.getByTestId('logs-view-queries').click();
    const filter = page.getByTestId('logs-query-filter');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 860 });
      const placeholder = (await filter.getAttribute('placeholder'))!;
      const fit = await fits(filter, placeholder);
      expect(fit.ok, `${width} px: the placeholder "${placeholder}" needs ${fit.need} px, the field has ${fit.room}`).toBe(true);
    }
  } finally {
    await page.close();
    await server.close();
  }
});

test('a query filter keeps its match visible in the Name cell at 900 px: the part before it gives way, marked, full name as the title', async ({ browser }) => {
  // Longer than the Name column at 900 px (walk M2 made it hold kubernetes.default.svc.cluster.local whole).
  const LONG = 'prometheus-kube-state-metrics.default.svc.cluster.local';
  const server = await serveFake({ logIntervalMs: 3_600_000, loggedNames: [LONG] });
  const page = await browser.newPage({ viewport: { width: 900, height: 860 } });
  try {
    await page.goto(server.url);
    await page.getByTestId('tab-logs').click();
    await page.getByTestId('logs-view-queries').click();
    await page.getByTestId('logs-query-filter').fill('default');
    // The whole log's search answered (its rows replace the buffer's).
    await expect(page.getByTestId('panel-logs')).toContainText(/\d+ matching quer(y|ies) shown/);
    const name = page.getByTestId('logs-query-list').getByTestId('q-name').filter({ hasText: LONG }).first();
    await expect(name).toBeVisible();
    await expect(name).toHaveAttribute('title', LONG);
    // The plain name as text (copy, screen readers): the mark adds no characters.
    expect(await name.evaluate((e) => (e as HTMLElement).innerText)).toBe(LONG);
    const mark = name.getByTestId('dns-name-match');
    await expect(mark).toHaveText('default');
    // The cell is narrower than the name (the case the walk saw), and the whole match lies inside it.
    expect(await name.evaluate((e) => e.scrollWidth > e.clientWidth || [...e.querySelectorAll('.dns-name-head')].some((h) => h.scrollWidth > h.clientWidth))).toBe(true);
    const [cell, m] = [(await name.boundingBox())!, (await mark.boundingBox())!];
    expect(m.x).toBeGreaterThanOrEqual(cell.x);
    expect(m.x + m.width).toBeLessThanOrEqual(cell.x + cell.width + 0.5);
    expect(await mark.evaluate((e) => e.scrollWidth <= e.clientWidth + 0.5)).toBe(true);
    // No filter: the name gives way in the middle as before, no mark.
    await page.getByTestId('logs-query-filter').fill('');
    await expect(page.getByTestId('logs-query-list').getByTestId('dns-name-match')).toHaveCount(0);
  } finally {
    await page.close();
    await server.close();
  }
});

test('the Engine select\'s choice is the app\'s: another window and a reload show it, an open window follows', async ({ browser }) => {
  const server = await serve();
  // One browser profile, two windows of the app (the same origin, as the desktop window's are).
  const context = await browser.newContext();
  try {
    const open = async (): Promise<Page> => {
      const p = await context.newPage();
      await p.goto(server.url);
      await expect(p.getByTestId('engine-select')).toBeEnabled();
      return p;
    };
    const first = await open();
    await expect(first.getByTestId('engine-select')).toHaveValue('auto');
    await first.getByTestId('engine-select').selectOption('dnsmasq');
    const second = await open();
    await expect(second.getByTestId('engine-select')).toHaveValue('dnsmasq');
    await first.reload();
    await expect(first.getByTestId('engine-select')).toHaveValue('dnsmasq');
    // A choice in one open window shows in the other without a reload.
    await second.getByTestId('engine-select').selectOption('adguard');
    await expect(first.getByTestId('engine-select')).toHaveValue('adguard');
    await first.getByTestId('engine-select').selectOption('auto');
    await expect(second.getByTestId('engine-select')).toHaveValue('auto');
    // And Start sends the app's choice.
    await second.getByTestId('engine-select').selectOption('dnsmasq');
    const sent = first.waitForRequest('**/api/dns:start');
    await first.getByTestId('panel-hostdns').getByTestId('btn-start').click();
    expect((await sent).postDataJSON()).toEqual({ engine: 'dnsmasq' });
  } finally {
    await context.close();
    await server.close();
  }
});
