/**
 * Doctor check `resolved-route`: while K2s DNS runs on a systemd-resolved host, resolved must
 * still have the routing-only link start gave it (shared/resolved-link.ts): the KubeSwitch link
 * with the proxy's address as its one DNS server, the `~zone` domains, and no default route.
 * It is runtime state of that link: gone when the link is deleted and created again or after a
 * reboot, until k2s-dnsproxy-resolved.service applies it again (shared/resolved-route-unit.ts).
 */
import { cliCommand } from '../../../shared/fix';
import type { DoctorFinding } from '../../../shared/doctor';
import type { ResolvedRoute } from '../../../shared/resolved-link';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { ROUTE_UNIT_NAME } from '../../../shared/resolved-route-unit';
import type { Exec } from '../host/exec';
import { resolvedActive } from '../lifecycle/resolved';
import type { DoctorContext } from './context';
import { readState } from '../host/resolver-state';
import { checkedAgainWords, operationNow, operationSentenceStart, operationWords } from './operation-now';
import type { LifecycleDeps } from '../lifecycle/deps';
import { codeSpan } from '../../../shared/code-span';

/** What resolved has for one link: `resolvectl dns|domain|default-route LINK` values (resolvectl(1)), null when it does not know the link. */
export interface LinkDnsNow {
  servers: string[];
  domains: string[];
  defaultRoute: boolean | null;
}

/** The values after `Link N (name):` of one resolvectl per-link line; null when the call failed. */
async function linkValues(exec: Exec, verb: string, link: string): Promise<string[] | null> {
  const r = await exec.run('resolvectl', [verb, link], { timeoutMs: 15_000 }).catch(() => null);
  if (!r || r.code !== 0) return null;
  const line = r.stdout.split('\n').find((l) => /^Link \d+ \(/.test(l)) ?? '';
  const m = /^Link \d+ \([^)]*\):(.*)$/.exec(line);
  return m ? (m[1] as string).trim().split(/\s+/).filter((w) => w !== '') : null;
}

/** Reads resolved's settings of `link`; null when resolved does not know the link (deleted, not created yet). */
export async function readLinkDns(exec: Exec, link: string): Promise<LinkDnsNow | null> {
  const servers = await linkValues(exec, 'dns', link);
  if (servers === null) return null;
  const domains = (await linkValues(exec, 'domain', link)) ?? [];
  const route = await linkValues(exec, 'default-route', link);
  return { servers, domains, defaultRoute: route?.[0] === 'yes' ? true : route?.[0] === 'no' ? false : null };
}

/** How `now` differs from `want`, one phrase each ([] when it is the route start set). */
export function routeDifferences(want: ResolvedRoute, now: LinkDnsNow | null): string[] {
  if (now === null) return [`systemd-resolved does not know the link ${want.link}`];
  const out: string[] = [];
  if (now.servers.length !== 1 || now.servers[0] !== want.address) out.push(`its DNS servers are ${now.servers.length ? now.servers.join(' ') : 'none'}, not ${want.address}`);
  const missing = want.domains.filter((d) => !now.domains.includes(d));
  if (missing.length) out.push(`it lacks the routing domains ${missing.join(' ')}`);
  if (now.defaultRoute !== false) out.push('it is a default route for every name, not routing-only');
  return out;
}

/**
 * `resolved-route`: info when K2s DNS holds no resolved route (worded for a stopped or a running
 * K2s DNS: resolvedRouteFinding), warn when resolved does not run; ok when resolved has exactly the saved route on the link;
 * error otherwise (cluster names through nss-resolve, the 127.0.0.53 stub and resolvectl then
 * fail or go to the uplink servers), with the fix.
 */
export async function checkResolvedRoute(ctx: DoctorContext): Promise<DoctorFinding> {
  const found = await resolvedRouteFinding(ctx.deps, ctx.state?.resolvedRoute ?? null, ctx.service.running);
  if (found.severity !== 'error' && found.severity !== 'warn') return found;
  // The run's state and service were read when it began; a stop or start since then (the CLI's,
  // issue 20 H1) adds or removes the route halfway: said as such, never as a route to repair.
  const op = await operationNow(ctx.deps.fs).catch(() => null);
  if (op) {
    return {
      id: 'resolved-route',
      severity: 'info',
      title: `systemd-resolved route checked during ${operationWords({ ...op, pid: null, step: null })}`,
      meaning: `${operationSentenceStart(op)} is changing K2s DNS right now, so the route may be halfway set up or taken down. ${checkedAgainWords(ctx.opts.frontEnd ?? 'cli')}`,
      fix: null,
      detail: { operation: op },
    };
  }
  // An operation that ended meanwhile changed the service: judged again on the state as it is now.
  const service = await Promise.resolve()
    .then(() => ctx.deps.services.status())
    .catch(() => null);
  if (!service || (service.running === ctx.service.running && service.pid === ctx.service.pid)) return found;
  const state = await readState(ctx.deps.fs).catch(() => ctx.state);
  return resolvedRouteFinding(ctx.deps, state?.resolvedRoute ?? null, service.running);
}

/**
 * The info finding when the state holds no route. Stopped: nothing to route. Running: start
 * found systemd-resolved not running (start gives it the route only where it runs:
 * electron/core/lifecycle/start.ts activate), so programs that read /etc/resolv.conf reach the
 * proxy directly; when resolved runs now, it has no route for the cluster zones until the next start.
 */
async function noRouteFinding(deps: LifecycleDeps, running: boolean): Promise<DoctorFinding> {
  const base = { id: 'resolved-route', severity: 'info' as const, fix: null };
  if (!running) return { ...base, title: 'No systemd-resolved route in use', meaning: 'K2s DNS is not running, so it holds no systemd-resolved route.' };
  if (!(await resolvedActive(deps))) {
    return { ...base, title: 'K2s DNS runs without a systemd-resolved route', meaning: 'systemd-resolved did not run when K2s DNS started and does not run now, so K2s DNS needs no route there: programs that read /etc/resolv.conf ask the proxy directly.' };
  }
  return {
    ...base,
    title: 'K2s DNS runs without a systemd-resolved route',
    meaning: 'systemd-resolved runs now but did not when K2s DNS started, so it has no route for the cluster zones: programs that read /etc/resolv.conf ask the proxy directly, those that ask systemd-resolved (nss-resolve, the 127.0.0.53 stub, resolvectl query) do not get cluster names. Stop and Start K2s DNS to give systemd-resolved the route.',
  };
}

/**
 * The `resolved-route` finding for the route `want` the state file holds (null: none), read
 * from the host through `deps`; `running` is whether the proxy service runs (words the no-route
 * case). `status` shows the same finding (electron/core/lifecycle/status.ts).
 */
export async function resolvedRouteFinding(deps: LifecycleDeps, want: ResolvedRoute | null, running = true): Promise<DoctorFinding> {
  const base = { id: 'resolved-route', title: 'systemd-resolved route for the cluster zones' };
  if (!want) return noRouteFinding(deps, running);
  if (!(await resolvedActive(deps))) {
    return { ...base, severity: 'warn', title: 'systemd-resolved is not running', meaning: `K2s DNS gave systemd-resolved the route ${want.domains.join(' ')} on ${want.link}, but systemd-resolved does not run now, so programs that ask it get no answer.`, fix: 'Start it again (systemctl start systemd-resolved); K2s DNS applies the route again by itself once it runs and the KubeSwitch address is assigned.', detail: { route: want } };
  }
  const now = await readLinkDns(deps.exec, want.link);
  const diffs = routeDifferences(want, now);
  if (diffs.length === 0) {
    return { ...base, severity: 'ok', title: `systemd-resolved sends ${want.domains.join(' ')} to ${want.address} on ${want.link}`, meaning: `The routing-only link K2s DNS set up is in place: ${want.link} has ${want.address} as its one DNS server, the cluster zones as routing domains, and no default route.`, fix: null, detail: { route: want, now } };
  }
  // Started by a version without the companion unit (kept running across the upgrade): start installs it.
  if (!(await deps.fs.lstat(K2S_PATHS.routeUnit))) {
    return {
      ...base,
      severity: 'error',
      title: `systemd-resolved route on ${want.link} missing`,
      meaning: `On ${want.link} ${diffs.join('; ')} (${ROUTE_UNIT_NAME}.service is not installed: this K2s DNS was started by a version without it), so cluster names asked through systemd-resolved (nss-resolve, the 127.0.0.53 stub, resolvectl query) fail or go to the other nameservers.`,
      fix: `Run ${codeSpan(cliCommand('start', true))}: K2s DNS keeps running, and start installs ${ROUTE_UNIT_NAME}.service, which applies the route again from the saved state.`,
      remedy: { action: 'stop', gui: 'Stop and Start K2s DNS: start gives systemd-resolved the route for the cluster zones again.', cli: cliCommand('start', true) },
      detail: { route: want, now, unit: 'not installed' },
    };
  }
  const unit = (await deps.exec.run('systemctl', ['is-active', `${ROUTE_UNIT_NAME}.service`], { timeoutMs: 15_000 }).catch(() => null))?.stdout.trim() ?? 'unknown';
  return {
    ...base,
    severity: 'error',
    title: `systemd-resolved route on ${want.link} missing`,
    meaning: `On ${want.link} ${diffs.join('; ')} (${ROUTE_UNIT_NAME}.service is ${unit}), so cluster names asked through systemd-resolved (nss-resolve, the 127.0.0.53 stub, resolvectl query) fail or go to the other nameservers.`,
    fix: `Run \`systemctl restart ${ROUTE_UNIT_NAME}\` (it applies the route again from ${K2S_PATHS.routeFile} once ${want.address} is on ${want.link}), or stop and start K2s DNS (\`${cliCommand('stop', true)}\`, then ${codeSpan(cliCommand('start', true))}).`,
    remedy: { action: 'stop', gui: 'Stop and Start K2s DNS: start gives systemd-resolved the route for the cluster zones again.', cli: `systemctl restart ${ROUTE_UNIT_NAME}` },
    detail: { route: want, now, unit },
  };
}
