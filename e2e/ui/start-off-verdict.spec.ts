/**
 * The verdict never invites a Start that cannot run: with Start off for a Diagnostics finding
 * (127.0.0.1:53 held by another process) the line says Start is off and gives the Start button's
 * reason, which says what to fix first; the verdict's own Check again runs those checks again
 * too, so once the port is free Start is on and the line is the plain "press Start" again. The
 * fake backend's findings are answered with the real port-53 error (electron/core/doctor/port53.ts).
 */
import { expect, test, type Page } from '@playwright/test';
import type { DoctorFinding } from '../../shared/doctor';
import { fakePagePerFile } from './fake-page';

let page: Page;
fakePagePerFile({ logIntervalMs: 3_600_000 }, (p) => (page = p));

const PORT_HELD: DoctorFinding = {
  id: 'port-53',
  severity: 'error',
  title: '127.0.0.1:53 is held by dnsmasq (PID 812)',
  meaning: '127.0.0.1:53/udp is held by /usr/sbin/dnsmasq --conf-file=/etc/dnsmasq.conf (PID 812), so the proxy cannot bind and k2s-dns start refuses (PORT_IN_USE).',
  fix: 'Stop that process (`sudo kill 812`) or make it listen elsewhere, then start K2s DNS.',
  remedy: { action: 'run-checks', gui: 'Stop dnsmasq (PID 812) or make it listen elsewhere (e.g. `sudo kill 812` in a terminal), then Check again and press Start.', cli: 'sudo kill 812, then sudo npx k2s-dns start' },
  detail: { proto: 'udp', pid: 812, command: '/usr/sbin/dnsmasq --conf-file=/etc/dnsmasq.conf', ours: false },
};

const PLAIN = 'Cluster names do not resolve on this host: K2s DNS is stopped — press Start in Host DNS below';

test("port 53 held by another process: the verdict gives Start's reason, not 'press Start'; its Check again re-runs the checks", async () => {
  const start = page.getByTestId('panel-hostdns').getByTestId('btn-start');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-cause', 'stopped', { timeout: 15_000 });
  await expect(page.getByTestId('verdict-text')).toHaveText(PLAIN);
  await expect(start).toBeEnabled();
  // The fake's own findings, with the port held.
  let runs = 0;
  await page.route('**/api/doctor:run', async (route) => {
    runs += 1;
    const body = (await (await route.fetch()).json()) as { ok: true; data: DoctorFinding[] };
    await route.fulfill({ json: { ...body, data: body.data.map((f) => (f.id === 'port-53' ? PORT_HELD : f)) } });
  });
  await page.getByTestId('refresh-all').click();
  await expect(start).toBeDisabled();
  await expect(start).toHaveAttribute('title', '127.0.0.1:53 held by dnsmasq (PID 812): stop it, then press Check again.');
  await expect(page.getByTestId('verdict-text')).toHaveText('Cluster names do not resolve on this host: K2s DNS is stopped — Start in Host DNS below is off: 127.0.0.1:53 held by dnsmasq (PID 812): stop it, then press Check again');
  expect(runs).toBeGreaterThan(0);
  // The port is free again: the verdict's Check again (not only the one under Start) asks the checks again.
  await page.unrouteAll({ behavior: 'wait' });
  await page.getByTestId('verdict-recheck').click();
  await expect(start).toBeEnabled();
  await expect(page.getByTestId('verdict-text')).toHaveText(PLAIN);
});
