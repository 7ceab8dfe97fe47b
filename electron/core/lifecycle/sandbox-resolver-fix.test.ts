/**
 * Walk 11 M1: with no resolver file (deleted, or one holding NUL bytes) every text that asks for
 * one — status's verdict, the window's verdict, doctor, start's NO_UPSTREAM / NOT_RESOLVER_FILE and
 * stop's RESOLVER_DOWN notes — said in prose "write it yourself as root with a line such as
 * `nameserver 192.0.2.1`" or "add "nameserver <your router or company DNS>"", while every other fix
 * in the sandbox is a line through its wrapper: a user in a host root shell edited the host's file.
 * Now one function words it (shared/fix.ts resolverFileWays): in the sandbox, a whole command
 * through the wrapper naming its network's nameserver; on a host, the prose with `sudo`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns } from './stop';
import { followNetwork } from './follow';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';
import { healthProbes } from '../health/probes';
import { statusWithHealth } from '../health/status-with-health';
import { runDoctor } from '../doctor/run-doctor';
import { setCliName } from '../../../shared/fix';
import { checkNetworkCli, fixText, verdictFix, verdictLine } from '../../../shared/health';

const newHost = trackedHosts();
const quiet = () => undefined;
const WRAPPER = '/tmp/k2sdns-app-Ab12/k2s-dns';
/** What the sandbox's texts name: its wrapper writing its network's nameserver, a line that works as pasted. */
const WRITE = `\`${WRAPPER} sh -c 'rm -f /etc/resolv.conf && echo nameserver 192.0.2.53 > /etc/resolv.conf'\``;
const WAYS = `in the sandbox, ${WRITE} writes one naming its network's nameserver, 192.0.2.53`;
/** The words of old: prose, acted on the host's own file when followed in a host root shell. */
const OLD = /your router or company DNS>|write a line such as|192\.0\.2\.1\b/;
const NUL_WITH_NS = Buffer.from('nameserver 192.0.2.53\nsearch example.test\n\0\0junk\n');

/** The sandbox's runtime (e2e/sandbox-app.ts: $K2S_DNS_CLI and $K2S_DNS_SANDBOX_NAMESERVER). */
const inSandbox = () => setCliName(WRAPPER, false, true, '192.0.2.53');
afterEach(() => setCliName('npx k2s-dns'));

async function writeResolver(root: string, text: Buffer | string) {
  await writeFile(join(root, 'etc/resolv.conf.tmp'), text, { mode: 0o644 });
  await rename(join(root, 'etc/resolv.conf.tmp'), join(root, 'etc/resolv.conf'));
}

describe('in the sandbox: a whole command through its wrapper wherever a resolver file is asked for', () => {
  it('stopped with a NUL-byte file: status\'s verdict, the window\'s verdict (its renderer knows no wrapper), doctor and start\'s NOT_RESOLVER_FILE', async () => {
    inSandbox();
    const h = await newHost();
    await writeResolver(h.root, NUL_WITH_NS);
    h.world.systemAnswer = null;
    const cli = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(cli.health!.verdict.action).toBe('replace-resolver');
    expect(verdictLine(cli.health!.verdict, 'cli')).toContain(`Replace /etc/resolv.conf with a resolver file that names your nameserver — ${WAYS} — then start again;`);
    const gui = await statusWithHealth(healthProbes(h.deps), 'gui');
    // The renderer's fix.ts is the default one: the verdict carries the words of where it ran.
    setCliName('npx k2s-dns');
    expect(verdictFix(gui.health!.verdict, 'gui')).toBe(`Replace /etc/resolv.conf with a resolver file that names your nameserver — ${WAYS} — then press Check again. Start options → Upstreams does not help here: the file itself would be saved and put back at stop.`);
    inSandbox();
    const findings = await runDoctor(h.deps, { kubeconfigPath: null });
    const loop = findings.find((f) => f.id === 'nameserver-loop')!;
    expect(loop.fix).toContain(WRITE);
    expect(loop.remedy?.gui).toContain(WRITE);
    const r = await startDns(h.deps, TEST_START_OPTS, quiet);
    expect(r).toMatchObject({ ok: false, code: 'NOT_RESOLVER_FILE' });
    expect(r.message).toContain(WAYS);
    for (const text of [verdictLine(cli.health!.verdict, 'cli'), loop.fix ?? '', r.message]) expect(text).not.toMatch(OLD);
  });

  it('stopped with no file: the verdict, doctor and start\'s NO_UPSTREAM', async () => {
    inSandbox();
    const h = await newHost();
    await rm(join(h.root, 'etc/resolv.conf'));
    h.world.systemAnswer = null;
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(s.health!.verdict.action).toBe('fix-resolver');
    expect(verdictFix(s.health!.verdict, 'cli')).toBe(`put a nameserver that answers into /etc/resolv.conf (${WAYS}); then ${WRAPPER} start`);
    const gui = await statusWithHealth(healthProbes(h.deps), 'gui');
    setCliName('npx k2s-dns');
    expect(verdictFix(gui.health!.verdict, 'gui')).toBe(`Put a nameserver that answers into /etc/resolv.conf (${WAYS}); then Start`);
    inSandbox();
    // Doctor's one fix for it is the health finding's (the loop finding points there: walk 11 L5).
    const doctor = await runDoctor(h.deps, { kubeconfigPath: null });
    expect(doctor.find((f) => f.id === 'health')!.fix).toBe(`put a nameserver that answers into /etc/resolv.conf (${WAYS}); then ${WRAPPER} start`);
    expect(doctor.find((f) => f.id === 'nameserver-loop')!.fix).toMatch(/^See the error "No names resolve on this host: .*" above: its fix is this one's\.$/);
    const r = await startDns(h.deps, TEST_START_OPTS, quiet);
    expect(r).toMatchObject({ ok: false, code: 'NO_UPSTREAM' });
    expect(r.message).toContain(`Put a resolver file there first (${WAYS}), then start again;`);
    // Walk 7 M4: the --upstream start names the sandbox network's nameserver, never `--upstream IP`.
    expect(r.message).toContain(`then start again; \`${WRAPPER} start --upstream 192.0.2.53\` (the sandbox network's nameserver) also starts, but stop then puts back no file`);
    expect(r.message).not.toMatch(OLD);
  });

  it('stop --on-drift keep of a NUL-byte file: the RESOLVER_DOWN note names the command', async () => {
    inSandbox();
    const h = await newHost('nameserver 192.0.2.53\n');
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    await writeResolver(h.root, Buffer.from('nameserver 192.0.2.99\n\0\0'));
    expect(await followNetwork(h.deps)).toMatchObject({ kind: 'drift' });
    const r = await stopDns(h.deps, { onDrift: 'keep' }, quiet);
    expect(r.message).toContain(`refuses to save it as the original: replace it with a resolver file first (${WAYS}).`);
    expect(r.message).not.toMatch(OLD);
  });
});

describe('on a host: the same texts in prose, as root with sudo, never a placeholder line that runs unedited', () => {
  it('start\'s NO_UPSTREAM and the stopped verdict with no file', async () => {
    const h = await newHost();
    await rm(join(h.root, 'etc/resolv.conf'));
    h.world.systemAnswer = null;
    const ways = "reconnect the network so NetworkManager or your DHCP client writes it again, or write it yourself as root (sudo) with a line such as `nameserver 192.0.2.1`, your router's or company DNS's IP address in place of 192.0.2.1";
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(verdictFix(s.health!.verdict, 'cli')).toBe(`put a nameserver that answers into /etc/resolv.conf (${ways}); then sudo npx k2s-dns start`);
    const r = await startDns(h.deps, TEST_START_OPTS, quiet);
    expect(r.message).toContain(`Put a resolver file there first (${ways}), then start again; \`sudo npx k2s-dns start --upstream <IP>\` (replace <IP> with your nameserver's IP address) also starts, but stop then puts back no file`);
    expect(r.message).not.toContain('<your router');
    expect(r.message).not.toContain('--upstream IP');
  });
});

describe("in the sandbox: stop's RESOLVER_DOWN and the upstream-down fix name the sandbox's own commands (a new user's finding)", () => {
  it('a followed file whose nameserver cannot be reached: stop\'s RESOLVER_DOWN names the command that writes the sandbox\'s nameserver, not only "put a nameserver that answers into /etc/resolv.conf"', async () => {
    inSandbox();
    const h = await newHost('nameserver 192.0.2.53\n');
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    const dead = '192.0.2.99';
    await writeResolver(h.root, `nameserver ${dead}\n`);
    expect(await followNetwork(h.deps)).toMatchObject({ kind: expect.any(String) });
    const query = h.deps.query;
    h.deps.query = async (q) => (q.server.startsWith(dead) ? { name: q.name, type: q.type, server: q.server, transport: 'udp', rcode: 'ERROR', answers: [], latencyMs: 0, error: 'connect ENETUNREACH' } : query(q));
    h.world.systemAnswer = null;
    const r = await stopDns(h.deps, { onDrift: 'keep' }, quiet);
    const down = r.warnings?.find((w) => w.code === 'RESOLVER_DOWN');
    expect(down?.message).toContain(`put a nameserver that answers into /etc/resolv.conf (${WAYS}; exit status 5, as ${WRAPPER} status gives now).`);
    expect(down?.message).not.toMatch(OLD);
  });

  it("upstream down (`sandbox:ctl -- upstream down`): status's fix and doctor's name `sandbox:ctl -- upstream up`, not the network connection or VPN; another nameserver keeps the host's words", () => {
    inSandbox();
    const ctl = "start the sandbox network's nameserver (192.0.2.53) again with `npm run sandbox:ctl -- --dir /tmp/k2sdns-app-Ab12 upstream up` in a root shell in the checkout, or check it";
    expect(checkNetworkCli(['192.0.2.53:53'])).toBe(`${ctl} (\`${WRAPPER} query kubernetes.io --server 192.0.2.53\`); an override: \`${WRAPPER} stop\`, then \`${WRAPPER} start --on-network-change keep --upstream <IP>\` (replace <IP> with the IP address of a nameserver that answers)`);
    expect(fixText('check-network', 'gui')).toMatch(/^Start the sandbox network's nameserver \(192\.0\.2\.53\) again with `npm run sandbox:ctl -- --dir \/tmp\/k2sdns-app-Ab12 upstream up` in a root shell in the checkout, or check it: K2s DNS follows/);
    expect(checkNetworkCli(['10.99.0.1:53'])).toMatch(/^check the network connection or VPN \(/);
    setCliName('k2s-dns');
    expect(checkNetworkCli(['192.0.2.53:53'])).toMatch(/^check the network connection or VPN \(/);
  });
});
