/**
 * TEST-ONLY entry (never shipped: scripts/build.mjs does not bundle it): runs `start` or `stop`
 * on the real host deps (createNodeDeps) with a pause injected through those deps at one named
 * point of the operation, so a power-loss test can SIGKILL the host's PID 1 exactly there.
 * At the point it prints `PAUSED <point>` on stdout and waits forever (until killed).
 *
 * Usage: node k2s-dns-pause.mjs --pause-at POINT start KUBECONFIG ENGINE VERIFY_NAME
 *        node k2s-dns-pause.mjs --pause-at POINT stop
 * Bundled by e2e/bed/pause-bundle.ts into .tmp/debian-host/ (the checkout is visible inside the host).
 */
import type { Exec } from '../../electron/core/host/exec';
import type { HostFs } from '../../electron/core/host/host-fs';
import type { ServiceManager } from '../../electron/core/host/service-manager';
import { detectServiceManager } from '../../electron/core/host/detect-service-manager';
import type { LifecycleDeps } from '../../electron/core/lifecycle/deps';
import { createNodeDeps } from '../../electron/core/lifecycle/node-deps';
import { FOLLOW_VERB, supervisedFollower, systemdFollower } from '../../electron/core/host/follower';
import path from 'node:path';
import { startDns } from '../../electron/core/lifecycle/start';
import { stopDns } from '../../electron/core/lifecycle/stop';
import { K2S_PATHS } from '../../shared/k2s-paths';
import type { EngineName } from '../../shared/types';
import { PAUSE_POINTS, type PausePoint } from './pause-points';

/** The proxy unit's link for its `[Install] WantedBy=multi-user.target` (host/unit-links.ts). */
const PROXY_WANTS_LINK = '/etc/systemd/system/multi-user.target.wants/k2s-dnsproxy.service';

/** Prints the marker and never returns (a timer keeps Node's event loop alive). */
function pause(point: PausePoint): Promise<never> {
  process.stdout.write(`PAUSED ${point}\n`);
  setInterval(() => undefined, 1 << 30);
  return new Promise<never>(() => undefined);
}

/** `deps` with the pause at `point` (see PAUSE_POINTS for where each one is). */
async function withPause(deps: LifecycleDeps, point: PausePoint, op: 'start' | 'stop'): Promise<LifecycleDeps> {
  let stateWrites = 0;
  let resolvWrites = 0;
  const fs: HostFs = new Proxy(deps.fs, {
    get(target, prop, recv) {
      if (prop === 'symlinkAtomic') {
        // The proxy's own [Install] link made (host/unit-links.ts; its restart runs alongside).
        return async (path: string, linkTarget: string, opts?: { uid?: number; gid?: number }) => {
          await target.symlinkAtomic(path, linkTarget, opts);
          if (path === PROXY_WANTS_LINK && point === 'after-enable') await pause(point);
        };
      }
      if (prop !== 'writeFileAtomic') return Reflect.get(target, prop, recv) as unknown;
      return async (path: string, data: Buffer | string, opts: { mode: number; uid?: number; gid?: number }) => {
        await target.writeFileAtomic(path, data, opts);
        if (path === K2S_PATHS.stateFile && ++stateWrites === 1 && point === 'after-save') await pause(point);
        if (path === K2S_PATHS.stateFile && stateWrites === 2 && point === 'after-activate') await pause(point);
        if ((path === K2S_PATHS.proxyConfig || path === K2S_PATHS.dnsmasqConfig) && point === 'after-config') await pause(point);
        if (path === K2S_PATHS.unit && point === 'after-unit-written') await pause(point);
        if (path === K2S_PATHS.resolvConf && ++resolvWrites === 1 && op === 'start' && point === 'during-activate') await pause(point);
      };
    },
  });
  const exec: Exec = deps.exec;
  // The service manager writes the unit and runs systemctl: built on the paused fs and exec.
  const inner = await detectServiceManager(fs, exec);
  const services: ServiceManager = {
    kind: inner.kind,
    ...(inner.reload ? { reload: inner.reload } : {}),
    ...(inner.prepareStart ? { prepareStart: () => inner.prepareStart!() } : {}),
    ...(inner.writeUnits ? { writeUnits: (spec) => inner.writeUnits!(spec) } : {}),
    start: async (spec) => {
      const r = await inner.start(spec);
      if (point === 'after-proxy-start') await pause(point);
      return r;
    },
    stop: async () => {
      if (op === 'stop' && point === 'stop-after-restore') await pause(point);
      await inner.stop();
      if (op === 'stop' && point === 'stop-after-service') await pause(point);
    },
    status: () => inner.status(),
  };
  // The follower shares the paused manager's reload, as createNodeDeps has it share the manager's.
  const follower = deps.follower && inner.kind === 'systemd' ? { ...deps.follower, manager: systemdFollower(fs, exec, inner.reload) } : deps.follower;
  return {
    ...deps,
    fs,
    exec,
    services,
    ...(follower ? { follower } : {}),
    systemLookup: async (name) => {
      if (point === 'during-verify') await pause(point);
      return deps.systemLookup(name);
    },
  };
}

const [flag, point, op, ...rest] = process.argv.slice(2);
if (flag !== '--pause-at' || !PAUSE_POINTS.includes(point as PausePoint) || (op !== 'start' && op !== 'stop')) {
  process.stderr.write(`usage: k2s-dns-pause --pause-at ${PAUSE_POINTS.join('|')} start KUBECONFIG ENGINE VERIFY_NAME | stop\n`);
  process.exit(64);
}
const base = await createNodeDeps();
// The network follower as the product's CLI has it (createNodeDeps gives it only to the CLI and
// helper entries): stop ends it before taking the lock, as `k2s-dns stop` does — without it a
// follower look holding the lifecycle lock made this stop BUSY. It runs the checkout's CLI,
// two levels up from this bundle (.tmp/debian-host/).
if (!base.follower) {
  const cli = path.resolve(path.dirname(process.argv[1] ?? '.'), '../../bin/k2s-dns.mjs');
  base.follower = { manager: base.services.kind === 'systemd' ? systemdFollower(base.fs, base.exec, base.services.reload) : supervisedFollower(base.fs), argv: [process.execPath, cli, FOLLOW_VERB] };
}
const deps = await withPause(base, point as PausePoint, op);
const sink = (e: unknown): void => void process.stdout.write(`${JSON.stringify(e)}\n`);
const [kubeconfigPath, engine, verifyExternalName] = rest;
const result =
  op === 'start'
    ? await startDns(deps, { kubeconfigPath: kubeconfigPath ?? null, engine: engine as EngineName, ...(verifyExternalName ? { verifyExternalName } : {}) }, sink)
    : await stopDns(deps, {}, sink);
process.exitCode = result.exitCode;
