/**
 * A fix is data, rendered per front end: the desktop app shows `gui` (a button
 * or a step in the app, never a shell command of ours) and offers `action` as a button; the CLI
 * prints `cli` (a command line). One name per choice: the drift choice is "Keep their file" /
 * "Restore my original" in the banner, the Host DNS card, topology, doctor and CLI help alike.
 * Pure module: no Node or DOM imports.
 */

/** Front ends that render fixes. */
export type FrontEnd = 'gui' | 'cli';

/**
 * Buttons the app can offer for a fix: `start`/`stop` the lifecycle; `keep-theirs` and
 * `restore-original` stop after drift (dns:stop onDrift keep|restore); `show-diff` opens the
 * Resolver diff tab; `run-checks` re-runs Diagnostics; `choose-dnsmasq` picks the dnsmasq engine.
 */
export type FixAction = 'start' | 'stop' | 'keep-theirs' | 'restore-original' | 'show-diff' | 'run-checks' | 'choose-dnsmasq';

/** One fix: `gui` and `cli` are one sentence each; `action` is the button the app offers, or null. */
export interface Fix {
  action: FixAction | null;
  gui: string;
  cli: string;
}

/**
 * How the README runs the CLI (npm's bin link in the checkout): `npx k2s-dns`. Every CLI fix
 * text is built with cliCommand, so a remedy is a line the user can paste as the README says.
 */
export const CLI = 'npx k2s-dns';

/**
 * `args` as a command line of the CLI: `npx k2s-dns ARGS`; `root` commands (start, stop,
 * uninstall, recover: they change /etc/resolv.conf) get `sudo ` in front, as the README says
 * ("as root … or prefix it with sudo").
 */
export function cliCommand(args: string, root = false): string {
  return `${root ? 'sudo ' : ''}${CLI} ${args}`;
}

/** The two drift choices (resolv.conf rewritten by another program while K2s DNS ran), named once. */
export const DRIFT_CHOICE = {
  keep: { label: 'Keep their file', cli: cliCommand('stop --on-drift keep', true), what: 'stop K2s DNS and leave the /etc/resolv.conf the other program wrote' },
  restore: { label: 'Restore my original', cli: cliCommand('stop --on-drift restore', true), what: 'stop K2s DNS and put back the exact original saved at start' },
} as const;

/** Button label of each action, as the app shows it (drift choices from DRIFT_CHOICE). */
export const ACTION_LABEL: Record<FixAction, string> = {
  start: 'Start',
  stop: 'Stop',
  'keep-theirs': DRIFT_CHOICE.keep.label,
  'restore-original': DRIFT_CHOICE.restore.label,
  'show-diff': 'Open Resolver diff',
  'run-checks': 'Run checks',
  'choose-dnsmasq': 'Use dnsmasq',
};

/** The text of `fix` for `frontEnd`. */
export function fixText(fix: Fix, frontEnd: FrontEnd): string {
  return frontEnd === 'gui' ? fix.gui : fix.cli;
}
