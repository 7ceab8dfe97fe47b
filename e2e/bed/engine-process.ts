/**
 * Runs a proxy engine directly (no service manager, no lifecycle) with the config the product
 * renders for a plan (shared/dnsproxy-config.ts, shared/dnsmasq-config.ts), so a test can try
 * many upstream sets quickly: one process per plan, started in ~0.1 s, stopped by PID.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderDnsproxyArgs, renderDnsproxyConfig } from '../../shared/dnsproxy-config';
import { dnsmasqDropFrom, renderDnsmasqArgs, renderDnsmasqConfig } from '../../shared/dnsmasq-config';
import type { ProxyPlan } from '../../shared/types';
import { queryDns } from '../../electron/core/probes/dns-query';
import { DNSMASQ_BIN } from './dnsmasq-server';
import { ENGINE_BIN } from './engines';

/** A running engine. */
export interface EngineProcess {
  pid: number;
  /** The rendered config text. */
  config: string;
  /** The engine's log so far. */
  log(): Promise<string>;
  /** SIGTERM by PID, SIGKILL after 3 s; removes the work dir. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Renders `plan` (its logFile is replaced by one in a temp dir), starts the engine, and
 * resolves once its first listener answers `readyName` (a name of a plan zone, so no default
 * upstream is asked; any rcode counts). Throws with the log tail when it exits or does not
 * answer within `readyMs` (default 10 s).
 */
export async function startEngine(plan: ProxyPlan, readyName: string, readyMs = 10_000): Promise<EngineProcess> {
  const dir = await mkdtemp(join(tmpdir(), `k2sdns-${plan.engine}-`));
  const logFile = join(dir, 'engine.log');
  const p = { ...plan, logFile };
  const configFile = join(dir, plan.engine === 'adguard' ? 'dnsproxy.yaml' : 'dnsmasq.conf');
  const config = plan.engine === 'adguard' ? renderDnsproxyConfig(p) : renderDnsmasqConfig(p);
  await writeFile(configFile, config, { mode: 0o644 });
  // dnsmasq drops to the account the product picks on this machine (dnsmasq-base's user, else nobody).
  const dnsmasqUser = plan.engine === 'dnsmasq' ? dnsmasqDropFrom(await readFile('/etc/passwd', 'utf8').catch(() => '')).user : undefined;
  const argv = plan.engine === 'adguard' ? [ENGINE_BIN.dnsproxy, ...renderDnsproxyArgs(configFile, plan.verbose)] : [DNSMASQ_BIN, ...renderDnsmasqArgs(configFile, plan.listeners.map((l) => l.address), dnsmasqUser)];
  await writeFile(logFile, '');
  const fd = openSync(logFile, 'a');
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', fd, fd] });
  closeSync(fd);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.on('exit', () => ((exited = true), resolve())));
  const log = () => readFile(logFile, 'utf8').catch(() => '');
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (!exited) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exit;
      clearTimeout(t);
    }
    await rm(dir, { recursive: true, force: true });
  };
  const l = plan.listeners[0]!;
  const server = `${l.address}:${l.port}`;
  const deadline = Date.now() + readyMs;
  for (;;) {
    if (exited) break;
    const r = await queryDns({ name: readyName, type: 'A', server, timeoutMs: 200 });
    if (r.rcode !== 'TIMEOUT' && r.rcode !== 'ERROR') return { pid: child.pid!, config, log, stop };
    if (Date.now() > deadline) break;
  }
  const tail = (await log()).trim().split('\n').slice(-5).join(' / ');
  await stop();
  throw new Error(`${plan.engine} on ${server} ${exited ? 'exited at start' : `did not answer within ${readyMs} ms`}: ${tail || 'no output'}`);
}
