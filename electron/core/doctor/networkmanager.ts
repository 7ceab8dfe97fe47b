/**
 * Doctor check `networkmanager-kubeswitch`: whether NetworkManager runs its own connection on
 * the KubeSwitch link. Measured on Debian 13 with NetworkManager 1.52 and Debian's default
 * configuration (e2e/debian-host-resolved-route.e2e.test.ts): a link NM did not create is
 * `connected (externally)` and NM leaves its addresses and its systemd-resolved settings alone;
 * but a link that appears without an address and that NM treats as Ethernet (the bed's veth)
 * gets NM's generated "Wired connection N" (ipv4.method auto, DHCP), and when that DHCP gives
 * up (45 s) NM removes the addresses K2s put there — 172.19.1.1 included. K2s DNS never changes
 * NetworkManager settings, so this check only names the cause and the user's fix.
 */
import type { DoctorFinding } from '../../../shared/doctor';
import { K2S_DEFAULTS } from '../../../shared/k2s-paths';
import type { DoctorContext } from './context';

/** What nmcli(1) says about `link`: GENERAL.STATE (`100 (connected (externally))`), GENERAL.CONNECTION, and that connection's ipv4.method; null when NM does not run or know it. */
async function nmDevice(ctx: DoctorContext, link: string): Promise<{ state: string; connection: string; method: string | null } | null> {
  const run = (args: string[]) => ctx.deps.exec.run('nmcli', args, { timeoutMs: 15_000 }).catch(() => null);
  const r = await run(['-g', 'GENERAL.STATE,GENERAL.CONNECTION', 'device', 'show', link]);
  if (!r || r.code !== 0) return null;
  const [state = '', connection = ''] = r.stdout.split('\n').map((l) => l.trim());
  if (connection === '' || connection === link) return { state, connection, method: null };
  const m = await run(['-g', 'ipv4.method', 'connection', 'show', connection]);
  return { state, connection, method: m && m.code === 0 ? m.stdout.trim() : null };
}

/**
 * `networkmanager-kubeswitch`: warn when an NM connection with DHCP (`ipv4.method auto`) holds
 * the KubeSwitch link; else ok, one line in the CLI — NM does not run or does not know the link,
 * leaves it to others (unmanaged, or its own external connection named after the link), or
 * another NM connection holds it (a profile someone gave the address on purpose). Only the warning
 * asks for anything (new user: an INFO line about `k2s-proxy0` on every run, never explained).
 */
export async function checkNetworkManagerKubeSwitch(ctx: DoctorContext): Promise<DoctorFinding> {
  const link = ctx.state?.resolvedRoute?.link ?? K2S_DEFAULTS.kubeSwitchInterface;
  const base = { id: 'networkmanager-kubeswitch', title: `NetworkManager on ${link}` };
  const dev = await nmDevice(ctx, link);
  const what = `${link}, K2s's KubeSwitch link (it holds ${K2S_DEFAULTS.kubeSwitchAddress})`;
  if (dev === null) return { ...base, severity: 'ok', title: `NetworkManager does not manage ${link}`, meaning: `NetworkManager does not run here, or does not know ${what}: it cannot remove that address.`, fix: null };
  if (dev.method === null) {
    return { ...base, severity: 'ok', title: `NetworkManager leaves ${link} alone (${dev.state || 'no state'})`, meaning: `NetworkManager runs no connection of its own on ${what}, so it keeps that address and the systemd-resolved route there as they are.`, fix: null, detail: dev };
  }
  if (dev.method !== 'auto') {
    return { ...base, severity: 'ok', title: `NetworkManager connection "${dev.connection}" (ipv4.method ${dev.method}) holds ${link}`, meaning: `A NetworkManager profile with ipv4.method ${dev.method} configures ${link}; K2s DNS re-applies its systemd-resolved route whenever the KubeSwitch address is assigned.`, fix: null, detail: dev };
  }
  return {
    ...base,
    severity: 'warn',
    title: `NetworkManager runs DHCP on ${link} (connection "${dev.connection}")`,
    meaning: `NetworkManager activated "${dev.connection}" (ipv4.method auto) on K2s's KubeSwitch link (state ${dev.state}); when its DHCP gives up (45 s by default) it removes the addresses K2s put there, ${K2S_DEFAULTS.kubeSwitchAddress} included, and pods and the KubeSwitch side lose DNS until K2s adds it again.`,
    fix: `Tell NetworkManager to leave the link to K2s: \`nmcli device set ${link} managed no\` (until NetworkManager restarts), or unmanaged-devices=interface-name:${link} in a file in /etc/NetworkManager/conf.d/ (K2s DNS never changes NetworkManager settings); then restart K2s so it adds ${K2S_DEFAULTS.kubeSwitchAddress} again.`,
    detail: dev,
  };
}
