/**
 * Which addresses the KubeSwitch listener may use (`--kubeswitch`, the Start options, the
 * helper's `--kubeswitch`). The proxy answers pods and the KubeSwitch network there, so it must
 * be a private address of this host: never loopback (127/8 is 127.0.0.1's job), link-local,
 * multicast, or a public address such as 8.8.8.8 (binding or advertising that would shadow a
 * real server). Pure logic, no Node imports.
 */
import { ipInCidr, parseIpv4 } from './cidr';

/** RFC 1918 private use and RFC 6598 shared address space: where K2s's 172.19.1.1/24 lives. */
export const KUBESWITCH_SPACE: readonly string[] = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'];

/** What --kubeswitch accepts, for messages. */
export const KUBESWITCH_ALLOWED_TEXT = 'a private IPv4 address assigned to this host (RFC 1918 10/8, 172.16/12, 192.168/16 or RFC 6598 100.64/10; K2s uses 172.19.1.1) or none';

/**
 * Why `text` cannot be the KubeSwitch listener address, or null when it can (`none` included).
 * Syntax and address space only; whether the address is assigned here is preflight's check.
 */
export function kubeSwitchRefusal(text: string): string | null {
  if (text === 'none') return null;
  const v4 = parseIpv4(text);
  if (v4 && KUBESWITCH_SPACE.some((c) => ipInCidr(text, c))) return null;
  const shown = text.slice(0, 64).replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return `--kubeswitch must be ${KUBESWITCH_ALLOWED_TEXT}, not "${shown}".`;
}
