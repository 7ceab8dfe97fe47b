/**
 * A new user's finding: with CoreDNS down and no window open, a window opened later painted the
 * last green verdict ("… resolves via k2s-dnsproxy (127.0.0.1:53), checked 22:29:21") as current
 * for ~2.3 s, then turned red. The backend's last check is older than its cadence then, and the
 * new one outlasts the status read's wait: the window must show it as last known (or say it is
 * checking), never as the current verdict. REAL backend on the e2e bed (inside e2e/bed/sandbox.sh).
 */
import { expect, test, type Browser } from '@playwright/test';
import type { AppBackend } from '../../electron/core/backend';
import type { WebServer } from '../../electron/web/server';
import { CADENCE_MS } from '../../shared/cadence';
import type { Testbed } from '../bed/testbed';
import { k2sDns } from '../cli';
import { closeOnBed, serveOnBed } from '../support/bed-app';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';

let tb: Testbed;
let backend: AppBackend;
let server: WebServer;

test.skip(!inSandbox, 'skipped: needs the e2e sandbox (root); run npm test as root');
test.setTimeout(180_000);

test.beforeAll(async () => {
  const { startTestbed } = await import('../bed/testbed');
  tb = await startTestbed();
  ({ backend, server } = await serveOnBed(tb));
});

/** CoreDNS's PID while the test holds it stopped (SIGSTOP), for afterAll to continue it. */
let stopped: number | null = null;

test.afterAll(async () => {
  if (stopped !== null) process.kill(stopped, 'SIGCONT');
  await closeOnBed({ backend, server, tb });
});

/** Opens the app in a new page that records every (data-level, data-cause) its verdict line shows, from its first paint. */
async function recordingPage(browser: Browser) {
  const page = await browser.newPage();
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { verdictsSeen: string[] }).verdictsSeen = seen;
    const note = () => {
      const v = document.querySelector('[data-testid="verdict"]');
      if (!v) return;
      const text = v.querySelector('[data-testid="verdict-text"]')?.textContent ?? '';
      const entry = `${v.getAttribute('data-level')}|${v.getAttribute('data-cause')}|${text}`;
      if (seen[seen.length - 1] !== entry) seen.push(entry);
    };
    new MutationObserver(note).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  await page.goto(server.url);
  return page;
}

test('a window opened during a CoreDNS outage, its last check older than the cadence: never the old green as current', async ({ browser }) => {
  const { engineArgs } = await import('../bed/engines');
  const r = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs('dnsmasq'), '--verify-name', 'www.example.test']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  // No window before (its Diagnostics would run a check of its own at any time).
  // The last report the backend holds is a green one younger than the cadence (so no check is
  // running: a stale one starts one); no window asks while CoreDNS goes down.
  let green = (await backend.dnsStatus({})).health!;
  await expect.poll(async () => {
    green = (await backend.dnsStatus({})).health!;
    return `${green.verdict.level} ${green.rechecking === true ? 'rechecking' : 'current'}`;
  }, { timeout: 30_000 }).toBe('ok current');
  // CoreDNS stops answering without refusing (SIGSTOP: no reply, as the user's check took 2.3 s):
  // the new check then outlasts the status read's wait (a refused port is judged within it).
  const coredns = tb.coreDnsPid()!;
  process.kill(coredns, 'SIGSTOP');
  stopped = coredns;
  // The scenario itself: that report ages past the check cadence with no window open.
  await expect.poll(() => Date.now() - green.checkedAt, { timeout: 30_000, intervals: [500] }).toBeGreaterThan(CADENCE_MS.healthActive + 1000);

  const page = await recordingPage(browser);
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toHaveAttribute('data-cause', 'coredns-down', { timeout: 60_000 });
  const seen = await page.evaluate(() => (window as unknown as { verdictsSeen: string[] }).verdictsSeen);
  console.log(`verdicts seen in the new window: ${JSON.stringify(seen)}`);
  // Before the judged verdict: "Checking…" or "Last known at … ; checking again…" only.
  expect(seen.filter((s) => s.startsWith('ok|'))).toEqual([]);
  for (const s of seen.slice(0, seen.findIndex((x) => !x.startsWith('unknown|')))) expect(s).toMatch(/^unknown\|(checking|last-known)\|(Checking whether cluster names resolve|Last known at \d\d:\d\d:\d\d \(\d+ s ago\): .*; checking again…$)/);
  // The old green was shown as last known, with its time, until the judged verdict.
  expect(seen.some((x) => x.startsWith('unknown|last-known|Last known at ') && x.includes('kubernetes.default.svc.cluster.local resolves via k2s-dnsproxy (127.0.0.1:53); checking again…'))).toBe(true);
  await page.close();
  process.kill(coredns, 'SIGCONT');
  stopped = null;
});
