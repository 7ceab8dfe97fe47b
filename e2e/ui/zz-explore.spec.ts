import { test } from '@playwright/test';
import type { AppBackend } from '../../electron/core/backend';
import { createFakeBackend } from '../support/backend-fake';
import { startWebServer } from '../../electron/web/server';
import { healthVerdict } from '../../shared/health';
import { RENDERER_DIR } from './serve-fake';

test('explore drift', async ({ page }) => {
  const fake = createFakeBackend({ stepDelayMs: 50, logIntervalMs: 500, running: true });
  const patched: AppBackend = {
    ...fake,
    dnsStatus: async (i) => {
      const s = await fake.dnsStatus(i);
      return s.state === 'running' ? { ...s, resolverOwner: 'foreign', messages: ['/etc/resolv.conf was changed by someone else while K2s ran (NetworkManager or a DHCP client?); Resolver diff shows how.'] } : s;
    },
    healthCheck: async (i) => {
      const r = await fake.healthCheck(i);
      const hops = r.hops.map((h) => (h.kind === 'resolver' ? { ...h, outcome: 'foreign' as const, ok: false, answers: ['192.168.178.1'], reason: '/etc/resolv.conf was rewritten by another program' } : h));
      return { ...r, hops, verdict: healthVerdict({ hops, state: 'running', interrupted: false }) };
    },
  };
  const server = await startWebServer({ backend: patched, staticDir: RENDERER_DIR });
  await page.goto(server.url);
  await page.waitForTimeout(4000);
  console.log(await page.locator('body').innerText());
  await server.close();
});
