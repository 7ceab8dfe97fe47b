/**
 * Uninstall on systemd resets a capture unit left failed (its companion killed mid-drain after a
 * stop: Result=signal): removed from disk, it would stay loaded as failed (systemctl --failed)
 * until a reset-failed, which only K2s, its owner, knows to run.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDns } from './start';
import { uninstallDns } from './stop';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';
import { K2S_PATHS } from '../../../shared/k2s-paths';

const newHost = trackedHosts();

describe('uninstall and a failed capture unit', () => {
  it('systemd: the unit file removed, then its failed state reset', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    Object.assign(h.deps.services, { kind: 'systemd' });
    await mkdir(join(h.root, 'etc/systemd/system'), { recursive: true });
    await writeFile(join(h.root, K2S_PATHS.captureUnit), '[Service]\n');
    const calls: string[] = [];
    const run = h.deps.exec.run.bind(h.deps.exec);
    h.deps.exec.run = async (file, args, opts) => {
      calls.push(`${file} ${args.join(' ')}`);
      return run(file, args, opts);
    };
    expect((await uninstallDns(h.deps, {}, () => undefined)).ok).toBe(true);
    expect(calls).toContain('systemctl reset-failed k2s-dnsproxy-capture.service');
  });
});
