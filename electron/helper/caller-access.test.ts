import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { callerUid, unreadableKubeconfigMessage, userCanRead } from './caller-access';

const isRoot = process.geteuid?.() === 0;
const hasSetpriv = spawnSync('setpriv', ['--version']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'k2s-caller-'));
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const HELPER = fileURLToPath(new URL('../../bin/k2s-dns-helper.mjs', import.meta.url));

describe('helper caller access', () => {
  it('takes the caller uid from PKEXEC_UID or SUDO_UID; root itself or junk is no caller', () => {
    expect(callerUid({ PKEXEC_UID: '1000' })).toBe(1000);
    expect(callerUid({ SUDO_UID: '1001' })).toBe(1001);
    expect(callerUid({ PKEXEC_UID: '0' })).toBeNull();
    expect(() => callerUid({ SUDO_UID: '10; rm' })).toThrow(/not a uid/);
    expect(callerUid({})).toBeNull();
  });

  // Regression: on main the root helper answered "is N bytes", "is not valid YAML
  // (line N)" or "does not exist" for root-only files a caller named.
  it.skipIf(!isRoot || !hasSetpriv)('as root: a root-only file and a missing one give the caller the same answer (skipped without root/setpriv)', () => {
    const secret = join(dir, 'root-only.yaml');
    writeFileSync(secret, 'x: [\n'.repeat(100), { mode: 0o600 });
    const open = join(dir, 'readable.yaml');
    writeFileSync(open, 'apiVersion: v1\n', { mode: 0o644 });
    expect(userCanRead(secret, 65534)).toBe(false);
    expect(userCanRead(join(dir, 'missing.yaml'), 65534)).toBe(false);
    expect(userCanRead(open, 65534)).toBe(true);
    const run = (path: string) => spawnSync(process.execPath, [HELPER, 'start', '--kubeconfig', path], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, PKEXEC_UID: '65534', K2S_DNS_FROM_SOURCE: '1' } });
    const a = run(secret);
    const b = run(join(dir, 'missing.yaml'));
    expect([a.status, b.status]).toEqual([3, 3]);
    expect(JSON.parse(a.stdout.trim().split('\n').at(-1)!)).toMatchObject({ type: 'result', ok: false, exitCode: 3, message: unreadableKubeconfigMessage(secret) });
    expect(JSON.parse(b.stdout.trim().split('\n').at(-1)!).message).toBe(unreadableKubeconfigMessage(join(dir, 'missing.yaml')));
    expect(a.stdout + a.stderr).not.toMatch(/bytes|YAML|line \d/);
  }, 150_000);
});
