/**
 * Walk 9 H1, L6, inside the sandbox with a real engine: while K2s DNS runs, another program puts a
 * valid resolver file in place with mode 0666. The follower refuses it and status prints the fix
 * `… chmod o-w /etc/resolv.conf`; run exactly as printed (through the sandbox's `k2s-dns sh -c`
 * wrapper, as `npm run sandbox` prints it), the file becomes 0664 root:root, which the follower's
 * rule accepts. It must then be followed as if it had been written so — status running (exit 0),
 * /etc/resolv.conf K2s's file again, the proxy's config naming the new nameserver, which answers —
 * with a note that says the mode was fixed, and never the 0666 refusal or its chmod again.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestbed, type Testbed } from './bed/testbed';
import { startDnsmasq, type DnsmasqServer } from './bed/dnsmasq-server';
import { ensureLinks, removeLinks, UPSTREAM_LINK, type LinkChanges } from './bed/netns-links';
import { snapshotResolver } from './bed/resolv-layout';
import { engineArgs, engineMissing, PROXY_ENGINES } from './bed/engines';
import { writeCliWrapper } from './sandbox-cli-wrapper';
import { queryDns } from '../electron/core/probes/dns-query';
import { K2S_PATHS, MANAGED_HEADER } from '../shared/k2s-paths';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: follow-mode-fix e2e runs only inside e2e/bed/sandbox.sh (as root)');

const BIN = fileURLToPath(new URL('../bin/k2s-dns.mjs', import.meta.url));
/** The follower reacts within a second; the deadline allows for a busy 2-core machine. */
const DEADLINE_MS = 30_000;
const NEW_NS = '192.0.2.99';
const NEW_NAME = 'only.newnet.test';
const NEW_ANSWER = '203.0.113.99';
const THEIRS = `nameserver ${NEW_NS}\nsearch newnet.test\n`;

/** Runs argv; its exit code and output (bounded to 60 s). */
function run(argv: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(argv[0]!, argv.slice(1), { timeout: 60_000 }, (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }));
  });
}

/** Polls `check` every 200 ms until it returns a value, or null past DEADLINE_MS from `t0`. */
async function until<T>(t0: number, check: () => Promise<T | null>): Promise<T | null> {
  for (;;) {
    const v = await check();
    if (v !== null || Date.now() - t0 > DEADLINE_MS) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!inSandbox)('a refused 0666 resolver file, fixed by the printed chmod, is followed (sandbox)', () => {
  let tb: Testbed;
  let newNet: DnsmasqServer;
  let links: LinkChanges;
  let dir: string;
  let wrapper: string;
  beforeAll(async () => {
    tb = await startTestbed();
    links = await ensureLinks({ [UPSTREAM_LINK]: [`${NEW_NS}/32`] });
    newNet = await startDnsmasq({ listenAddress: NEW_NS, port: 53, records: { localZones: ['#', 'newnet.test'], hosts: [[NEW_NAME, NEW_ANSWER]] } });
    // The sandbox's `k2s-dns` (e2e/sandbox-cli-wrapper.ts): a start through it prints every fix
    // through it, the follower's too (it inherits K2S_DNS_CLI), as `npm run sandbox` does.
    dir = await mkdtemp(join(tmpdir(), 'k2s-modefix-'));
    wrapper = await writeCliWrapper(dir, process.pid, tb.kubeconfigPath, [process.execPath, BIN]);
  }, 60_000);
  afterAll(async () => {
    if (wrapper) await run([wrapper, 'stop', '--on-drift', 'restore', '--json']).catch(() => undefined);
    await newNet?.stop();
    if (links) await removeLinks(links);
    await tb?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  for (const engine of PROXY_ENGINES) {
    it(`${engine}: refused at 0666, the printed chmod o-w run as printed, then followed; the note says the mode was fixed`, async (ctx) => {
      const missing = engine === 'adguard' ? await engineMissing('dnsproxy') : null;
      if (missing) return ctx.skip(`skipped: ${missing}`);
      // A retry (vitest's) starts from the bed's layout, not from the try before.
      await run([wrapper, 'stop', '--on-drift', 'restore']);
      await tb.setResolvLayout('file');
      expect((await run([wrapper, 'start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs(engine), '--verify-name', 'www.example.test'])).code).toBe(0);

      // Another program puts a valid file in place, world-writable (install -m 666 …; mv …).
      await writeFile('/etc/resolv.conf.new', THEIRS);
      await chmod('/etc/resolv.conf.new', 0o666);
      await rename('/etc/resolv.conf.new', '/etc/resolv.conf');
      const t0 = Date.now();
      // The follower's note (its record of the look), not status's own health line, which names
      // the same rule as soon as the file is there, maybe before the follower has looked.
      const NOTE = /not followed: the new file is writable by every user \(mode 0666\); K2s follows no file a user could write\./;
      // The fix is the health line's first choice, said once (walk 11 M3): not again in the note.
      const FIX = / — to keep K2s DNS running: (.+ sh -c 'chmod o-w \/etc\/resolv\.conf') \(the network follower then follows their file within seconds\); or stop: /;
      const refused = await until(t0, async () => {
        const s = await run([wrapper, 'status']);
        return NOTE.test(s.stdout) ? s : null;
      });
      expect(refused, 'the follower refused the 0666 file within the deadline').not.toBeNull();
      expect(refused!.code).toBe(1);
      const fix = refused!.stdout.match(FIX);
      expect(refused!.stdout.split('chmod o-w').length - 1).toBe(1);
      expect(fix![1]).toBe(`${wrapper} sh -c 'chmod o-w /etc/resolv.conf'`);

      // The fix, pasted into a shell as printed.
      const t1 = Date.now();
      expect(await run(['/bin/sh', '-c', fix![1]!])).toMatchObject({ code: 0, stderr: '' });
      const followed = await until(t1, async () => {
        const s = await run([wrapper, 'status']);
        return s.code === 0 ? s : null;
      });
      console.log(`${engine}: followed ${Date.now() - t1} ms after the chmod`);
      expect(followed, 'status exit 0 (running) within the deadline after the chmod').not.toBeNull();
      const json = JSON.parse((await run([wrapper, 'status', '--json'])).stdout) as { state: string; upstreams: string[]; networkChange?: { outcome: string; to: string[]; fixed?: { problem: string; fix: string } } };
      expect(json).toMatchObject({ state: 'running', upstreams: [NEW_NS], networkChange: { outcome: 'followed', to: [NEW_NS], fixed: { problem: 'writable by every user (mode 0666)', fix: 'mode fixed to 0664' } } });
      expect((await readFile('/etc/resolv.conf', 'utf8')).split('\n')[0]).toBe(MANAGED_HEADER);
      const config = await readFile(engine === 'dnsmasq' ? K2S_PATHS.dnsmasqConfig : K2S_PATHS.proxyConfig, 'utf8');
      expect(config).toContain(NEW_NS);
      const answer = await until(Date.now(), async () => {
        const r = await queryDns({ name: NEW_NAME, type: 'A', server: '127.0.0.1', timeoutMs: 1000 });
        return r.rcode === 'NOERROR' && r.answers.some((a) => a.data === NEW_ANSWER) ? r : null;
      });
      expect(answer, 'the proxy answers through the new nameserver').not.toBeNull();
      // The note says what happened: refused, mode fixed, followed; no chmod fix any more.
      expect(followed!.stdout).toMatch(/not followed then \(it was writable by every user \(mode 0666\)\); mode fixed to 0664 at \d\d:\d\d:\d\d( UTC)?, followed: upstreams [\d.]+(, [\d.]+)* → 192\.0\.2\.99/);
      expect(followed!.stdout).not.toContain('chmod o-w');

      // Stop restores their file, as fixed, byte for byte.
      expect((await run([wrapper, 'stop'])).code).toBe(0);
      const after = await snapshotResolver();
      expect(after.bytes?.toString('utf8')).toBe(THEIRS);
      expect((await stat('/etc/resolv.conf')).mode & 0o7777).toBe(0o664);
      await tb.setResolvLayout('file');
    }, 180_000);
  }
});
