/**
 * New user: the Queries view mixed the rows of the K2s DNS run before the last stop with the last
 * run's, nothing saying which run a row was of. With the REAL backend on the bed (e2e/bed/sandbox.sh:
 * /var/log is the sandbox's own): an exact query log of two runs and the start-checks.json their
 * starts wrote (electron/core/capture/start-checks.ts); the list shows the line
 * `— K2s DNS started … —` above the first row shown and above the second run's first row. The first
 * start failed and was rolled back (its window `rolledBack`): its line says so (tidy30: it said started).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { K2S_PATHS } from '../../shared/k2s-paths';
import { START_CHECKS_FILE } from '../../electron/core/capture/start-checks';
import { runBoundaryLine } from '../../shared/query-log/run-boundary';
import { useBedApp } from '../support/bed-app';

const app = useBedApp();

/** The first run began 10 minutes ago, the second 5 minutes ago (ms). */
const FIRST = Date.now() - 600_000;
const SECOND = Date.now() - 300_000;

function row(n: number, ms: number): string {
  return JSON.stringify({ proto: 'udp', client: `127.0.0.1:${40000 + n}`, listener: '127.0.0.1:53', id: n, name: `r${n}.runs.example`, type: 'A', queryUs: ms * 1000, rcode: 'NOERROR', answers: ['198.51.100.8'], latencyMs: 0.4, upstream: '192.0.2.53:53', upstreamRcode: 'NOERROR', upstreamLatencyMs: 0.3, retries: 0 });
}

test.beforeAll(async () => {
  const file = K2S_PATHS.queryRows;
  await mkdir(path.dirname(file), { recursive: true });
  // A rotated part an earlier spec left on the bed (logs-exact-history: 10,500 rows) would be read too.
  await rm(`${file}.1`, { force: true });
  await writeFile(file, [row(1, FIRST + 1000), row(2, FIRST + 2000), row(3, SECOND + 1000), row(4, SECOND + 2000)].map((l) => `${l}\n`).join(''));
  const window = (began: number) => ({ names: ['kubernetes.default.svc.cluster.local'], fromMs: began + 200, toMs: began + 210, startedMs: began });
  await writeFile(START_CHECKS_FILE, `${JSON.stringify({ ...window(SECOND), earlier: [{ ...window(FIRST), rolledBack: true }] })}\n`);
});

test("Queries: a line names each run's start above its first row", async () => {
  const page = app.page;
  await page.goto(app.server.url);
  await page.getByTestId('tab-logs').click();
  const panel = page.getByTestId('panel-logs');
  await expect(panel.getByTestId('logs-exact')).toHaveAttribute('data-available', 'true');
  await expect(panel.getByTestId('logs-query-count')).toHaveText('4 queries');
  const runs = panel.getByTestId('query-run');
  await expect(runs).toHaveText([runBoundaryLine(FIRST, true), runBoundaryLine(SECOND)]);
  await expect(runs.nth(0)).toHaveText(/^— K2s DNS start \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d failed and was rolled back —$/);
  await expect(runs.nth(1)).toHaveText(/^— K2s DNS started /);
  // Each line sits right above its run's first row, not over another row.
  const rows = panel.getByTestId('query-row');
  const box = async (l: ReturnType<typeof rows.nth>) => (await l.boundingBox())!;
  const [first, second] = [await box(runs.nth(0)), await box(runs.nth(1))];
  const [r1, r2, r3] = [await box(rows.nth(0)), await box(rows.nth(1)), await box(rows.nth(2))];
  expect(Math.round(first.y + first.height)).toBe(Math.round(r1.y));
  expect(Math.round(r2.y + r2.height)).toBeLessThanOrEqual(Math.round(second.y));
  expect(Math.round(second.y + second.height)).toBe(Math.round(r3.y));
  await expect(rows.nth(2).getByTestId('q-name')).toHaveText('r3.runs.example');
});
