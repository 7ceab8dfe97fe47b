/**
 * Playwright UI tests in Debian's Chromium (no browser download: docs/toolchain.md "Browser"). Specs start the
 * web bridge in-process on 127.0.0.1, so no external server is needed. Build the renderer first
 * (`npx vite build`).
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e/ui',
  testMatch: '**/*.spec.ts',
  outputDir: '.tmp/playwright',
  // One worker: specs share nothing, but screenshots are compared by people, not raced.
  workers: 1,
  // On CI one retry: a test that passes only on its retry is reported as flaky by name in the
  // summary line (scripts/summarize-tests.mjs), never counted as a plain pass; one that fails
  // twice fails the run.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    viewport: { width: 1280, height: 860 },
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
