/**
 * What the ad-hoc A/B probes of the capture share (idle-ab.ts, pin-toggle.ts): the names dnsperf
 * asks, the engines to start, and the capture tree's processes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { queryFile } from './dnsperf';

/** dnsperf's query file in `dir`: the bed upstream's names with AB_NAMES=external, else cluster names. */
export function abQueryFile(dir: string): Promise<string> {
  return process.env.AB_NAMES === 'external'
    ? queryFile(dir, 'external', ['www.example.test', 'mirror.example.test'])
    : queryFile(dir, 'cluster', ['kubernetes.default.svc.cluster.local', 'web.demo.svc.cluster.local', 'kube-dns.kube-system.svc.cluster.local']);
}

/** The engines to start: dnsmasq, and AdGuard when `dnsproxy` (its binary) exists; AB_ENGINES (comma list of names) picks. */
export function abEngines(dnsproxy: string): { name: string; extra: string[] }[] {
  const engines = [{ name: 'dnsmasq', extra: [] as string[] }];
  if (existsSync(dnsproxy)) engines.push({ name: 'adguard', extra: ['--dnsproxy', dnsproxy] });
  const only = process.env.AB_ENGINES?.split(',');
  return only ? engines.filter((e) => only.includes(e.name)) : engines;
}

/** The running capture's PIDs: its companion (/run/k2s/capture.ready), then the companion's children (tcpdump, parser). */
export function captureTree(): number[] {
  const c = Number(readFileSync('/run/k2s/capture.ready', 'utf8').trim());
  return [c, ...readFileSync(`/proc/${c}/task/${c}/children`, 'utf8').trim().split(/\s+/).map(Number)];
}
