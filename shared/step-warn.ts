/**
 * Display rule for a finished lifecycle step that passed but carries a doubt the user should see.
 * The verify step's external check (electron/core/lifecycle/verify.ts) passes when the proxy gives the
 * same answer class as the upstream itself, NXDOMAIN included: `kubernetes.io: nxdomain as from
 * 192.0.2.53`. A real name answered NXDOMAIN means the upstream may not resolve Internet names,
 * so the step is drawn with a warning mark (CLI `!`, the window's amber), the same rule as an
 * upstream hop answering other than NOERROR (shared/health.ts hopMark). Display only: the
 * step's pass/fail is unchanged. Pure module: no Node or DOM imports.
 */

/** True when a `done` verify step's message shows the external check answered other than with an address, or was skipped. */
export function stepWarns(step: string, status: string, message: string): boolean {
  if (step !== 'verify' || status !== 'done') return false;
  // `<name>: skipped (the upstream did not answer…)`: the external check never ran (the result
  // carries UPSTREAM_UNVERIFIED), so the step is no plain ✓ either.
  if (/: skipped \(the upstream did not answer/.test(message)) return true;
  // `<name>: <class> as from <upstream>`; class `answer` is the healthy one (answer-compare.ts answerClass).
  const m = /: (\S+) as from \S+/.exec(message);
  return m !== null && m[1] !== 'answer';
}
