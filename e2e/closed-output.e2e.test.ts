/**
 * A reader that goes away mid-operation (`k2s-dns stop --json | head -1`, a closed terminal):
 * the CLI must finish the operation, not die of EPIPE between restore and stop-service
 * (electron/core/closed-output.ts). Real CLI, real engine, inside e2e/bed/sandbox.sh.
 */
import { spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineArgs, engineMissing } from './bed/engines';
import { startTestbed, type Testbed } from './bed/testbed';
import { k2sDns } from './cli';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: closed-output e2e runs only inside e2e/bed/sandbox.sh (as root)');
const BIN = fileURLToPath(new URL('../bin/k2s-dns.mjs', import.meta.url));

/** Runs the CLI with `args`, reads its first stdout line, then closes the pipe (as `| head -1` does); resolves with that line and the exit status. */
function firstLineThenClose(args: string[]): Promise<{ line: string; code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let line: string | null = null;
    let stderr = '';
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (line === null && nl >= 0) {
        line = out.slice(0, nl);
        p.stdout.destroy();
      }
    });
    p.on('exit', (code, signal) => resolve({ line: line ?? '', code, signal, stderr }));
  });
}

describe.skipIf(!inSandbox)('a closed stdout never ends an operation half-done', () => {
  let tb: Testbed;
  beforeAll(async () => {
    tb = await startTestbed();
  }, 90_000);
  afterAll(async () => {
    await k2sDns(['stop', '--on-drift', 'restore']);
    await tb?.stop();
  }, 60_000);

  it('stop --json | head -1: stop runs to its end (exit 0), the original is back byte for byte, no state and no proxy left', async () => {
    const engine = (await engineMissing('dnsproxy')) === null ? 'adguard' : 'dnsmasq';
    const original = await readFile('/etc/resolv.conf');
    const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs(engine), '--verify-name', 'www.example.test']);
    expect(start.code, start.stdout + start.stderr).toBe(0);
    const stop = await firstLineThenClose(['stop', '--on-drift', 'restore', '--json']);
    expect(stop.line).toMatch(/^\{"type":/);
    expect(stop.stderr).not.toContain('EPIPE');
    expect([stop.code, stop.signal]).toEqual([0, null]);
    expect(await readFile('/etc/resolv.conf')).toEqual(original);
    await expect(stat('/var/lib/k2s/dns-resolver-state.json')).rejects.toThrow(/ENOENT/);
    const status = await k2sDns(['status', '--json']);
    expect((JSON.parse(status.stdout) as { state: string }).state).toBe('stopped');
  }, 120_000);

  it('status | head -1 exits with its own status, no EPIPE trace', async () => {
    const r = await firstLineThenClose(['status']);
    expect(r.line).not.toBe('');
    expect(r.stderr).not.toContain('EPIPE');
    expect(r.signal).toBeNull();
    expect(r.code).not.toBeNull();
  }, 60_000);
});
