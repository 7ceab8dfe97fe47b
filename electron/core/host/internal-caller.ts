/**
 * The internal verbs (`capture-watch`, `follow-watch`) are run by `k2s-dns start` itself, as
 * root, never by a person: `capture-watch --listen … --port …` is a root tcpdump on the ports
 * it is given writing the companion's status files. pkexec(1) sets PKEXEC_UID and sudo(8)
 * SUDO_UID in the program they run, so either one set means a caller reached the verb through
 * the helper's polkit action or a sudo rule: refused. The product's own spawns of those verbs
 * (pidfile-process.ts, for the follower and the capture keeper/companion on hosts without
 * systemd) drop these variables first (child-env.ts internalVerbEnv); systemd units get the
 * manager's environment, not the helper's.
 */

/**
 * Variables pkexec(1) and sudo(8) set in the program they run (sudo: SUDO_COMMAND, SUDO_USER,
 * SUDO_UID, SUDO_GID, and SUDO_HOME since 1.9.16; pkexec: PKEXEC_UID).
 */
export const CALLER_VARS = ['PKEXEC_UID', 'SUDO_UID', 'SUDO_GID', 'SUDO_USER', 'SUDO_COMMAND', 'SUDO_HOME'] as const;

/** Exit status of a refused internal verb: EXIT.refused (shared/error-codes.ts; not imported, to keep the companion's bundle small; internal-caller.test.ts holds the two equal). */
export const INTERNAL_VERB_REFUSED = 3;

/**
 * The refusal for internal verb `verb` when `env` says a caller came through pkexec or sudo
 * (PKEXEC_UID or SUDO_UID set, any value); null when the verb may run.
 */
export function internalVerbRefusal(verb: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const via = env.PKEXEC_UID !== undefined ? 'pkexec (PKEXEC_UID is set)' : env.SUDO_UID !== undefined ? 'sudo (SUDO_UID is set)' : null;
  if (via === null) return null;
  return `\`${verb}\` is internal to k2s-dns: only its own start runs it, never through ${via}. Use the start and stop commands.\n`;
}
