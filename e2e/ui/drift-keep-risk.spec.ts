/**
 * The drift banner's default when keeping their file is the worse choice (issue 20, the walk's
 * HIGH), on the fake backend in Debian's Chromium with the product's health check:
 * - their file bypasses the proxy and its only nameserver (198.51.100.77) does not answer
 *   (getaddrinfo EAI_AGAIN at once, ENETUNREACH; asked straight, no reply: shared/drift-default.ts
 *   silentAfterStop, the one rule a plain stop applies too): the banner warns that keeping it leaves no
 *   DNS and Restore my original is the default — only from a report made for THIS file (the
 *   report's forResolver is the status's resolverStamp);
 * - a file the follower refused for its owner (nobody, uid 65534): not the default either,
 *   and the banner says why in the owner rule's words (shared/network-writer.ts);
 * - a file the follower refused as not a resolver file (a line that is no resolv.conf(5)
 *   directive) whose nameserver answers: Restore my original is the default, and the banner
 *   gives the follower's reason in one sentence (issue 20, M6); one glibc reads as naming no
 *   nameserver (NUL bytes) adds that no name would resolve, in the banner and the Keep dialog (walk 7 H1);
 *   that long sentence is in the window once, in the banner; the verdict says the outage in one
 *   clause and points to the banner, naming the restore as the banner's button does (walk 9 M3, L1);
 * - a NUL-byte file naming a nameserver: the verdict's Keep their file says a start would refuse
 *   it (NOT_RESOLVER_FILE), not save it (walk 8 L5); once kept (stopped), the verdict names
 *   start's refusal and gives start's own fix, never "press Start in Host DNS below" (walk 8 H1, M3);
 * - a root-owned file whose nameserver answers: Keep their file stays the default.
 */
import { expect, test } from '@playwright/test';
import type { AppBackend } from '../../electron/core/backend';
import { createFakeBackend } from '../support/backend-fake';
import { startWebServer, type WebServer } from '../../electron/web/server';
import { checkHealth } from '../../electron/core/health/check-health';
import { driftRoute } from '../../shared/drift-route';
import { notResolverGuiFix, notResolverFileRefusal, resolverOwnerRefusal, startRefusesResolverFile } from '../../shared/network-writer';
import type { HostDnsStatus, NetworkChangeView, QueryResult } from '../../shared/types';
import { RENDERER_DIR } from './serve-fake';
import { setCliName } from '../../shared/fix';

const servers: WebServer[] = [];
test.afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** A running fake whose /etc/resolv.conf another program replaced with `theirs` (stamp `stamp`); getaddrinfo answers `lookup` for it. */
async function serveDrift(theirs: string, opts: { dead: boolean; ownerRefusal: string | null; fileRefusal?: string | null; startRefusal?: string | null; stopMessage?: string; resolves?: boolean; extra?: Partial<HostDnsStatus> }): Promise<WebServer> {
  const fake = createFakeBackend({ stepDelayMs: 30, logIntervalMs: 500, running: true, ...(opts.stopMessage ? { stopMessage: opts.stopMessage } : {}) });
  const patched: AppBackend = {
    ...fake,
    dnsStatus: async (i) => {
      const s = await fake.dnsStatus(i);
      if (s.state !== 'running') return s;
      return { ...s, resolverOwner: 'foreign', resolverStamp: 'theirs-1', driftRoute: driftRoute(theirs, s.listeners.map((l) => l.address)), ...(opts.ownerRefusal ? { driftOwnerRefusal: opts.ownerRefusal } : {}), ...(opts.fileRefusal ? { driftFileRefusal: opts.fileRefusal } : {}), ...(opts.startRefusal ? { startRefusal: opts.startRefusal } : {}), messages: ['/etc/resolv.conf was changed by someone else while K2s ran; Resolver diff shows how.'], ...(opts.extra ?? {}) };
    },
    healthCheck: () =>
      checkHealth({
        status: () => patched.dnsStatus({}),
        resolvConfText: async () => theirs,
        // As measured: getaddrinfo returns EAI_AGAIN in a few ms when the route to the nameserver is gone.
        // `resolves`: their file still reaches the proxy (no nameserver line: glibc asks 127.0.0.1), which answers.
        lookup: async (name): Promise<QueryResult> => (opts.resolves ? { name, type: 'A', server: 'system', transport: 'getaddrinfo', rcode: 'NOERROR', answers: [{ name, type: 'A', ttl: 30, data: '172.21.0.1' }], latencyMs: 2 } : opts.dead ? { name, type: 'A', server: 'system', transport: 'getaddrinfo', rcode: 'TIMEOUT', answers: [], latencyMs: 3, error: 'getaddrinfo EAI_AGAIN' } : { name, type: 'A', server: 'system', transport: 'getaddrinfo', rcode: 'NXDOMAIN', answers: [], latencyMs: 4 }),
        // Their nameservers asked straight (check-health's theirNameservers): a dead one gives no reply, as getaddrinfo's EAI_AGAIN above.
        query: (q) => (opts.dead && driftRoute(theirs, []).nameservers.some((n) => q.server === `${n}:53`) ? Promise.resolve<QueryResult>({ name: q.name, type: q.type, server: q.server, transport: 'udp', rcode: 'TIMEOUT', answers: [], latencyMs: 1500, error: 'no reply' }) : fake.queryRun({ name: q.name, type: q.type, target: q.server, transport: 'udp' })),
        now: Date.now,
      }),
  };
  const server = await startWebServer({ backend: patched, staticDir: RENDERER_DIR });
  servers.push(server);
  return server;
}

test('their only nameserver does not answer: the banner warns and Restore my original is the default', async ({ page }) => {
  const server = await serveDrift('# written by hand\nnameserver 198.51.100.77\n', { dead: true, ownerRefusal: null });
  await page.goto(server.url);
  const banner = page.getByTestId('drift-banner');
  await expect(banner).toHaveAttribute('data-route', 'bypass');
  const warning = page.getByTestId('drift-keep-warning');
  await expect(warning).toHaveAttribute('data-risk', 'dead', { timeout: 15_000 });
  await expect(warning).toHaveText('Keeping their file leaves /etc/resolv.conf pointing at 198.51.100.77:53, where nothing would answer then (198.51.100.77 did not answer): no name would resolve on this host.');
  await expect(page.getByTestId('drift-restore')).toHaveText('Restore my original… (default)');
  await expect(page.getByTestId('drift-keep')).toHaveText('Keep their file…');
  // The default comes first in the row.
  await expect(banner.locator('.row button').first()).toHaveAttribute('data-testid', 'drift-restore');
  await expect(page.getByTestId('drift-lead')).not.toContainText('usually knows the current network better');
});

test('a file the follower refused (owned by nobody): not the default, and the banner says why', async ({ page }) => {
  const reason = resolverOwnerRefusal({ uid: 65534, gid: 65534, mode: 0o644 })!;
  const server = await serveDrift('nameserver 192.0.2.53\n', { dead: false, ownerRefusal: reason });
  await page.goto(server.url);
  const warning = page.getByTestId('drift-keep-warning');
  await expect(warning).toHaveAttribute('data-risk', 'refused', { timeout: 15_000 });
  await expect(warning).toContainText('K2s DNS did not follow their file: it is owned by uid 65534, a user account');
  await expect(warning).toContainText("Keeping it lets whoever can write it choose this host's DNS.");
  await expect(page.getByTestId('drift-restore')).toHaveText('Restore my original… (default)');
});

test('walk 7 M1: a 0666 file naming a dead nameserver — the verdict\'s "Keep their file" only stops, as the button, and says why no Start follows', async ({ page }) => {
  const reason = resolverOwnerRefusal({ uid: 0, gid: 0, mode: 0o666 })!;
  const server = await serveDrift('nameserver 192.0.2.99\n', { dead: true, ownerRefusal: reason });
  await page.goto(server.url);
  await expect(page.getByTestId('drift-keep-warning')).toHaveAttribute('data-risk', 'dead', { timeout: 15_000 });
  const verdict = page.getByTestId('verdict-text');
  await expect(verdict).toContainText('Choose "Restore my original" (the default) in the banner at the top, then Start; "Keep their file" only stops (no start after it: K2s DNS refused to follow their file, and Start would save it as your original)');
  await expect(verdict).not.toContainText('or "Keep their file" in the banner at the top, then Start');
});

test('a file the follower refused as not a resolver file: Restore my original is the default, with the follower\'s reason', async ({ page }) => {
  const theirs = '# Generated by NetworkManager\nnameserver 192.0.2.53\nthis is a log line\n';
  const server = await serveDrift(theirs, { dead: false, ownerRefusal: null, fileRefusal: notResolverFileRefusal(Buffer.from(theirs)) });
  await page.goto(server.url);
  const banner = page.getByTestId('drift-banner');
  await expect(banner).toHaveAttribute('data-route', 'bypass');
  const warning = page.getByTestId('drift-keep-warning');
  await expect(warning).toHaveAttribute('data-risk', 'not-resolver', { timeout: 15_000 });
  await expect(warning).toHaveText('K2s DNS did not follow their file because it is not a resolver file (line "this is a log line" is no resolv.conf(5) directive); keeping it leaves that file as this host\'s resolver.');
  await expect(page.getByTestId('drift-restore')).toHaveText('Restore my original… (default)');
  await expect(page.getByTestId('drift-keep')).toHaveText('Keep their file…');
  await expect(banner.locator('.row button').first()).toHaveAttribute('data-testid', 'drift-restore');
  await expect(page.getByTestId('drift-lead')).not.toContainText('usually knows the current network better');
});

// Walk 7 H1: garbage glibc reads as naming no nameserver (NUL bytes): the banner adds the
// no-nameserver warning to the follower's reason; the Keep dialog says what Keep does (walk 9 M3).
test('a NUL-byte file with no nameserver line: banner and Keep dialog both say no name would resolve', async ({ page }) => {
  const theirs = 'this is not\0 a resolver {{{ garbage\n';
  const server = await serveDrift(theirs, { dead: false, ownerRefusal: null, fileRefusal: notResolverFileRefusal(Buffer.from(theirs)) });
  await page.goto(server.url);
  // The lead says both choices stop K2s DNS; the warning then says only what Keep leaves (walk 11 L5).
  const words = "K2s DNS did not follow their file because it is not text (it holds NUL bytes); keeping it leaves that file as this host's resolver. Keeping their file leaves /etc/resolv.conf pointing at 127.0.0.1:53, where nothing answers then: no name would resolve on this host.";
  const warning = page.getByTestId('drift-keep-warning');
  await expect(warning).toHaveAttribute('data-risk', 'not-resolver', { timeout: 15_000 });
  await expect(warning).toHaveText(words);
  await expect(page.getByTestId('drift-lead')).toContainText('Both choices below stop K2s DNS.');
  expect((await page.getByTestId('drift-lead').innerText()).match(/stops? K2s DNS/g)).toEqual(['stop K2s DNS']);
  await expect(page.getByTestId('drift-restore')).toHaveText('Restore my original… (default)');
  await page.getByTestId('drift-keep').click();
  // The dialog confirms the action: its consequence only, not the follower's reason again (walk 9 M3).
  await expect(page.getByTestId('confirm-keep-warning')).toHaveText('Keeping their file stops K2s DNS and leaves /etc/resolv.conf pointing at 127.0.0.1:53, where nothing answers then: no name would resolve on this host.');
});

// Walk 9 M3 (issue #20 "one message per fact"): the NUL-byte drift as the walk made it, K2s DNS
// running and host apps still going through it. The long explanation is in the banner only; the
// verdict says the outage in one clause and points to the banner; at 900×700 the banner's buttons
// are on the first screen.
test('walk 9 M3: a NUL-byte drift while running — the long sentence once (the banner), the verdict short', async ({ page }) => {
  await page.setViewportSize({ width: 900, height: 700 });
  const theirs = '\0\0\0garbage\0\n';
  const server = await serveDrift(theirs, { dead: false, resolves: true, ownerRefusal: null, fileRefusal: notResolverFileRefusal(Buffer.from(theirs)) });
  await page.goto(server.url);
  const warning = page.getByTestId('drift-keep-warning');
  await expect(warning).toHaveAttribute('data-risk', 'not-resolver', { timeout: 15_000 });
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-cause', 'drift');
  const verdict = page.getByTestId('verdict-text');
  await expect(verdict).toContainText(' — Nothing is broken now, you can leave K2s DNS running; to end the drift, choose "Restore my original" (the default) in the banner at the top, not "Keep their file": no name would resolve on this host after it (the banner says why)');
  await expect(verdict).not.toContainText('did not follow their file');
  await expect(verdict).not.toContainText('where nothing answers then');
  const text = await page.locator('body').innerText();
  expect(text.split('where nothing answers then')).toHaveLength(2);
  expect(text.split('K2s DNS did not follow their file')).toHaveLength(2);
  // The choice is on the first screen.
  const box = await page.getByTestId('drift-restore').boundingBox();
  expect(box!.y + box!.height).toBeLessThanOrEqual(700);
});

// Walk 9 L1: after a followed file the banner's restore button is named after that file; the verdict names the same button.
test('walk 9 L1: after a followed file, the verdict names the restore as the banner\'s button does', async ({ page }) => {
  const theirs = '\0\0\0garbage\0\n';
  const change: NetworkChangeView = { at: new Date().toISOString(), outcome: 'followed', writer: 'an unknown program', evidence: '', how: '/etc/resolv.conf replaced by a regular file', from: ['192.0.2.53'], to: ['192.0.2.88'] };
  const server = await serveDrift(theirs, { dead: false, resolves: true, ownerRefusal: null, fileRefusal: notResolverFileRefusal(Buffer.from(theirs)), extra: { savedAt: change.at, savedBy: 'k2s-dns', networkChange: change, followedChange: change } });
  await page.goto(server.url);
  await expect(page.getByTestId('drift-keep-warning')).toHaveAttribute('data-risk', 'not-resolver', { timeout: 15_000 });
  const button = page.getByTestId('drift-restore');
  await expect(button).toHaveText(/^Restore the saved file from \d\d:\d\d:\d\d… \(default\)$/);
  const label = (await button.innerText()).replace(/… \(default\)$/, '');
  const verdict = page.getByTestId('verdict-text');
  await expect(verdict).toContainText(`choose "${label}" (the default) in the banner at the top`);
  await expect(verdict).not.toContainText('Restore my original');
});

// Walk 8 M2: the stop result once quoted a NUL file's first line as 64 `\u0000` escapes, one
// unbreakable word: at 1280 px the page became 4059 px wide. Result, timeline and banner text
// wrap anywhere (styles.css), so no word widens the page.
test('an unbreakable word in the stop result wraps: the page never becomes wider than the window', async ({ page }) => {
  const theirs = 'this is not\0 a resolver {{{ garbage\n';
  const word = `"${'\\u0000'.repeat(64)}nameserver 192.0.2.53"`;
  const server = await serveDrift(theirs, { dead: false, ownerRefusal: null, fileRefusal: notResolverFileRefusal(Buffer.from(theirs)), stopMessage: `Kept the /etc/resolv.conf someone else wrote while K2s ran (content changed: lines glibc ignores: 1 added (${word})).` });
  await page.goto(server.url);
  await expect(page.getByTestId('drift-keep-warning')).toHaveAttribute('data-risk', 'not-resolver', { timeout: 15_000 });
  await page.getByTestId('drift-keep').click();
  await page.getByTestId('btn-confirm-keep').click();
  await expect(page.getByTestId('timeline-result')).toContainText(word.slice(0, 40));
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.window);
});

// Walk 8 L5: a NUL-byte file naming another nameserver: the verdict's Keep their file says a start
// would refuse that file (NOT_RESOLVER_FILE), never that it would save it as your original.
test('a NUL-byte file naming a nameserver: the verdict says a start after Keep their file would refuse it', async ({ page }) => {
  const theirs = 'nameserver 192.0.2.99\n\0\0garbage\n';
  const bytes = Buffer.from(theirs);
  const server = await serveDrift(theirs, { dead: false, ownerRefusal: null, fileRefusal: notResolverFileRefusal(bytes), startRefusal: startRefusesResolverFile(bytes) });
  await page.goto(server.url);
  await expect(page.getByTestId('drift-keep-warning')).toHaveAttribute('data-risk', 'not-resolver', { timeout: 15_000 });
  const verdict = page.getByTestId('verdict-text');
  await expect(verdict).toContainText('"Keep their file" only stops (no start after it: K2s DNS refused to follow their file, and Start would refuse it (NOT_RESOLVER_FILE) until /etc/resolv.conf is replaced with a resolver file)');
  await expect(verdict).not.toContainText('save it as your original');
});

// Walk 8 H1, M3: after Keep their file, K2s DNS is stopped on a NUL-byte file start refuses: the
// verdict names start's refusal and its own fix, never "press Start in Host DNS below".
test('stopped on a NUL-byte file start refuses: the verdict gives start\'s own fix, never a Start', async ({ page }) => {
  const theirs = 'nameserver 192.0.2.53\nsearch example.test\n\0\0junk\n';
  const fake = createFakeBackend({ stepDelayMs: 30, logIntervalMs: 500, running: false });
  const patched: AppBackend = {
    ...fake,
    dnsStatus: async (i) => ({ ...(await fake.dnsStatus(i)), startRefusal: startRefusesResolverFile(Buffer.from(theirs)) }),
    healthCheck: () =>
      checkHealth({
        status: () => patched.dnsStatus({}),
        resolvConfText: async () => theirs,
        lookup: async (name): Promise<QueryResult> => ({ name, type: 'A', server: 'system', transport: 'getaddrinfo', rcode: 'NXDOMAIN', answers: [], latencyMs: 4 }),
        query: (q) => fake.queryRun({ name: q.name, type: q.type, target: q.server, transport: 'udp' }),
        now: Date.now,
      }),
  };
  const server = await startWebServer({ backend: patched, staticDir: RENDERER_DIR });
  servers.push(server);
  await page.goto(server.url);
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-cause', 'stopped', { timeout: 15_000 });
  const verdict = page.getByTestId('verdict-text');
  // RichText shows the `nameserver 192.0.2.1` example as code (no backticks in the text).
  await expect(verdict).toHaveText(`Cluster names do not resolve on this host: K2s DNS is stopped, and start would refuse this /etc/resolv.conf (NOT_RESOLVER_FILE): it is not text (it holds NUL bytes), so K2s will not save it as your original — ${notResolverGuiFix().replace(/`/g, '')}`);
  await expect(verdict).not.toContainText('press Start in Host DNS below');
});

// Walk 11 M1: in the sandbox the window's verdict names the command through its wrapper that writes
// a resolver file there, although the renderer knows no wrapper (the verdict carries the words).
test('in the sandbox, stopped on a NUL-byte file: the verdict names the wrapper command that writes its network\'s nameserver', async ({ page }) => {
  const theirs = 'nameserver 192.0.2.53\nsearch example.test\n\0\0junk\n';
  const fake = createFakeBackend({ stepDelayMs: 30, logIntervalMs: 500, running: false });
  const patched: AppBackend = {
    ...fake,
    dnsStatus: async (i) => ({ ...(await fake.dnsStatus(i)), startRefusal: startRefusesResolverFile(Buffer.from(theirs)) }),
    healthCheck: async () => {
      // Where the check runs: the sandbox's runtime (e2e/sandbox-app.ts), set for this check only.
      setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true, '192.0.2.53');
      try {
        return await checkHealth({
          status: () => patched.dnsStatus({}),
          resolvConfText: async () => theirs,
          lookup: async (name): Promise<QueryResult> => ({ name, type: 'A', server: 'system', transport: 'getaddrinfo', rcode: 'NXDOMAIN', answers: [], latencyMs: 4 }),
          query: (q) => fake.queryRun({ name: q.name, type: q.type, target: q.server, transport: 'udp' }),
          now: Date.now,
        });
      } finally {
        setCliName('npx k2s-dns');
      }
    },
  };
  const server = await startWebServer({ backend: patched, staticDir: RENDERER_DIR });
  servers.push(server);
  await page.goto(server.url);
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-cause', 'stopped', { timeout: 15_000 });
  const verdict = page.getByTestId('verdict-text');
  await expect(verdict).toContainText("Replace /etc/resolv.conf with a resolver file that names your nameserver — in the sandbox, /tmp/k2sdns-app-Ab12/k2s-dns sh -c 'rm -f /etc/resolv.conf && echo nameserver 192.0.2.53 > /etc/resolv.conf' writes one naming its network's nameserver, 192.0.2.53 — then press Check again.");
  await expect(verdict).not.toContainText('192.0.2.1');
});

test("root's file whose nameserver answers: Keep their file stays the default", async ({ page }) => {
  const server = await serveDrift('# Generated by NetworkManager\nnameserver 192.0.2.53\n', { dead: false, ownerRefusal: null });
  await page.goto(server.url);
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-cause', 'drift', { timeout: 15_000 });
  await expect(page.getByTestId('drift-keep')).toHaveText('Keep their file… (default)');
  await expect(page.getByTestId('drift-keep-warning')).toHaveCount(0);
  await expect(page.getByTestId('drift-lead')).toContainText('usually knows the current network better');
});
