/**
 * Start gates and query validation on the REAL backend, on the e2e test bed (inside e2e/bed/sandbox.sh):
 * Start is disabled before the click while another process holds 127.0.0.1:53 (named with its
 * PID by the real doctor check), and the query tester explains a short name with the bed's real
 * search list (`search example.test`) and says which candidate resolves through getaddrinfo, and
 * explains NXDOMAIN for `kubernetes.default` and `web.demo.svc` with each candidate's real rcode.
 */
import { createSocket, type Socket } from 'node:dgram';
import { expect, test } from '@playwright/test';
import { useBedApp } from '../support/bed-app';

const bed = useBedApp();

test('Start is disabled while 127.0.0.1:53 is held by another process, named with its PID; Check again re-enables it', async () => {
  const { backend, server, page } = bed;
  // This test process takes the port, exactly like a foreign DNS server would.
  const holder: Socket = createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    holder.once('error', reject);
    holder.bind(53, '127.0.0.1', () => resolve());
  });
  await page.goto(server.url);
  const panel = page.getByTestId('panel-hostdns');
  await expect(panel.getByTestId('dns-state')).toHaveText('stopped');
  const why = `127.0.0.1:53 held by node (PID ${process.pid}): stop it, then press Check again.`;
  try {
    await expect(panel.getByTestId('btn-start')).toHaveAttribute('title', why, { timeout: 30_000 });
  } catch (err) {
    // Seen once in CI and once in ~40 local runs: say whether the backend or the page missed the holder.
    const own = (await backend.doctorRun({})).find((f) => f.id === 'port-53');
    await page.getByTestId('tab-diagnostics').click();
    const shown = await page.getByTestId('panel-diagnostics').innerText().catch((e: Error) => e.message);
    throw new Error(`${(err as Error).message}\nbackend's own port-53 finding now: ${JSON.stringify(own)}\nDiagnostics panel: ${shown.slice(0, 2000)}`);
  }
  await expect(panel.getByTestId('btn-start')).toBeDisabled();
  await expect(panel.getByTestId('disabled-reasons')).toContainText(why);
  await new Promise<void>((resolve) => holder.close(() => resolve()));
  await panel.getByTestId('btn-check-port').click();
  await expect(panel.getByTestId('btn-start')).toBeEnabled({ timeout: 30_000 });
});

test('short name: the real search list and ndots, which candidate resolves through getaddrinfo', async () => {
  const { page } = bed;
  const panel = page.getByTestId('panel-hostdns');
  await panel.getByTestId('engine-select').selectOption('dnsmasq');
  await panel.getByTestId('btn-start').click();
  await expect(panel.getByTestId('dns-state')).toHaveText('running', { timeout: 60_000 });
  await page.getByTestId('tab-query').click();
  const q = page.getByTestId('panel-query');
  await expect(q.getByTestId('query-target')).toHaveValue('system');
  await q.getByTestId('query-name').fill('www');
  await q.getByTestId('query-run').click();
  await expect(q.getByTestId('query-rcode')).toHaveText('resolved');
  const short = q.getByTestId('query-short-name');
  await expect(short).toContainText('www has fewer dots than glibc\'s default ndots:1 (no ndots option in /etc/resolv.conf), so it is a short name: host apps (glibc) try the search list example.test in order');
  await expect(short.getByTestId('query-candidate').first()).toHaveText('www.example.test — resolves: 198.51.100.7', { timeout: 15_000 });
  await expect(short.getByTestId('query-candidate').nth(1)).toHaveAttribute('data-rcode', /NXDOMAIN|TIMEOUT|ERROR/);
  await expect(q.getByTestId('query-short-none')).toHaveCount(0);
});

test('kubernetes.default and web.demo.svc get NXDOMAIN: each candidate glibc asked with its real rcode, and the .svc hint', async () => {
  const { page } = bed;
  // K2s DNS runs (the test before): the K2s-owned file keeps `search example.test`, ndots 1.
  const q = page.getByTestId('panel-query');
  await q.getByTestId('query-target').selectOption('system');
  await q.getByTestId('query-name').fill('kubernetes.default');
  await q.getByTestId('query-run').click();
  // getaddrinfo has no rcode: its own result is EAI_NONAME; the candidates below carry the rcodes.
  await expect(q.getByTestId('query-rcode')).toHaveText('EAI_NONAME');
  const box = q.getByTestId('query-short-name');
  await expect(box).toContainText('kubernetes.default is a relative name; with glibc\'s default ndots:1 (no ndots option in /etc/resolv.conf) glibc asks it as it is first, then with each search domain: host apps (glibc) try the search list example.test in order');
  await expect(box.getByTestId('query-candidate')).toHaveText(['kubernetes.default — NXDOMAIN', 'kubernetes.default.example.test — NXDOMAIN'], { timeout: 15_000 });
  for (const c of await box.getByTestId('query-candidate').all()) await expect(c).toHaveAttribute('data-asked', 'true');
  await expect(box.getByTestId('query-short-none')).toHaveText('None of them resolves: the search list has no domain under which kubernetes.default exists. Cluster names need their full form here, e.g. kubernetes.default.svc.cluster.local.');
  await expect(box.getByTestId('query-svc-hint')).toHaveCount(0);

  await q.getByTestId('query-target').selectOption('proxy');
  await q.getByTestId('query-name').fill('web.demo.svc');
  await q.getByTestId('query-run').click();
  await expect(q.getByTestId('query-rcode')).toHaveText('NXDOMAIN');
  await expect(box.getByTestId('query-candidate')).toHaveText(['web.demo.svc — NXDOMAIN', 'web.demo.svc.example.test — NXDOMAIN'], { timeout: 15_000 });
  await expect(box.getByTestId('query-svc-hint')).toHaveText('web.demo.svc ends in .svc, but the cluster zone is svc.cluster.local: the name resolves only through a search list with cluster.local (pods get "search <namespace>.svc.cluster.local svc.cluster.local cluster.local" from kubelet), and this host\'s search list (example.test) has not — ask web.demo.svc.cluster.local, or add cluster.local to the search list.');
  // The full name the hint gives answers through the same proxy.
  await q.getByTestId('query-name').fill('web.demo.svc.cluster.local');
  await q.getByTestId('query-run').click();
  await expect(q.getByTestId('query-answers')).toContainText('172.21.14.7');
  await expect(box).toHaveCount(0);
});
