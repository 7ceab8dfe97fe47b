import { afterEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';
import { startDns } from './start';
import { stopDns, uninstallDns } from './stop';
import { makeTestHost } from '../../../e2e/support/test-deps';

const hosts: Array<{ cleanup: () => Promise<unknown> }> = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.cleanup();
});

const opts = { kubeconfigPath: '/etc/kubernetes/admin.conf', verifyExternalName: 'www.example.test' };
const ORIGINAL = 'nameserver 192.0.2.53\nsearch corp.example\n';

/** A test host whose manager has a reload that records its calls in `log`, beside the lifecycle's events. */
async function hostWithReload(log: string[]) {
  const h = await makeTestHost(ORIGINAL);
  hosts.push(h);
  h.deps.services.reload = {
    current: async () => false,
    ask: async () => null,
    linksChanged: () => void log.push('linksChanged'),
    unitWritten: () => void log.push('unitWritten'),
    reloadNow: async () => void log.push('reloadNow'),
    settle: async () => void log.push('settle'),
  };
  return h;
}
const into = (log: string[]) => (e: LifecycleEvent) => void log.push(e.type === 'step' ? `${e.step} ${e.status}` : e.type);

describe('stop asks the manager to read the changed links before its result (issue #21)', () => {
  it('stop: settle begins once the proxy is stopped, inside stop-service, and once more at the end; the original is back', async () => {
    const log: string[] = [];
    const h = await hostWithReload(log);
    expect((await startDns(h.deps, opts, () => undefined)).ok).toBe(true);
    log.length = 0;
    const r = await stopDns(h.deps, {}, into(log));
    expect(r.ok).toBe(true);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    // Restore first, then the proxy's stop, then the settle — before the step's end and the result.
    expect(log.filter((l) => l !== 'linksChanged' && !l.endsWith(' running') && l !== 'journal')).toEqual(['restore done', 'settle', 'stop-service done', 'result', 'settle']);
    expect(log.indexOf('settle')).toBeGreaterThan(log.indexOf('stop-service running'));
  });

  it('uninstall: no settle before its result (its remove-files step reloads once the unit files are gone)', async () => {
    const log: string[] = [];
    const h = await hostWithReload(log);
    expect((await startDns(h.deps, opts, () => undefined)).ok).toBe(true);
    log.length = 0;
    expect((await uninstallDns(h.deps, {}, into(log))).ok).toBe(true);
    expect(log.indexOf('settle')).toBeGreaterThan(log.indexOf('result'));
    expect(log.filter((l) => l === 'settle')).toEqual(['settle']);
  });
});
