/** `status` with the health verdict folded in: what `k2s-dns status` and `dns:status` report. */
import { applyHealth, type FrontEnd } from '../../../shared/health';
import type { HostDnsStatus } from '../../../shared/types';
import { checkHealth, type HealthOptions, type HealthProbes } from './check-health';

/**
 * Reads status once, checks the path, and returns the status with `health` set; `running`
 * becomes `degraded` when cluster names do not resolve (shared/health.ts applyHealth), with
 * the fix in the words of `frontEnd`.
 */
export async function statusWithHealth(p: HealthProbes, frontEnd: FrontEnd, opts: HealthOptions = {}): Promise<HostDnsStatus> {
  const status = await p.status();
  const report = await checkHealth({ ...p, status: async () => status }, opts);
  return applyHealth(status, report, frontEnd);
}
