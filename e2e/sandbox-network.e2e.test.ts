/**
 * `npm run sandbox:ctl -- network change|back` (e2e/sandbox-network.ts): a new user had to read
 * docs/host-integration.md to learn that a NetworkManager-style /etc/resolv.conf simulates a
 * network change. Pasted as the sandbox prints it (`--dir DIR`), `network change` writes the file
 * NetworkManager writes on a new network, whose nameserver (192.0.2.99) answers only.newnet.test;
 * `network back` writes the sandbox network's. Stopped: the host resolver asks the file's
 * nameserver. Running (dnsmasq engine): the follower follows both writes, says NetworkManager, and
 * stop restores the last one byte for byte.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Testbed } from './bed/testbed';
import type { ControlServer } from './sandbox-control';
import type { SandboxNetwork } from './sandbox-network';
import { networkManagerFile, OTHER_NETWORK } from './sandbox-network';
import { getentHosts, k2sDns } from './cli';
import { BED_RESOLV_OPTIONS, LAYOUT_CONTENT } from './bed/resolv-layout';
import { queryDns } from '../electron/core/probes/dns-query';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: sandbox-network e2e runs only inside e2e/bed/sandbox.sh (as root)');

const REPO = fileURLToPath(new URL('..', import.meta.url));
/** The product promises 2 s; the test allows more for a busy 2-core machine. */
const FOLLOW_DEADLINE_MS = 15_000;
// The sandbox network's own file as NetworkManager writes it, options too (timeout:1 attempts:1:
// without them, back left the host resolver at glibc's 5 s × 2 attempts).
const HOME_FILE = LAYOUT_CONTENT.networkManager;
const OTHER_FILE = networkManagerFile(OTHER_NETWORK.nameserver, OTHER_NETWORK.search);

/** `npm run sandbox:ctl -- --dir DIR WORDS` as npm runs it → exit code and stdout. */
function ctl(dir: string, words: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'e2e/sandbox-ctl.ts'), '--dir', dir, ...words.split(' ')], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.once('error', reject);
    child.on('close', (code) => resolve({ code, out: out.trim() }));
  });
}

/** The bytes of /etc/resolv.conf (bounded: it is a small regular file here). */
const resolvText = async () => (await readFile('/etc/resolv.conf')).subarray(0, 65536).toString('utf8');

/** Resolves once the proxy on 127.0.0.1 answers `name` with `answer` (true), or false past the deadline. */
async function proxyAnswers(name: string, answer: string | null): Promise<boolean> {
  const t0 = Date.now();
  while (Date.now() - t0 < FOLLOW_DEADLINE_MS) {
    const r = await queryDns({ name, type: 'A', server: '127.0.0.1', timeoutMs: 1000 });
    if (answer === null ? r.rcode === 'NXDOMAIN' : r.rcode === 'NOERROR' && r.answers.some((a) => a.data === answer)) return true;
    await new Promise((res) => setTimeout(res, 100));
  }
  return false;
}

const status = async () => JSON.parse((await k2sDns(['status', '--json'])).stdout) as { state: string; networkChange?: { outcome: string; writer: string; to: string[] } | null };

describe.skipIf(!inSandbox)('sandbox:ctl -- network change|back', () => {
  let tb: Testbed;
  let network: SandboxNetwork;
  let control: ControlServer;
  let dir: string;

  beforeAll(async () => {
    const { startTestbed } = await import('./bed/testbed');
    const { startControlServer } = await import('./sandbox-control');
    const { createSandboxNetwork } = await import('./sandbox-network');
    tb = await startTestbed();
    network = createSandboxNetwork({ nameserver: tb.addresses.upstream, search: 'example.test', options: BED_RESOLV_OPTIONS });
    dir = await mkdtemp(join(tmpdir(), 'k2sdns-ctl-net-'));
    control = await startControlServer(tb, join(dir, 'control.sock'), network);
  }, 120_000);

  afterAll(async () => {
    await k2sDns(['stop', '--json']).catch(() => undefined);
    await control?.close();
    await network?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
    await tb?.stop();
  });

  it('stopped: change writes the new network\'s NetworkManager file and the host asks its nameserver; back writes the sandbox network\'s', async () => {
    expect(await getentHosts(OTHER_NETWORK.name)).toEqual([]);
    const change = await ctl(dir, 'network change');
    expect(change.code).toBe(0);
    expect(change.out).toMatch(/^ok: the network changed: \/etc\/resolv\.conf now says nameserver 192\.0\.2\.99, search newnet\.test, written by rename with NetworkManager's header/);
    expect(await resolvText()).toBe(OTHER_FILE);
    expect(await getentHosts(OTHER_NETWORK.name)).toEqual([OTHER_NETWORK.answer]);
    // The other network resolves the names outside the cluster the sandbox network does.
    expect(await getentHosts('www.example.test')).toEqual(['198.51.100.7']);
    expect((await ctl(dir, 'status')).out).toMatch(/; network: the other one's file \(after network change\)$/);

    const back = await ctl(dir, 'network back');
    expect(back.code).toBe(0);
    expect(back.out).toMatch(/^ok: back on the sandbox's network: \/etc\/resolv\.conf now says nameserver 192\.0\.2\.53, search example\.test, options timeout:1 attempts:1, written by rename/);
    expect(await resolvText()).toBe(HOME_FILE);
    expect(await getentHosts(OTHER_NETWORK.name)).toEqual([]);
    expect((await ctl(dir, 'status')).out).toMatch(/; network: the sandbox's own$/);
    await tb.setResolvLayout('file');
  }, 120_000);

  it('running (dnsmasq): K2s DNS follows change and back as NetworkManager\'s writes; stop restores the file back wrote', async () => {
    expect((await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json'])).result).toMatchObject({ ok: true });
    expect((await ctl(dir, 'network change')).code).toBe(0);
    expect(await proxyAnswers(OTHER_NETWORK.name, OTHER_NETWORK.answer)).toBe(true);
    expect(await status()).toMatchObject({ networkChange: { outcome: 'followed', writer: 'NetworkManager', to: [OTHER_NETWORK.nameserver] } });
    expect(await getentHosts('kubernetes.default.svc.cluster.local')).toEqual(['172.21.0.1']);

    expect((await ctl(dir, 'network back')).code).toBe(0);
    expect(await proxyAnswers(OTHER_NETWORK.name, null)).toBe(true);
    expect(await status()).toMatchObject({ networkChange: { outcome: 'followed', writer: 'NetworkManager', to: ['192.0.2.53'] } });
    expect((await k2sDns(['stop', '--json'])).result).toMatchObject({ ok: true });
    expect(await resolvText()).toBe(HOME_FILE);
    await tb.setResolvLayout('file');
  }, 180_000);
});
