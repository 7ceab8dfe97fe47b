/**
 * Display rule for a finished lifecycle step that passed but carries a doubt the user should see.
 * The verify step's external check (electron/core/lifecycle/verify.ts) passes when the proxy gives the
 * same answer class as the upstream itself, NXDOMAIN included: `kubernetes.io: nxdomain as from
 * 192.0.2.53`. A real name answered NXDOMAIN means the upstream may not resolve Internet names,
 * so the step is drawn with a warning mark (CLI `!`, the window's amber), the same rule as an
 * upstream hop answering other than NOERROR (shared/health.ts hopMark). Likewise a `restore` step
 * that kept their file on an explicit `--on-drift keep` and says NO_NAME_RESOLVES
 * (electron/core/lifecycle/teardown.ts): it did what was asked, but the host is left without DNS
 * (walk 5 L12: a green ● beside "No name resolves on this host now"). Display only: the
 * step's pass/fail is unchanged. Pure module: no Node or DOM imports.
 */

/** The sentence a `restore` step's message carries when the kept file leaves no nameserver that answers. */
export const NO_NAME_RESOLVES = 'No name resolves on this host now';

/**
 * True when a `done` step passed with a doubt: a verify step whose external check answered other
 * than with an address, or was skipped; a restore step that left no name resolving (NO_NAME_RESOLVES).
 */
export function stepWarns(step: string, status: string, message: string): boolean {
  if (status !== 'done') return false;
  if (step === 'restore') return message.includes(NO_NAME_RESOLVES);
  if (step !== 'verify') return false;
  // `<name>: skipped (the upstream did not answer…)`: the external check never ran (the result
  // carries UPSTREAM_UNVERIFIED), so the step is no plain ✓ either.
  if (/: skipped \(the upstream did not answer/.test(message)) return true;
  // `<name>: <class> as from <upstream>`; class `answer` is the healthy one (answer-compare.ts answerClass).
  const m = /: (\S+) as from \S+/.exec(message);
  return m !== null && m[1] !== 'answer';
}
