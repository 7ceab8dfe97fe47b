import { afterEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns } from './stop';
import { makeTestHost, withStandInCapture } from '../../../e2e/support/test-deps';

const hosts: Array<{ cleanup: () => Promise<unknown> }> = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.cleanup();
});

const opts = { kubeconfigPath: '/etc/kubernetes/admin.conf', verifyExternalName: 'www.example.test' };

describe("start records when its run began beside the exact query log (the queries listing's run boundary)", () => {
  it('startedMs is this start’s own time, at or before its checks; a second start keeps the first one’s as earlier', async () => {
    const h = await makeTestHost('nameserver 192.0.2.53\n');
    hosts.push(h);
    // The exact query log on (a stand-in companion that only says it is ready): start writes its record only beside it.
    withStandInCapture(h);
    const before = Date.now();
    expect(await startDns(h.deps, opts, () => undefined)).toMatchObject({ ok: true });
    const file = join(h.root, 'var/log/dnsproxy/start-checks.json');
    const first = JSON.parse(await readFile(file, 'utf8')) as { startedMs: number; fromMs: number; toMs: number };
    expect(first.startedMs).toBeGreaterThanOrEqual(before);
    expect(first.startedMs).toBeLessThanOrEqual(first.fromMs);
    expect(await stopDns(h.deps, {}, () => undefined)).toMatchObject({ ok: true });
    expect(await startDns(h.deps, opts, () => undefined)).toMatchObject({ ok: true });
    const second = JSON.parse(await readFile(file, 'utf8')) as { startedMs: number; fromMs: number; earlier: { startedMs: number }[] };
    expect(second.startedMs).toBeGreaterThanOrEqual(first.toMs);
    expect(second.earlier[0]!.startedMs).toBe(first.startedMs);
  });
});
