/**
 * Where a window's first paint waits (a tool, not part of `npm run bench`): opens the app in web
 * mode on the e2e test bed three times and prints, per page, each request's start → end in ms
 * from navigation (Chromium, as Playwright sees it), the backend's own ms per call, and when the
 * verdict was judged. Usage (after npm run build):
 *   bash e2e/bed/sandbox.sh node --import tsx scripts/bench/ui-trace.ts
 */
import { fileURLToPath } from 'node:url';
import type { Request } from '@playwright/test';
import { startTestbed } from '../../e2e/bed/testbed';
import { createRealBackend } from '../../electron/core/backend-real';
import { createNodeDeps } from '../../electron/core/lifecycle/node-deps';
import { startWebServer } from '../../electron/web/server';
import { launchBrowser } from './ui-launch';
import { JUDGED } from './idle';

const tb = await startTestbed();
const backend = createRealBackend({ deps: await createNodeDeps(), warmUp: true, kubeconfig: tb.kubeconfigPath, verifyName: 'www.example.test' });
// Every request/response call timed (not the two subscriptions, which return their unsubscribe).
for (const k of Object.keys(backend).filter((k) => k !== 'onLifecycleEvent' && k !== 'followLogs')) {
  const b = backend as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const call = b[k]!;
  b[k] = async (...a) => {
    const t = performance.now();
    try {
      return await call(...a);
    } finally {
      process.stdout.write(`  backend ${k} ${(performance.now() - t).toFixed(0)} ms\n`);
    }
  };
}
const server = await startWebServer({ backend, staticDir: fileURLToPath(new URL('../../out/renderer', import.meta.url)) });
const { browser } = await launchBrowser(1);
try {
  for (let round = 0; round < 3; round++) {
    const page = await browser.newPage();
    const t0 = performance.now();
    const lines: string[] = [];
    const sentAt = new Map<Request, number>();
    page.on('request', (r) => sentAt.set(r, performance.now() - t0));
    page.on('requestfinished', (r) => {
      lines.push(`${sentAt.get(r)!.toFixed(0).padStart(5)} → ${(performance.now() - t0).toFixed(0).padStart(5)}  ${r.method()} ${r.url().replace(server.url, '/').slice(0, 60)}`);
    });
    await page.goto(server.url);
    await page.locator(JUDGED).waitFor({ timeout: 30_000 });
    const judged = performance.now() - t0;
    await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined);
    process.stdout.write(`round ${round}: verdict judged at ${judged.toFixed(0)} ms\n${lines.sort().join('\n')}\n`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
  await tb.stop();
}
