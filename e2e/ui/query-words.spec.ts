/**
 * The Query tester's words: a getaddrinfo result is labelled as getaddrinfo reports it
 * (addresses → "resolved", or its EAI_* code), never with a DNS rcode it does not have; and the
 * previous result under a query in progress is marked as the previous one, not shown as its answer.
 */
import { expect, test, type Page } from '@playwright/test';
import { fakePagePerFile } from './fake-page';

let page: Page;
fakePagePerFile({ stepDelayMs: 20, logIntervalMs: 3_600_000, running: true }, (p) => (page = p));

test('getaddrinfo: "resolved" or EAI_NONAME, never NOERROR/NXDOMAIN; a DNS target keeps its rcode', async () => {
  await page.getByTestId('tab-query').click();
  const panel = page.getByTestId('panel-query');
  await expect(panel.getByTestId('query-target')).toHaveValue('system');
  await panel.getByTestId('query-run').click();
  await expect(panel.getByTestId('query-rcode')).toHaveText('resolved');
  await panel.getByTestId('query-name').fill('nothing.example');
  await panel.getByTestId('query-run').click();
  await expect(panel.getByTestId('query-rcode')).toHaveText('EAI_NONAME');
  await expect(panel.getByTestId('query-history')).not.toContainText('NOERROR');
  await expect(panel.getByTestId('query-history')).not.toContainText('NXDOMAIN');
  await panel.getByTestId('query-target').selectOption('coredns');
  await panel.getByTestId('query-run').click();
  await expect(panel.getByTestId('query-rcode')).toHaveText('NXDOMAIN');
});

test('a previous result under a query in progress is marked stale, then replaced', async () => {
  const panel = page.getByTestId('panel-query');
  await panel.getByTestId('query-name').fill('example.com');
  await panel.getByTestId('query-target').selectOption('system');
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/query:run', async (route) => {
    await held;
    await route.continue();
  });
  await panel.getByTestId('query-run').click();
  const card = panel.getByTestId('query-result');
  await expect(card).toHaveAttribute('data-stale', 'true');
  await expect(card.getByTestId('query-stale')).toHaveText('Previous result (nothing.example A) — a new query is running.');
  release();
  await expect(card).toHaveAttribute('data-stale', 'false');
  await expect(card.getByTestId('query-stale')).toHaveCount(0);
  await expect(card.getByTestId('query-rcode')).toHaveText('resolved');
  await page.unroute('**/api/query:run');
});

test('System resolver: its route from /etc/resolv.conf, through k2s-dnsproxy while K2s DNS owns it, then the zone route (issue 20 low: it showed none)', async () => {
  const panel = page.getByTestId('panel-query');
  await panel.getByTestId('query-target').selectOption('system');
  await panel.getByTestId('query-name').fill('kube-dns.kube-system.svc.cluster.local');
  await panel.getByTestId('query-type').selectOption('A');
  await panel.getByTestId('query-run').click();
  await expect(panel.getByTestId('query-rcode')).toHaveText('resolved');
  await expect(panel.getByTestId('query-route')).toHaveText('Route of the system resolver: /etc/resolv.conf → nameserver 127.0.0.1 → k2s-dnsproxy (127.0.0.1:53); there kube-dns.kube-system.svc.cluster.local matches zone cluster.local (cluster domain) → 172.21.0.10');
  // Topology draws the same path: /etc/resolv.conf's nameserver 127.0.0.1, then k2s-dnsproxy.
  await page.getByTestId('tab-topology').click();
  await expect(page.getByTestId('panel-topology')).toContainText('nameserver 127.0.0.1');
  await page.getByTestId('tab-query').click();
});

test("the K2s proxy's answer with the health check's capitals says why, in k2s-dns query's words (new user: the card never said)", async () => {
  const panel = page.getByTestId('panel-query');
  const name = 'kubernetes.default.svc.cluster.local';
  await page.route('**/api/query:run', (route) =>
    route.fulfill({ json: { ok: true, data: { server: '127.0.0.1:53', name, type: 'A', rcode: 'NOERROR', answers: [{ name: 'KUBERNETES.DEFAULT.svc.cluster.local.', type: 'A', ttl: 18, data: '172.21.0.1' }], latencyMs: 1, transport: 'udp' } } }),
  );
  await panel.getByTestId('query-target').selectOption('proxy');
  await panel.getByTestId('query-name').fill(name);
  await panel.getByTestId('query-type').selectOption('A');
  await panel.getByTestId('query-run').click();
  const card = panel.getByTestId('query-result');
  await expect(card.getByTestId('query-answers')).toContainText('KUBERNETES.DEFAULT.svc.cluster.local.');
  await expect(card.getByTestId('query-case-note')).toHaveText(
    "Note: KUBERNETES.DEFAULT.svc.cluster.local is the name asked (DNS names ignore case, RFC 4343), in the spelling of k2s-dns's health check: a cache answers with the spelling a name was first asked in.",
  );
  await page.unroute('**/api/query:run');
});

test("the K2s proxy's SERVFAIL for a cluster name: CoreDNS gave it no answer (new user: only the rcode was shown)", async () => {
  const panel = page.getByTestId('panel-query');
  const servfail = (name: string) => ({ json: { ok: true, data: { server: '127.0.0.1:53', name, type: 'A', rcode: 'SERVFAIL', answers: [], latencyMs: 20, transport: 'udp' } } });
  await page.route('**/api/query:run', (route) => route.fulfill(servfail((route.request().postDataJSON() as { name: string }).name)));
  await panel.getByTestId('query-target').selectOption('proxy');
  await panel.getByTestId('query-name').fill('nginx.default.svc.cluster.local');
  await panel.getByTestId('query-run').click();
  const card = panel.getByTestId('query-result');
  await expect(card.getByTestId('query-rcode')).toHaveText('SERVFAIL');
  await expect(card.getByTestId('query-rcode-note')).toHaveText(
    'SERVFAIL: the proxy could not get an answer from CoreDNS (kube-dns 172.21.0.10:53), where it sends the cluster zone cluster.local; the health verdict at the top of the window says why.',
  );
  // A name outside the cluster zones: its SERVFAIL came from the default upstreams, no such note.
  await panel.getByTestId('query-name').fill('www.example.test');
  await panel.getByTestId('query-run').click();
  await expect(card.getByTestId('query-stale')).toHaveCount(0);
  await expect(card.getByTestId('query-rcode-note')).toHaveCount(0);
  await page.unroute('**/api/query:run');
});
