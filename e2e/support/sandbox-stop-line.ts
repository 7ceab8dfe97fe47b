/**
 * The line `npm run sandbox` prints when Ctrl-C has stopped K2s DNS inside it (e2e/sandbox-app.ts):
 * stop's result said "the host resolver is back as it was", read on this machine's terminal as
 * this machine's resolver (new-user walk 23). The file stop put back is the sandbox's
 * /etc/resolv.conf, in the private copy of /etc its mount namespace has (e2e/bed/inner.sh).
 */

import { RESOLVER_BACK } from '../../electron/core/lifecycle/stop';

/** stop's ending when the saved original is back (electron/core/lifecycle/stop.ts). */
const BACK_AS_IT_WAS = `; ${RESOLVER_BACK}.`;

/** Where the sandbox's resolver lives, said after a line that names it. */
const NOT_THIS_MACHINE = "This machine's own /etc/resolv.conf was never touched.";

/** The `sandbox: …` line (with its newline) for stop's result `message`, naming the sandbox's resolv.conf where stop changed it. */
export function sandboxStopLine(message: string): string {
  if (message.endsWith(BACK_AS_IT_WAS)) {
    return `sandbox: ${message.slice(0, -BACK_AS_IT_WAS.length)}; the sandbox's /etc/resolv.conf (in its private copy of /etc) is back as it was before Start. ${NOT_THIS_MACHINE}\n`;
  }
  if (message.includes('/etc/resolv.conf')) return `sandbox: ${message} (That /etc/resolv.conf is the sandbox's, in its private copy of /etc. ${NOT_THIS_MACHINE})\n`;
  return `sandbox: ${message}\n`;
}
