/**
 * What a helper run that ended without a result means, in the words a user can act on.
 * pkexec(1) (polkit 122, the Debian 12/13 version): "If the calling process is not authorized
 * or an authorization could not be obtained through authentication or an error occured, pkexec
 * exits with a return value of 127. If the authorization could not be obtained because the user
 * dismissed the authentication dialog, pkexec exits with a return value of 126." Which 127 it
 * was is only in its stderr (pkexec.c, polkit 122):
 *   "Error executing command as another user: Not authorized" (+ "This incident has been reported.")
 *   "Error executing command as another user: No authentication agent found."
 *   "Error executing command as another user: Request dismissed" (exit 126)
 * A text agent never dismisses: pkttyagent's listener (polkitagenttextlistener.c, polkit 126)
 * completes a wrong password like a success that gained nothing, and Ctrl-C ends the agent, so
 * both come back as "Not authorized" (exit 127), as a rule's NO does (seen on the Debian 13 bed,
 * e2e/package-desktop.e2e.test.ts). Only a graphical agent's Cancel button gives exit 126.
 * and, polkit 126 (Debian 13) with no agent and no controlling terminal for its own text agent
 * (an app started from the desktop menu or a service; seen on the Debian 13 bed):
 *   "Error creating textual authentication agent: Error opening current controlling terminal
 *    for the process (`/dev/tty'): No such device or address"
 */
import type { ResultEvent } from '../../shared/lifecycle-events';
import { EXIT } from '../../shared/lifecycle-events';
import type { HelperRequest } from './request';
import type { ErrorCode } from '../../shared/error-codes';
import { cliCommand } from '../../shared/fix';

/** The denial kinds: each is a refusal (exit 3, the helper never ran, nothing changed). */
export type DenialCode = Extract<ErrorCode, 'AUTH_DISMISSED' | 'AUTH_NOT_AUTHORIZED' | 'AUTH_NO_AGENT'>;

/** Which denial pkexec's exit code and stderr describe; null when it is not a denial (the helper itself failed). */
export function classifyDenial(code: number | null, stderr: string): DenialCode | null {
  if (code === 126 || /Request dismissed/.test(stderr)) return 'AUTH_DISMISSED';
  if (code !== 127) return null;
  if (/No authentication agent found|Error creating textual authentication agent/.test(stderr)) return 'AUTH_NO_AGENT';
  if (/Not authorized/.test(stderr)) return 'AUTH_NOT_AUTHORIZED';
  return null;
}

/**
 * Per denial: what happened and what to do; `pid`, the process that ran pkexec (pkexec asks polkit
 * for its parent: pkexec(1)), which `pkttyagent --process PID` answers for (pkttyagent(1)), named
 * as is: no printed line holds a placeholder (walk 7 M4).
 */
const DENIAL: Record<DenialCode, (pid: number) => string> = {
  AUTH_DISMISSED: () => 'The password dialog was dismissed, so the helper did not run. Press the button again and enter an administrator password.',
  AUTH_NOT_AUTHORIZED: () =>
    'polkit refused: this user may not run the K2s DNS helper (the action io.k2s.dns.helper asks for an administrator password only in a local, active desktop session; a remote or inactive session, or a rule in /etc/polkit-1/rules.d, says no), or the authentication did not succeed (a wrong password, or a text agent such as pkttyagent interrupted: polkit reports those the same way). Try again and enter the password, run it from your local desktop session, ask an administrator for a polkit rule that allows you, or run the command as root (sudo k2s-dns …).',
  AUTH_NO_AGENT: (pid) =>
    `No polkit authentication agent could ask for the password (no desktop agent in this session, and pkexec has no terminal here). Start the app from your desktop session, whose agent shows the dialog, or run \`pkttyagent --process ${pid}\` (this app's PID) in a terminal to answer there, or run the command as root (sudo k2s-dns …).`,
};

/**
 * The result when the helper ended without one: a denial by pkexec (refused, exit 3, with what
 * to do), or a failure of the helper (exit 1). `spawnError` is the spawn error's message. `pid`:
 * the process that spawned pkexec (the launcher's, this one), named by AUTH_NO_AGENT's fix.
 */
export function denialResult(req: HelperRequest, elevation: 'direct' | 'pkexec', code: number | null, stderr: string, pid: number = process.pid): ResultEvent {
  const denial = elevation === 'pkexec' ? classifyDenial(code, stderr) : null;
  const base = { type: 'result' as const, op: req.verb, ok: false, at: Date.now() };
  if (denial) return { ...base, exitCode: EXIT.refused, code: denial, message: `${DENIAL[denial](pid)} Nothing changed.` };
  return { ...base, exitCode: EXIT.failed, code: 'HELPER_FAILED', message: `The privileged helper ended without a result (exit ${code}): ${stderr.trim().slice(0, 400).replace(/\.$/, '') || 'no output'}; run ${cliCommand('status')} to see the host state.` };
}
