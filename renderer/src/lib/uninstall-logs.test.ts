/**
 * Issue 20 low: after Uninstall the Logs panel named only the proxy log, while Uninstall removes
 * the exact query log too (electron/core/lifecycle/owned-files.ts OWNED_FILES). It names both.
 */
import { describe, expect, it } from 'vitest';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { OWNED_FILES } from '../../../electron/core/lifecycle/owned-files';
import { UNINSTALL_CLEARED_LOGS } from './uninstall-logs';

describe("the Logs panel's sentence after Uninstall", () => {
  it('names both logs Uninstall removes: the proxy log and the exact query log', () => {
    expect(UNINSTALL_CLEARED_LOGS).toBe('Uninstall removed the proxy log (/var/log/dnsproxy/dnsproxy.log) and the exact query log (/var/log/dnsproxy/queries.jsonl).');
    for (const log of [K2S_PATHS.log, K2S_PATHS.queryRows]) {
      expect(OWNED_FILES).toContain(log);
      expect(UNINSTALL_CLEARED_LOGS).toContain(`(${log})`);
    }
  });
});
