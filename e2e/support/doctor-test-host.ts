/**
 * Test helpers for the doctor checks: a temp-root host (e2e/support/test-deps.ts), the
 * doctor context on it, and a started K2s DNS (the real lifecycle on the temp root).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Exec } from '../../electron/core/host/exec';
import { afterEach } from 'vitest';
import { makeTestHost } from './test-deps';
import { startDns } from '../../electron/core/lifecycle/start';
import { readDoctorContext, type DoctorOptions } from '../../electron/core/doctor/context';

/** A temp-root host; `cleanup` removes it. */
export type DoctorTestHost = Awaited<ReturnType<typeof makeTestHost>> & {
  /** Writes `text` at the host path `hostPath` under the root (parents created), file mode `mode`. */
  put(hostPath: string, text: string, mode?: number): Promise<void>;
  /** The doctor context with `opts` (kubeconfigPath null unless given). */
  ctx(opts?: Partial<DoctorOptions>): ReturnType<typeof readDoctorContext>;
  /** Starts K2s DNS (dnsmasq engine) through the lifecycle on the temp root; throws when it fails. */
  start(): Promise<void>;
};

/** makeTestHost plus put/ctx/start. */
export async function doctorHost(resolvConf?: string): Promise<DoctorTestHost> {
  const h = await makeTestHost(resolvConf);
  const put = async (hostPath: string, text: string, mode = 0o644) => {
    const real = join(h.root, hostPath);
    await mkdir(dirname(real), { recursive: true });
    await writeFile(real, text, { mode });
  };
  return Object.assign(h, {
    put,
    ctx: (opts: Partial<DoctorOptions> = {}) => readDoctorContext(h.deps, { kubeconfigPath: null, ...opts }),
    async start() {
      const r = await startDns(h.deps, { kubeconfigPath: '/etc/kubernetes/admin.conf', engine: 'dnsmasq', verifyExternalName: 'www.example.test' }, () => undefined);
      if (!r.ok) throw new Error(`test start failed: ${r.message}`);
    },
  });
}

/** An Exec that answers `lsattr` with `flags` and runs everything else for real. */
export function lsattrSays(flags: string, real: Exec): Exec {
  return {
    run: (file, args, opts) =>
      file === 'lsattr' ? Promise.resolve({ code: 0, stdout: `${flags} ${args[args.length - 1]}\n`, stderr: '' }) : real.run(file, args, opts),
  };
}

/**
 * For a test file: returns `host(resolv?)`, which makes a doctorHost and cleans every one of
 * them up after each test.
 */
export function useDoctorHosts(): (resolvConf?: string) => Promise<DoctorTestHost> {
  const hosts: DoctorTestHost[] = [];
  afterEach(async () => {
    for (const h of hosts.splice(0)) await h.cleanup();
  });
  return async (resolvConf?: string) => {
    const h = await doctorHost(resolvConf);
    hosts.push(h);
    return h;
  };
}
