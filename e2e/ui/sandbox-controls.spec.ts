/**
 * The sandbox's outage controls (README "Try it in the sandbox"): `npm run sandbox:ctl --
 * coredns down|up` and `api down|up` (e2e/sandbox-ctl.ts, run here as the separate process a
 * user runs) change what the open window and `k2s-dns status` say — CoreDNS down, the API
 * unreachable — and both recover by themselves when the control undoes it. REAL backend on the
 * e2e bed, with the control channel the sandbox's inner side serves (inside e2e/bed/sandbox.sh).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { AppBackend } from '../../electron/core/backend';
import type { WebServer } from '../../electron/web/server';
import type { HostDnsStatus } from '../../shared/types';
import type { Testbed } from '../bed/testbed';
import { k2sDns } from '../cli';
import type { ControlServer } from '../sandbox-control';
import { closeOnBed, serveOnBed } from '../support/bed-app';
import { setCliName } from '../../shared/fix';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';

let tb: Testbed;
let backend: AppBackend;
let server: WebServer;
let page: Page;
let control: ControlServer;
let dir: string;

test.describe.configure({ mode: 'serial' });
test.skip(!inSandbox, 'skipped: needs the e2e sandbox (root); run npm test as root');
test.setTimeout(180_000);

/** Runs a node script of the repo as its own process → exit code and output. */
function run(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** `npm run sandbox:ctl -- --dir DIR …words` (the script npm runs, without npm's banner). */
async function ctl(words: string): Promise<string> {
  const r = await run(['--import', 'tsx', 'e2e/sandbox-ctl.ts', '--dir', dir, ...words.split(' ')]);
  expect(r.code, r.out).toBe(0);
  return r.out.trim();
}

/** `k2s-dns status --json` as a separate process. */
async function cliStatus(): Promise<HostDnsStatus> {
  const r = await run(['bin/k2s-dns.mjs', 'status', '--json']);
  return JSON.parse(r.out) as HostDnsStatus;
}

test.beforeAll(async ({ browser }) => {
  const { startTestbed } = await import('../bed/testbed');
  const { startControlServer } = await import('../sandbox-control');
  tb = await startTestbed();
  ({ backend, server } = await serveOnBed(tb));
  dir = await mkdtemp(join(tmpdir(), 'k2sdns-ctl-test-'));
  control = await startControlServer(tb, join(dir, 'control.sock'));
  page = await browser.newPage();
  await page.goto(server.url);
});

test.afterAll(async () => {
  await control?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  await closeOnBed({ backend, page, server, tb });
});

test('coredns down → the verdict and status say CoreDNS does not answer; coredns up → green again, by itself', async () => {
  const card = page.getByTestId('panel-hostdns');
  await expect(card.getByTestId('dns-state')).toHaveText('stopped', { timeout: 15_000 });
  const { engineArgs } = await import('../bed/engines');
  const r = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs('dnsmasq'), '--verify-name', 'www.example.test']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-cause', 'ok', { timeout: 20_000 });
  try {
    expect(await ctl('coredns down')).toMatch(/^ok: CoreDNS \(kube-dns 172\.21\.0\.10:53\) stopped|^ok: the CoreDNS stand-in \(dnsmasq\) \(kube-dns 172\.21\.0\.10:53\) stopped/);
    expect(tb.coreDnsPid()).toBeNull();
    // No click: the window's own health check (every 5 s while K2s DNS runs) sees it.
    await expect(page.getByTestId('verdict')).toHaveAttribute('data-cause', 'coredns-down', { timeout: 20_000 });
    await expect(page.getByTestId('verdict-text')).toContainText('CoreDNS (kube-dns 172.21.0.10:53) does not answer');
    const down = await cliStatus();
    expect(down.health!.verdict.cause).toBe('coredns-down');
    // CoreDNS's network namespace stays: its kernel answers ICMP port unreachable, which the probe's
    // connected socket reports at once (walk 6 L3); past the kernel's ICMP rate limit, a timeout.
    expect(['unreachable', 'timeout']).toContain(down.health!.hops.find((h) => h.kind === 'kube-dns')!.outcome);
    expect(await ctl('status')).toMatch(/\(kube-dns 172\.21\.0\.10:53\) down; Kubernetes API http:\/\/127\.0\.0\.1:\d+ up; the upstream \(dnsmasq, the sandbox network's nameserver 192\.0\.2\.53:53\) up \(PID \d+\)$/);
  } finally {
    expect(await ctl('coredns up')).toMatch(/answers again \(PID \d+\)/);
  }
  expect(tb.coreDnsPid()).not.toBeNull();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-cause', 'ok', { timeout: 20_000 });
  expect((await cliStatus()).health!.verdict.cause).toBe('ok');
  const stop = await k2sDns(['stop']);
  expect(stop.code, stop.stdout + stop.stderr).toBe(0);
});

test('api down → the Cluster card says Unreachable within 5 s; api up → Reachable, by itself', async () => {
  const state = page.getByTestId('panel-cluster').getByTestId('cluster-state');
  await expect(state).toHaveText('Reachable', { timeout: 15_000 });
  try {
    expect(await ctl('api down')).toMatch(/^ok: the Kubernetes API http:\/\/127\.0\.0\.1:\d+ refuses connections/);
    await expect(state).toHaveText('Unreachable', { timeout: 5_000 });
    // Every view read again while the API is down: the state is shown, no request fails in the
    // browser (walk 6 L9: one "Failed to load resource: … 504 (Gateway Timeout)" in the console).
    const failed: string[] = [];
    const onResponse = (r: { status(): number; url(): string }) => void (r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
    page.on('response', onResponse);
    try {
      await page.getByTestId('tab-zones').click();
      await page.getByTestId('refresh-all').click();
      await expect(page.getByTestId('panel-zones').getByRole('alert').first()).toBeVisible({ timeout: 15_000 });
      await page.getByTestId('tab-overview').click();
      await expect(state).toHaveText('Unreachable');
      expect(failed).toEqual([]);
    } finally {
      page.off('response', onResponse);
    }
    // `status` says which: the walk saw the same line with the API up and down.
    expect(await ctl('status')).toMatch(/; Kubernetes API http:\/\/127\.0\.0\.1:\d+ down \(refuses connections\); the upstream \(dnsmasq, the sandbox network's nameserver 192\.0\.2\.53:53\) up \(PID \d+\)$/);
    // The window's Diagnostics as the sandbox has it (its wrapper and nameserver set, as
    // e2e/sandbox-app.ts does): the fix the backend builds names the control that exists there,
    // never K2s's `k2s start` (walk 12 H1).
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true, '192.0.2.53');
    try {
      await page.getByTestId('tab-diagnostics').click();
      await page.getByTestId('diagnostics-run').click();
      await expect(page.getByTestId('finding-cluster-fix')).toHaveText("Fix: Start the sandbox's test API (npm run sandbox:ctl -- --dir /tmp/k2sdns-app-Ab12 api up in a root shell in the checkout) or check the kubeconfig's server address.", { timeout: 30_000 });
      await page.getByTestId('tab-overview').click();
    } finally {
      setCliName('npx k2s-dns');
    }
    const cluster = await backend.clusterStatus({});
    expect(cluster.state).toBe('unreachable');
  } finally {
    expect(await ctl('api up')).toMatch(/answers again/);
  }
  expect(await ctl('status')).toMatch(/; Kubernetes API http:\/\/127\.0\.0\.1:\d+ up; the upstream \(dnsmasq, the sandbox network's nameserver 192\.0\.2\.53:53\) up \(PID \d+\)$/);
  await expect(state).toHaveText('Reachable', { timeout: 5_000 });
});

test('an unknown command is refused with the list, exit status 2', async () => {
  const r = await run(['--import', 'tsx', 'e2e/sandbox-ctl.ts', '--dir', dir, 'coredns', 'sideways']);
  expect(r.code).toBe(2);
  expect(r.out).toContain('unknown command "coredns sideways"');
  expect(r.out).toContain('coredns down');
  expect(r.out).toContain('api up');
});
