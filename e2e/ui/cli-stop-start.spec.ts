/**
 * Walk 8 M1 on the REAL backend and the e2e test bed (inside e2e/bed/sandbox.sh), the window left
 * open: the CLI fixes the app prints, `k2s-dns stop && k2s-dns start --engine …` (RUNNING_OTHER_OPTIONS)
 * and `k2s-dns stop --on-drift keep && k2s-dns start …` (the drift default), run as one shell
 * chain. The window showed the previous start for 25 s and more, or "STOP — FAILED … stop did not
 * finish: K2s DNS is running", when both ended between two of its 1 s status reads.
 *
 * The race is made to happen every time: the window's status reads (POST /api/dns:status) are held
 * while the chain runs, so its next answer is the status after both operations. In the second test
 * the read before that is answered while the stop runs (its journal in the answer, a real answer
 * of the server taken at that moment), so the window follows the stop and sees it gone only with
 * the new start. Expected (docs/verdict.md "Started outside this window"): the new start, done, with the new
 * proxy PID in the card and no failed stop at any time. The time the window took after its read was
 * let through is printed; the deadline is sized for a busy machine.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page, type Route } from '@playwright/test';
import { useBedApp } from '../support/bed-app';
import type { HostDnsStatus } from '../../shared/types';

const app = useBedApp({ goto: true });
const BIN = fileURLToPath(new URL('../../bin/k2s-dns.mjs', import.meta.url));

/** Runs `k2s-dns A && k2s-dns B` through sh, as a user pastes the printed fix; resolves to its exit status and output. */
function chain(first: string[], second: string[]): Promise<{ code: number; out: string }> {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const cli = (args: string[]) => [process.execPath, BIN, ...args].map(q).join(' ');
  return new Promise((resolve) => {
    execFile('sh', ['-c', `${cli(first)} && ${cli(second)}`], { timeout: 90_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout + stderr });
    });
  });
}

/** The window's status reads, held while `holding` (the window sends one at a time, so at most one waits). */
class StatusGate {
  holding = false;
  readonly held: Route[] = [];
  /** Reads the window sent so far. */
  reads = 0;
  async install(page: Page): Promise<void> {
    await page.route((url) => url.pathname === '/api/dns:status', async (route) => {
      this.reads++;
      if (this.holding) this.held.push(route);
      else await route.continue();
    });
  }
  /** Holds the next read; resolves once the window sent it (every earlier read was answered). */
  async hold(): Promise<void> {
    this.holding = true;
    await expect.poll(() => this.held.length, { timeout: 15_000 }).toBeGreaterThan(0);
  }
  /** The oldest held read, taken off the gate. */
  take(): Route {
    return this.held.shift()!;
  }
  /** Lets every held and later read through. */
  async release(): Promise<void> {
    this.holding = false;
    for (const r of this.held.splice(0)) await r.continue();
  }
}

/** Records every text the timeline heading shows from now on (a failed stop shown for one render counts). */
async function recordHeadings(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __headings: string[] };
    w.__headings = [];
    const note = () => {
      const h = document.querySelector('[data-testid=timeline-heading]')?.textContent ?? null;
      if (h !== null && w.__headings.at(-1) !== h) w.__headings.push(h);
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
    note();
  });
}

const headings = (page: Page) => page.evaluate(() => (window as unknown as { __headings: string[] }).__headings);

/** Waits (up to 20 s: a busy machine) for the new start, done, with `pid` in the card; returns ms after `from`. */
async function newStartShown(page: Page, pid: number, from: number): Promise<number> {
  const card = page.getByTestId('panel-hostdns');
  await expect(card.getByTestId('timeline-heading')).toHaveText('start — done', { timeout: 20_000 });
  const at = Date.now() - from;
  await expect(card.getByTestId('timeline-result')).toHaveText('Started outside this window (e.g. from the CLI): K2s DNS is running.');
  await expect(card.getByTestId('dns-pid')).toHaveText(`· k2s-dnsproxy PID ${pid}`);
  return at;
}

test.describe('stop && start from the CLI while the window is open (walk 8 M1)', () => {
  const gate = new StatusGate();
  let engines: { from: 'dnsmasq' | 'adguard'; to: 'dnsmasq' | 'adguard' };

  test.beforeAll(async () => {
    const { engineMissing } = await import('../bed/engines');
    const noDnsproxy = await engineMissing('dnsproxy');
    // RUNNING_OTHER_OPTIONS' own case switches engine; without dnsproxy on the bed, dnsmasq to dnsmasq.
    engines = noDnsproxy === null ? { from: 'dnsmasq', to: 'adguard' } : { from: 'dnsmasq', to: 'dnsmasq' };
    await gate.install(app.page);
  });

  const startArgs = async (engine: 'dnsmasq' | 'adguard') => {
    const { engineArgs } = await import('../bed/engines');
    return ['start', '--kubeconfig', app.tb.kubeconfigPath, ...engineArgs(engine), '--verify-name', 'www.example.test'];
  };

  test('started from the window; both ended before the window\'s next read: the new start, done, with its PID; never a failed stop', async () => {
    test.setTimeout(120_000);
    const page = app.page;
    const card = page.getByTestId('panel-hostdns');
    await page.getByTestId('tab-overview').click();
    await expect(card.getByTestId('dns-state')).toHaveText('stopped', { timeout: 15_000 });
    // Started from the window, as in the walk: its own timeline names the proxy it started.
    await card.getByTestId('engine-select').selectOption(engines.from);
    await card.getByTestId('btn-start').click();
    await expect(card.getByTestId('step-ready')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
    const before = (await app.backend.dnsStatus({})) as HostDnsStatus;
    await expect(card.getByTestId('dns-pid')).toHaveText(`· k2s-dnsproxy PID ${before.pid}`);
    await expect(card.getByTestId('timeline')).toContainText(`PID ${before.pid}`);
    await recordHeadings(page);

    await gate.hold();
    const c = await chain(['stop'], await startArgs(engines.to));
    expect(c.code, c.out).toBe(0);
    const after = (await app.backend.dnsStatus({})) as HostDnsStatus;
    expect(after.pid).not.toBeNull();
    expect(after.pid).not.toBe(before.pid);
    const released = Date.now();
    await gate.release();
    console.log(`${engines.from} → ${engines.to}: the window showed the new start ${await newStartShown(page, after.pid!, released)} ms after its read was let through`);
    await expect(card.getByTestId('timeline')).not.toContainText(`PID ${before.pid})`);
    // Still so three reads later (it stayed on the previous start for 25 s+ before).
    const reads = gate.reads;
    await expect.poll(() => gate.reads, { timeout: 20_000 }).toBeGreaterThanOrEqual(reads + 3);
    await expect(card.getByTestId('timeline-heading')).toHaveText('start — done');
    await expect(card.getByTestId('timeline-result')).toHaveText('Started outside this window (e.g. from the CLI): K2s DNS is running.');
    expect(await headings(page)).not.toContain('stop — failed');
  });

  test('the window followed the stop, then both ended before its next read: the stop is done, then the new start; never a failed stop', async () => {
    test.setTimeout(180_000);
    const page = app.page;
    const card = page.getByTestId('panel-hostdns');
    // The status a read answered while the stop ran (its journal in it), taken from the server at that moment.
    let sawStop = false;
    for (let attempt = 1; attempt <= 3 && !sawStop; attempt++) {
      const before = (await app.backend.dnsStatus({})) as HostDnsStatus;
      expect(before.state).toBe('running');
      await recordHeadings(page);
      await gate.hold();
      const read = gate.take();
      const target = engines.to === 'adguard' ? 'dnsmasq' : engines.to;
      const running = chain(['stop', '--on-drift', 'keep'], await startArgs(target));
      let done = false;
      void running.then(() => (done = true));
      // The window's held read goes to the server again and again until an answer holds the stop's journal.
      let answer: Awaited<ReturnType<Route['fetch']>> | null = null;
      while (!done) {
        const res = await read.fetch();
        const body = (await res.json()) as { ok: boolean; data?: HostDnsStatus };
        if (body.data?.operation?.op === 'stop') {
          answer = res;
          break;
        }
      }
      if (answer) {
        sawStop = true;
        await read.fulfill({ response: answer });
        // The window shows the stop it follows; its next read is held until the chain ended.
        await expect(card.getByTestId('timeline-heading')).toHaveText(/^stop — /, { timeout: 20_000 });
        await expect.poll(() => gate.held.length, { timeout: 15_000 }).toBeGreaterThan(0);
      } else {
        await read.continue();
      }
      const c = await running;
      expect(c.code, c.out).toBe(0);
      const after = (await app.backend.dnsStatus({})) as HostDnsStatus;
      expect(after.pid).not.toBe(before.pid);
      const released = Date.now();
      await gate.release();
      console.log(`attempt ${attempt}: ${sawStop ? 'the window followed the stop; ' : 'the stop ended before a read saw its journal; '}the new start shown ${await newStartShown(page, after.pid!, released)} ms after the read was let through`);
      expect(await headings(page)).not.toContain('stop — failed');
      expect(await headings(page)).toContain('start — done');
    }
    expect(sawStop, 'no status read answered while the stop ran in 3 attempts').toBe(true);
  });
});
