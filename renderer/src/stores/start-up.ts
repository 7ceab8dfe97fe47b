/**
 * The window's start-up load, in two phases:
 *  1. ONE `dns:status` read (with `app:info`). It carries the host's state and the backend's
 *     current health verdict, which the verdict line, the Overview, the Topology and the
 *     lifecycle buttons all paint from. A fresh health check runs only when that status carried
 *     no verdict (the backend had none ready within its wait: backend-real.ts dnsStatus) or only
 *     the last known one (`rechecking`: older than the check cadence, shown as such meanwhile).
 *  2. Once it answered (or failed), every other view's load (`loadViews`: cluster, zones, diff,
 *     query targets, the doctor, the log tail). Sent together with the status read, they queued
 *     ahead of it: the browser opens at most six connections to one host (HTTP/1.1), and the
 *     backend answers them on one event loop while the cluster loads and the doctor spawns its
 *     programs (request timings in Chromium, docs/bench.md "UI").
 */
import type { HealthReport } from '../../../shared/health';
import type { DnsState } from './dns';
import type { HealthState } from './health';
import type { TopologyState } from './topology';

/** The stores start-up touches (zustand vanilla stores). */
export interface StartUpStores {
  dns: { getState(): DnsState };
  health: { getState(): HealthState };
  topology: { getState(): TopologyState };
}

/**
 * Gives the verdict line and the Topology a report that came with a status (newer ones only).
 * One marked `rechecking` (older than the cadence) goes to the verdict line alone, which says
 * "last known": the Topology's hops and verdict have no such mark, and would paint the old
 * green as current during an outage; it waits for the judged report (startUp's check).
 */
export function offerHealth(st: StartUpStores, report: HealthReport | undefined): void {
  if (!report) return;
  st.health.getState().offer(report);
  if (!report.rechecking) st.topology.getState().show(report);
}

/** Runs the start-up load; resolves once the views' loads are sent (not answered). Never rejects. */
export async function startUp(st: StartUpStores, loadViews: () => void): Promise<void> {
  try {
    await st.dns.getState().refresh();
  } catch {
    // A failed read sets `lost` in the dns store; the views still load (they say why they fail).
  }
  const health = st.dns.getState().status?.health;
  if (health) offerHealth(st, health);
  // No verdict, or only the last known one (older than the cadence, `rechecking`: a new check runs
  // in the backend): one check for both the verdict line and the Topology, which joins the
  // backend's check in flight, so the judged verdict is painted as soon as that check ends.
  if (!health || health.rechecking) {
    void st.health.getState().check().then(() => {
      const report = st.health.getState().report;
      if (report) st.topology.getState().show(report);
    });
  }
  loadViews();
}
