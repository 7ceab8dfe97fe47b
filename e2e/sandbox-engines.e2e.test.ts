/**
 * The sandbox's engines and the doctor's dnsproxy finding on the real binaries (first-user
 * reports 2 and 3): `npm run sandbox` installs .tools/bin/dnsproxy at /opt/k2s/bin/dnsproxy
 * inside the sandbox, so Automatic picks AdGuard; and doctor finds a running AdGuard proxy that
 * was started with `--dnsproxy PATH` (never "not installed") and quotes its `--version`.
 */
import { realpathSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorFinding } from '../shared/doctor';
import { engineGates } from '../renderer/src/lib/start-gates';
import { ENGINE_BIN, engineArgs, engineMissing } from './bed/engines';
import { startTestbed, type Testbed } from './bed/testbed';
import { k2sDns } from './cli';
import { installSandboxDnsproxy } from './sandbox-dnsproxy';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: sandbox-engines e2e runs only inside e2e/bed/sandbox.sh (as root)');
const missing = inSandbox ? await engineMissing('dnsproxy') : null;
if (missing) console.warn(`skipped: ${missing}`);

/** `k2s-dns doctor --json` → its dnsproxy-version finding. */
async function dnsproxyFinding(kubeconfig: string): Promise<DoctorFinding> {
  const r = await k2sDns(['doctor', '--kubeconfig', kubeconfig, '--json']);
  return (JSON.parse(r.stdout) as DoctorFinding[]).find((f) => f.id === 'dnsproxy-version')!;
}

describe.skipIf(!inSandbox || missing !== null)('AdGuard dnsproxy in the sandbox and in doctor', () => {
  let tb: Testbed;
  beforeAll(async () => {
    tb = await startTestbed();
  }, 60_000);
  afterAll(async () => {
    await k2sDns(['stop', '--on-drift', 'restore']);
    await rm('/opt/k2s/bin/dnsproxy', { force: true });
    await tb?.stop();
  }, 60_000);

  it('npm run sandbox installs it at /opt/k2s/bin/dnsproxy: doctor ok with "dnsproxy version v0.83.1", the Engine select offers AdGuard', async () => {
    const e = await installSandboxDnsproxy();
    expect(e.engines).toEqual(['adguard', 'dnsmasq']);
    expect(e.note).toBe('AdGuard dnsproxy v0.83.1 from .tools/bin, installed at /opt/k2s/bin/dnsproxy inside the sandbox');
    expect(((await stat('/opt/k2s/bin/dnsproxy')).mode & 0o777).toString(8)).toBe('755');
    const f = await dnsproxyFinding(tb.kubeconfigPath);
    expect(f).toMatchObject({ severity: 'ok', title: 'AdGuard dnsproxy v0.83.1, the version K2s pins', detail: { binary: '/opt/k2s/bin/dnsproxy', output: 'dnsproxy version v0.83.1', running: false } });
    expect(engineGates([f]).adguard.available).toBe(true);
  }, 60_000);

  it('a running AdGuard proxy started with --dnsproxy PATH is found (its /proc/PID/exe), not "not installed"', async () => {
    await rm('/opt/k2s/bin/dnsproxy', { force: true });
    expect((await dnsproxyFinding(tb.kubeconfigPath)).title).toBe('AdGuard dnsproxy not installed; the dnsmasq engine will be used');
    const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs('adguard'), '--verify-name', 'www.example.test']);
    expect(start.code, start.stdout + start.stderr).toBe(0);
    const f = await dnsproxyFinding(tb.kubeconfigPath);
    expect(f).toMatchObject({ severity: 'ok', detail: { binary: realpathSync(ENGINE_BIN.dnsproxy), running: true, version: '0.83.1', output: 'dnsproxy version v0.83.1' } });
    expect(f.meaning).toContain('(the running k2s-dnsproxy) --version prints "dnsproxy version v0.83.1"');
  }, 90_000);
});
