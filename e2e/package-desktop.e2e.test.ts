/**
 * The installed package as a desktop user meets it, on a booted Debian 13 host
 * (e2e/bed/debian-host.ts: its own systemd, dbus, polkitd): `apt-get install ./k2s-dns_*.deb`,
 * then
 * - the password path: a user in group sudo (polkit's admin identities on Debian,
 *   /usr/share/polkit-1/rules.d/50-default.rules) whom a rule asks for AUTH_ADMIN; `pkttyagent
 *   --process <the app's PID>` on a pseudo-terminal (util-linux script(1)) answers with her
 *   password, so Start, Stop and Uninstall run; the same agent interrupted (Ctrl-C) and a rule's
 *   NO are both AUTH_NOT_AUTHORIZED (a text agent never dismisses; AUTH_DISMISSED, exit 126, comes
 *   only from a graphical agent's Cancel) — each exit 3 with the resolver byte-identical and no unit;
 * - Debian's Chromium (Playwright's library, on this machine: the host shares the sandbox's
 *   network namespace, so its 127.0.0.1 is ours) driving the packaged page served by
 *   `k2s-dns ui`: Start (polkit answered by a rule) → timeline → verdict green → getent in the
 *   host → Stop (byte-identical) → Uninstall, for both engines.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultEvent } from '../shared/lifecycle-events';
import { buildPackages } from '../scripts/package/main';
import { createDebianHost, debianHostMissing, HOST_SRC, REPO_ROOT, type DebianHost } from './bed/debian-host';
import { hostGetent, hostResolver, PLAIN_NSSWITCH, PLAIN_RESOLV_CONF } from './bed/debian-host-cli';
import { addUser, helperRule, startAppAs, type HostApp, type HostUser } from './bed/desktop-user';
import { engineMissing } from './bed/engines';
import { startTestbed, type Testbed } from './bed/testbed';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
const built = existsSync(join(REPO_ROOT, 'dist/k2s-dns.mjs')) && existsSync(join(REPO_ROOT, 'out/renderer/index.html'));
const hasChromium = existsSync('/usr/bin/chromium');
const hostWhy = !inSandbox ? 'the Debian host boots only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)' : !built ? 'not built: run npm run build first' : await debianHostMissing();
if (hostWhy) console.warn(`skipped: the installed package as a desktop user (${hostWhy})`);
if (!hostWhy && !hasChromium) console.warn('skipped: Chromium driving the packaged UI (no /usr/bin/chromium: scripts/setup.sh installs it)');
const adguard = hostWhy ? false : (await engineMissing('dnsproxy')) === null;
if (!hostWhy && !adguard) console.warn('skipped: the packaged UI with AdGuard dnsproxy (not built: scripts/build-engines.sh)');

const OLD = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const OUT = join(REPO_ROOT, '.tmp', 'packages-desktop');
const RELEASED = join(REPO_ROOT, 'out', 'packages', `k2s-dns_${OLD}_amd64.deb`);

/** `npm run package`'s .deb when it holds this build (npm test makes it just before), else one built here (~15 s). */
async function theDeb(): Promise<string> {
  if (existsSync(RELEASED) && statSync(RELEASED).mtimeMs >= statSync(join(REPO_ROOT, 'dist/k2s-dns.mjs')).mtimeMs) return RELEASED;
  mkdirSync(OUT, { recursive: true });
  return (await buildPackages({ version: OLD, out: OUT, skipBuild: true })).deb;
}

const inHost = (p: string) => `${HOST_SRC}/${p.slice(REPO_ROOT.length).replace(/^\/+/, '')}`;
/** Allowed by a rule (the bed's stand-in for a desktop agent): the Chromium user. */
const ADA: HostUser = { name: 'ada', uid: 1000, home: '/home/ada' };
/** In group sudo with a password; a rule asks AUTH_ADMIN for her: pkttyagent answers. */
const DORA: HostUser = { name: 'dora', uid: 1003, home: '/home/dora' };
const DORA_PASSWORD = 'k2s-e2e-Dora-7';
/** A rule says NO for him. */
const EVE: HostUser = { name: 'eve', uid: 1004, home: '/home/eve' };
const CLUSTER_NAME = 'kubernetes.default.svc.cluster.local';
const UNIT = '/etc/systemd/system/k2s-dnsproxy.service';

/** One lifecycle call through the app's web API; the result event. */
async function lifecycle(app: HostApp, call: 'dns:start' | 'dns:stop' | 'dns:uninstall', input: object = {}): Promise<ResultEvent> {
  const env = await app.call<ResultEvent>(call, input);
  if (!env.ok) throw new Error(`${call}: ${env.error.code} ${env.error.message}`);
  return env.data;
}

/** The installed CLI (/usr/bin/k2s-dns) as `user` (setpriv: uid, gid, groups; no PAM session). */
const asUser = (h: DebianHost, user: HostUser, args: string[]) =>
  h.run(['setpriv', `--reuid=${user.uid}`, `--regid=${user.uid}`, '--init-groups', 'env', `HOME=${user.home}`, `USER=${user.name}`, '/usr/bin/k2s-dns', ...args], { timeoutMs: 60_000 });

/** Whether the K2s unit file exists in the host. */
const unitExists = async (h: DebianHost) => (await h.run(['test', '-e', UNIT])).code === 0;

/**
 * pkttyagent(1) as `user`, registered for the app's process, on a pseudo-terminal of its own
 * (script(1): the text agent reads the password from its controlling terminal, /dev/tty).
 * `output()` is what the terminal showed so far; `type()` types into it.
 */
interface TtyAgent {
  output(): string;
  type(text: string): void;
  /** Resolves once the terminal shows `text` at least `count` times (bounded). */
  waitFor(text: string, count?: number, timeoutMs?: number): Promise<void>;
  stop(): void;
}

async function startTtyAgent(h: DebianHost, user: HostUser, appPid: number): Promise<TtyAgent> {
  const since = (await h.run(['date', '+%Y-%m-%d %H:%M:%S'])).stdout.trim();
  // setpriv: the user's uid, gid and groups (sudo among them), no PAM session; script -q: no
  // banner, -f: flush each write, -e: its exit code is pkttyagent's, /dev/null: no typescript.
  const child: ChildProcess = h.spawnIn(['setpriv', `--reuid=${user.uid}`, `--regid=${user.uid}`, '--init-groups', 'env', `HOME=${user.home}`, `USER=${user.name}`, 'script', '-qfec', `pkttyagent --process ${appPid}`, '/dev/null']);
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const agent: TtyAgent = {
    output: () => out,
    type: (text) => void child.stdin!.write(text),
    async waitFor(text, count = 1, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (out.split(text).length - 1 < count) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`pkttyagent's terminal did not show ${JSON.stringify(text)} ×${count} (exit ${child.exitCode}):\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop: () => void (child.exitCode === null && child.kill('SIGTERM')),
  };
  // Registered: polkitd logs "Registered Authentication Agent for unix-process:<pid>:…" (polkitbackendinteractiveauthority.c).
  const deadline = Date.now() + 30_000;
  for (;;) {
    const log = (await h.run(['journalctl', '-u', 'polkit.service', '--since', since, '--output', 'cat', '--no-pager'])).stdout;
    if (log.includes(`Registered Authentication Agent for unix-process:${appPid}:`)) return agent;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`pkttyagent did not register within 30 s (exit ${child.exitCode}):\n${out}\npolkitd:\n${log.slice(-1500)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(hostWhy !== null)('the installed .deb as a desktop user on a booted Debian 13 host', () => {
  let tb: Testbed;
  let h: DebianHost;
  let original: string;

  beforeAll(async () => {
    const deb = await theDeb();
    tb = await startTestbed();
    h = await createDebianHost({
      files: { '/etc/resolv.conf': PLAIN_RESOLV_CONF, '/etc/nsswitch.conf': PLAIN_NSSWITCH, '/etc/polkit-1/rules.d/50-k2s-dns-e2e.rules': helperRule(ADA.name, [DORA.name], [EVE.name]) },
    });
    await h.boot();
    await h.waitRunning();
    const kubeconfig = await readFile(tb.kubeconfigPath, 'utf8');
    for (const u of [ADA, DORA, EVE]) await addUser(h, u, kubeconfig);
    const pw = await h.run(['sh', '-c', `usermod -aG sudo ${DORA.name} && chpasswd`], { input: `${DORA.name}:${DORA_PASSWORD}\n` });
    expect(pw.code, pw.stderr).toBe(0);
    const inst = await h.run(['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', '-y', '-o', 'Acquire::Retries=0', 'install', '--no-install-recommends', inHost(deb)], { timeoutMs: 120_000 });
    expect(inst.code, inst.stdout + inst.stderr).toBe(0);
    original = await hostResolver(h);
  }, 300_000);
  afterAll(async () => {
    await h?.destroy();
    await tb?.stop();
  }, 120_000);

  it('pkttyagent answers polkit with the password (Start, Stop, Uninstall); Ctrl-C at its prompt and a rule\'s NO: AUTH_NOT_AUTHORIZED — each refusal exit 3, nothing changed', async () => {
    const app = await startAppAs(h, DORA, 18440);
    let agent: TtyAgent | undefined;
    try {
      agent = await startTtyAgent(h, DORA, await app.mainPid());
      const t0 = Date.now();
      const starting = lifecycle(app, 'dns:start', { engine: 'dnsmasq' });
      // pkttyagent's text listener (polkitagenttextlistener.c): the action's message, then the PAM prompt.
      await agent.waitFor('Password: ');
      expect(agent.output()).toContain('AUTHENTICATING FOR io.k2s.dns.helper');
      agent.type(`${DORA_PASSWORD}\n`);
      const start = await starting;
      console.log(`package-desktop: Start through pkexec, answered by pkttyagent with a password, in ${Date.now() - t0} ms`);
      expect(start, `${JSON.stringify(start)}\n${agent.output()}`).toMatchObject({ ok: true, exitCode: 0 });
      expect(agent.output()).toContain('AUTHENTICATION COMPLETE');
      expect(await hostGetent(h, CLUSTER_NAME)).toEqual(['172.21.0.1']);

      // auth_admin (not _keep) from the rule: Stop asks again, and the same agent answers.
      const stopping = lifecycle(app, 'dns:stop');
      await agent.waitFor('Password: ', 2);
      agent.type(`${DORA_PASSWORD}\n`);
      expect(await stopping, agent.output()).toMatchObject({ ok: true, exitCode: 0 });
      expect(await hostResolver(h)).toBe(original);
      const uninstalling = lifecycle(app, 'dns:uninstall');
      await agent.waitFor('Password: ', 3);
      agent.type(`${DORA_PASSWORD}\n`);
      expect(await uninstalling, agent.output()).toMatchObject({ ok: true, exitCode: 0 });
      expect(await unitExists(h)).toBe(false);

      // Interrupted: Ctrl-C on the agent's terminal at the prompt. polkit's text agent cannot
      // dismiss (polkitagenttextlistener.c: it reports a finished session, never Cancelled), so
      // pkexec says "Not authorized" (exit 127), and the app says so with what to do.
      const interrupted = lifecycle(app, 'dns:start', { engine: 'dnsmasq' });
      await agent.waitFor('Password: ', 4);
      agent.type('\x03');
      const cut = await interrupted;
      expect(cut, agent.output()).toMatchObject({ ok: false, exitCode: 3, code: 'AUTH_NOT_AUTHORIZED' });
      expect(cut.message).toContain('a text agent such as pkttyagent interrupted');
      expect(await hostResolver(h)).toBe(original);
      expect(await unitExists(h)).toBe(false);
    } finally {
      agent?.stop();
      await app.stop();
    }

    // A rule says NO: polkit refuses without asking anyone.
    const eve = await startAppAs(h, EVE, 18441);
    try {
      const denied = await lifecycle(eve, 'dns:start', { engine: 'dnsmasq' });
      expect(denied, JSON.stringify(denied)).toMatchObject({ ok: false, exitCode: 3, code: 'AUTH_NOT_AUTHORIZED' });
      expect(await hostResolver(h)).toBe(original);
      expect(await unitExists(h)).toBe(false);
    } finally {
      await eve.stop();
    }
  }, 300_000);

  describe.skipIf(!hasChromium)('Chromium on the packaged page', () => {
    let browser: Browser;
    let page: Page;
    let app: HostApp;
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
      page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
      app = await startAppAs(h, ADA, 18437);
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await app?.stop();
    });

    for (const engine of ['dnsmasq', 'adguard'] as const) {
      it.skipIf(engine === 'adguard' && !adguard)(`${engine}: Start (polkit rule) → timeline → verdict green → getent → Stop byte-identical → Uninstall`, async () => {
        await page.goto(app.url);
        const panel = page.getByTestId('panel-hostdns');
        await panel.getByTestId('dns-state').filter({ hasText: 'stopped' }).waitFor({ timeout: 30_000 });
        await panel.getByTestId('engine-select').selectOption(engine);
        await panel.getByTestId('btn-start').click();
        await panel.locator('[data-testid=step-ready][data-status=done]').waitFor({ timeout: 90_000 });
        expect(await panel.getByTestId('timeline-result').innerText()).toContain('K2s DNS is running');
        await page.locator('[data-testid=verdict][data-level=ok]').waitFor({ timeout: 60_000 });
        expect(await page.getByTestId('verdict-text').innerText()).toContain('resolves via');
        expect(await hostGetent(h, CLUSTER_NAME)).toEqual(['172.21.0.1']);
        expect(await hostGetent(h, 'www.example.test')).toEqual(['198.51.100.7']);

        // What ada (not root, not in group adm) is told about what she cannot read, and the
        // commands in it as this install runs them (/usr/bin/k2s-dns, no npx).
        expect(await panel.getByTestId('dns-saved').innerText()).toBe(`cannot be read: /var/lib/k2s/dns-resolver-state.json is readable by root only (its directory /var/lib/k2s is 0700) and this app runs as uid ${ADA.uid}`);
        // AdGuard dnsproxy's 0644 config names its listeners and upstreams (marked so); dnsmasq's listeners are on its command lines only.
        if (engine === 'adguard') {
          expect(await panel.getByTestId('dns-listeners').innerText()).toMatch(/^127\.0\.0\.1:53(, \S+:53)* — read from the proxy's config \/etc\/k2s\/dnsproxy\.yaml \(the saved state is root-only\)$/);
          expect(await panel.getByTestId('dns-upstreams').innerText()).toMatch(/ — read from the proxy's config \/etc\/k2s\/dnsproxy\.yaml \(the saved state is root-only\)$/);
        } else {
          expect(await panel.getByTestId('dns-listeners').innerText()).toBe('not known to this app (the saved state is root-only)');
          expect(await panel.getByTestId('dns-upstreams').innerText()).toMatch(/ — read from the proxy's config \/etc\/k2s\/dnsmasq\.conf \(the saved state is root-only\)$/);
        }
        // The engine, from the running proxy's own argv (new-user walk: the card named none for ada).
        expect(await panel.getByTestId('dns-engine').getAttribute('data-engine')).toBe(engine);
        await page.getByTestId('tab-logs').click();
        await page.getByTestId('logs-error').waitFor({ timeout: 30_000 });
        // One line: the proxy log alone, or with the exact query log when the capture wrote one (both root:adm 0640); never "Shown: the engine's own query log." beside it.
        expect(await page.getByTestId('logs-error').innerText()).toMatch(/Cannot read the (exact query log \/var\/log\/dnsproxy\/\S+ nor the )?proxy log \/var\/log\/dnsproxy\/dnsproxy\.log: permission denied \((it is|both are) readable by root and the group adm only\)\. Add your user to adm \(sudo usermod -aG adm \$USER, then/);
        expect(await page.getByTestId('panel-logs').innerText()).not.toContain('Shown:');
        // The Resolver diff tab as ada (new user: the diff read before Start stayed, "last known",
        // saying k2s-dnsproxy is not running, beside the root-only error): the current K2s-owned
        // file, the saved original said to be root's, no error.
        await page.getByTestId('tab-diff').click();
        const diffPanel = page.getByTestId('panel-diff');
        await expect.poll(() => diffPanel.getByTestId('diff-saved').innerText(), { timeout: 30_000 }).toContain('The saved original resolver is in /var/lib/k2s/dns-resolver-state.json, which only root can read (its directory /var/lib/k2s is 0700)');
        expect(await diffPanel.getByTestId('diff-current').innerText()).toBe('regular file, mode 0644, uid 0');
        expect(await diffPanel.getByTestId('diff-current-text').innerText()).toMatch(/^nameserver 127\.0\.0\.1$/m);
        expect(await diffPanel.getByRole('alert').count()).toBe(0);
        expect(await diffPanel.innerText()).not.toContain('not running');
        await page.getByTestId('tab-overview').click();
        const diff = await asUser(h, ADA, ['diff']);
        expect(diff.code, diff.stdout + diff.stderr).toBe(1);
        // A documented state, said without "k2s-dns diff failed:".
        expect(diff.stderr).toMatch(/^The saved original resolver is in \/var\/lib\/k2s\/dns-resolver-state\.json, which only root can read \(its directory \/var\/lib\/k2s is 0700\)/);
        expect(diff.stderr).toContain("; run as root: `sudo k2s-dns diff`, or `su -c 'k2s-dns diff'` where sudo is not installed.");
        const status = await asUser(h, ADA, ['status']);
        expect(status.stdout + status.stderr).toContain("they are shown as root: `sudo k2s-dns status`, or `su -c 'k2s-dns status'` where sudo is not installed.");
        expect(status.stdout + status.stderr).not.toContain('npx');

        await panel.getByTestId('btn-stop').click();
        await panel.getByTestId('dns-state').filter({ hasText: 'stopped' }).waitFor({ timeout: 90_000 });
        expect(await hostResolver(h)).toBe(original);
        expect(await hostGetent(h, CLUSTER_NAME)).toEqual([]);
        // After Stop, one clear message (new-user walk: "Nothing to stop … no resolver is saved"
        // beside "cannot see whether it still holds a saved state"): Stop's reason says what is
        // known, the Saved original row what cannot be seen, and no note repeats it.
        await expect.poll(() => panel.getByTestId('disabled-reasons').innerText(), { timeout: 30_000 }).toContain('Nothing to stop: K2s DNS is not running and does not own /etc/resolv.conf.');
        expect(await panel.getByTestId('dns-saved').innerText()).toBe(`cannot be read: /var/lib/k2s is readable by root only (0700), so whether it holds a saved state cannot be seen as uid ${ADA.uid}; K2s DNS is not running and does not own /etc/resolv.conf, so most likely nothing is saved (Stop removes it)`);
        const card = await panel.innerText();
        expect(card).not.toContain('no resolver is saved');
        expect(card.split('saved state').length - 1).toBe(1);
        // After Stop the 0700 directory holds no state: ada is not told of a root-only copy.
        const after = await asUser(h, ADA, ['diff']);
        expect(after.code, after.stdout + after.stderr).toBe(0);
        expect(after.stdout).toContain(`Nothing saved as far as uid ${ADA.uid} can tell: k2s-dnsproxy is not running`);

        await panel.getByTestId('btn-uninstall').click();
        await page.getByTestId('btn-confirm-uninstall').click();
        await expect.poll(() => unitExists(h), { timeout: 90_000 }).toBe(false);
        expect(await hostResolver(h)).toBe(original);
      }, 300_000);
    }
  });
});
