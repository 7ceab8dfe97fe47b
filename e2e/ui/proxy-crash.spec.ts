/**
 * A proxy crash and restart in the open window: the timeline says when the proxy ended, how
 * (signal or exit status) and the PID the watchdog restarted it as, and the start step stops
 * naming the dead PID; a stop from the CLI afterwards is named by the PID the CLI names
 * ("Stopped k2s-dnsproxy (PID N)"), not an older one or the CLI's own process.
 */
import { expect, test, type Page } from '@playwright/test';
import type { FakeHost } from '../support/backend-fake';
import { fakePagePerFile } from './fake-page';

let page: Page;
const host: FakeHost = { running: false, pid: 1234 };
fakePagePerFile({ stepDelayMs: 20, logIntervalMs: 3_600_000, host }, (p) => (page = p));

test('crash + restart: time, signal and the new PID; the dead PID is gone from the timeline', async () => {
  const card = page.getByTestId('panel-hostdns');
  await card.getByTestId('btn-start').click();
  await expect(card.getByTestId('timeline-result')).toHaveText('K2s DNS is running: cluster names resolve on this host.', { timeout: 15_000 });
  await expect(card.getByTestId('step-service')).toContainText('k2s-dnsproxy (adguard, PID 1234) answers on 127.0.0.1:53');
  // SIGKILL of the proxy; the watchdog starts it again as PID 1240 (its state file: supervisor-script.ts).
  const ended = new Date(Date.now() + 1000);
  ended.setMilliseconds(0);
  host.pid = 1240;
  host.proxyExit = { pid: 1234, at: ended.toISOString(), how: 'killed by signal KILL (exit status 137)', restartedBy: 'watchdog' };
  const hh = [ended.getHours(), ended.getMinutes(), ended.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
  await expect(card.getByTestId('timeline-proxy-exit')).toHaveText(`At ${hh} k2s-dnsproxy (PID 1234) was killed by signal KILL (exit status 137); the watchdog restarted it as PID 1240.`, { timeout: 10_000 });
  await expect(card.getByTestId('step-service')).toContainText(`k2s-dnsproxy (adguard, PID 1240 since a restart at ${hh}) answers on 127.0.0.1:53`);
  await expect(card.getByTestId('step-service')).not.toContainText('PID 1234');
});

test('a CLI stop with the window open: the window names the PID the CLI stopped', async () => {
  // The CLI prints "Stopped k2s-dnsproxy (PID 1240)." (teardown.ts); the fake's host just stops.
  host.running = false;
  const card = page.getByTestId('panel-hostdns');
  await expect(card.getByTestId('dns-state')).toHaveText('stopped', { timeout: 10_000 });
  await expect(card.getByTestId('timeline-result')).toHaveText('Stopped k2s-dnsproxy (PID 1240) outside this window (e.g. from the CLI): K2s DNS is stopped.');
  await expect(card.getByTestId('timeline-proxy-exit')).toHaveCount(0);
});

test("a CLI start --engine dnsmasq shows dnsmasq in the Engine select while it runs; after its stop the select is back to the user's Automatic", async () => {
  const card = page.getByTestId('panel-hostdns');
  await expect(card.getByTestId('engine-select')).toHaveValue('auto');
  host.engine = 'dnsmasq';
  host.running = true;
  await expect(card.getByTestId('dns-state')).toHaveText(/running|degraded/, { timeout: 10_000 });
  await expect(card.getByTestId('engine-select')).toHaveValue('dnsmasq');
  host.running = false;
  await expect(card.getByTestId('dns-state')).toHaveText('stopped', { timeout: 10_000 });
  await expect(card.getByTestId('engine-select')).toHaveValue('auto');
  host.engine = undefined;
});
