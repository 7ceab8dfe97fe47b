/**
 * A resolver file a user could write (shared/network-writer.ts resolverOwnerRefusal, the network
 * follower's rule: owned by a user account, writable by every user, or by a group other than
 * root's) where K2s DNS keeps or runs one, in the words and fixes each front end shows:
 * - the saved original while a start is recorded: stop puts it back with that owner and mode,
 *   so status, doctor and the window's Host DNS card keep saying so (sixth walk M3: only the
 *   start's RESOLV_CONF_WRITABLE warning said it, once; electron/core/lifecycle/preflight.ts);
 * - K2s DNS's own /etc/resolv.conf made writable in place while it runs (`chmod 666`): any user
 *   can point the host's DNS elsewhere, and nothing said so until someone wrote it (sixth walk L1).
 * Commands of other programs than k2s-dns go through shared/fix.ts shellCommand (`sudo chmod …`,
 * or the sandbox's wrapper). Pure module.
 */
import { cliCommand, shellCommand, shellWord, type FrontEnd } from './fix';
import { FIRST_USER_UID, resolverOwnerProblem } from './network-writer';
import { codeSpan } from './code-span';

/** Owner and permission bits of a file (st_mode & 0o7777; only the permission bits are read). */
export interface FileOwner {
  uid: number;
  gid: number;
  mode: number;
}

/** The mode K2s DNS writes its /etc/resolv.conf with (owner root:root): what the live file's fix puts back. */
export const MANAGED_RESOLV_CONF_MODE = 0o644;

/**
 * The one command that makes a saved original pass the rule, for the rule's first failing case
 * (resolverOwnerProblem): `chown root:root` for a user account's file, else `chmod o-w` or
 * `chmod g-w` (the least change: the file's other bits are the user's choice); null when it passes.
 */
export function ownerFixCommand(owner: FileOwner): string | null {
  if (resolverOwnerProblem(owner) === null) return null;
  return owner.uid >= FIRST_USER_UID ? 'chown root:root /etc/resolv.conf' : owner.mode & 0o002 ? 'chmod o-w /etc/resolv.conf' : 'chmod g-w /etc/resolv.conf';
}

/**
 * The commands that make a file the network follower refused for its owner or mode pass its rule
 * (resolverOwnerProblem, the follower's resolverOwnerRefusal), so it follows that file at its next
 * look and K2s DNS keeps running (walk 11 M3): `chown root:root` for a user account's file (its
 * group becomes root's too), then `chmod o-w` when every user may write it, `chmod g-w` when a
 * group other than root's may (after no chown); each on `file` (chmod(1) and chown(1) follow a
 * symlink). Raw commands: the caller prints them through shared/fix.ts shellCommand. [] when it passes.
 */
export function followFixCommands(owner: FileOwner, file = '/etc/resolv.conf'): string[] {
  if (resolverOwnerProblem(owner) === null) return [];
  const out: string[] = [];
  const chown = owner.uid >= FIRST_USER_UID;
  if (chown) out.push(`chown root:root ${shellWord(file)}`);
  const bits = `${owner.mode & 0o020 && !chown && owner.gid !== 0 ? 'g' : ''}${owner.mode & 0o002 ? 'o' : ''}`;
  if (bits) out.push(`chmod ${bits}-w ${shellWord(file)}`);
  return out;
}

/**
 * followFixCommands as one line the user pastes: each command through shared/fix.ts shellCommand
 * as root (`sudo chmod o-w /etc/resolv.conf`, or the sandbox's wrapper), joined by ` && `. Null
 * when the rule passes.
 */
export function followFixLine(owner: FileOwner, file = '/etc/resolv.conf'): string | null {
  const commands = followFixCommands(owner, file);
  return commands.length === 0 ? null : commands.map((c) => shellCommand(c, true)).join(' && ');
}

/**
 * `STOP, FIX, then START` (CLI words) for an original a user could write that a start saved: stop
 * puts it back, the fix changes it there, and a start saves it fixed. `startLine` is the start to
 * run again, the one that prints it (electron/core/lifecycle/options.ts startLineOf: sixth walk
 * M1). Null when the rule passes.
 */
export function savedOriginalFix(owner: FileOwner, startLine: string): string | null {
  const fix = ownerFixCommand(owner);
  return fix === null ? null : `${cliCommand('stop', true)}, ${shellCommand(fix, true)}, then ${startLine}`;
}

/** What a resolver file a user could write means where it is, and its fix per front end (commands in backticks). */
export interface WritableResolverWords {
  /** What is wrong and why it matters. */
  meaning: string;
  /** The fix, one sentence per front end: the app's buttons and the command for a terminal; the CLI's command lines. */
  fix: Record<FrontEnd, string>;
}

/** `meaning` and the fix for `frontEnd` as one note (status's messages, the Host DNS card). */
export function writableNote(words: WritableResolverWords, frontEnd: FrontEnd): string {
  return `${words.meaning} ${words.fix[frontEnd]}`;
}

/**
 * The saved original fails the rule (sixth walk M3): stop puts it back so. What status, doctor
 * and the Host DNS card keep saying while it is saved; null when it passes.
 */
export function savedOriginalWritable(owner: FileOwner): WritableResolverWords | null {
  const what = resolverOwnerProblem(owner);
  const fix = ownerFixCommand(owner);
  if (what === null || fix === null) return null;
  const command = shellCommand(fix, true);
  return {
    meaning: `The saved original /etc/resolv.conf (the file stop puts back) is ${what}: stop puts it back with that owner and mode, and then a user can choose this host's DNS through it.`,
    fix: {
      gui: `To have it back fixed, press Stop, run \`${command}\` in a terminal, then press Start (that start saves it fixed).`,
      cli: `To have it back fixed, run \`${cliCommand('stop', true)}\`, \`${command}\`, then ${codeSpan(cliCommand('start', true))} (that start saves it fixed).`,
    },
  };
}

/**
 * The commands that give K2s DNS's own /etc/resolv.conf back what K2s writes it with
 * (MANAGED_RESOLV_CONF_MODE, root:root) for each failing case: `chown root:root` for a user
 * account's file (its owner could chmod it back), `chmod 644` for one writable by others or by a
 * group other than root's; [] when the rule passes.
 */
export function liveFixCommands(owner: FileOwner): string[] {
  if (resolverOwnerProblem(owner) === null) return [];
  const out: string[] = [];
  if (owner.uid >= FIRST_USER_UID) out.push('chown root:root /etc/resolv.conf');
  if (owner.mode & 0o002 || (owner.mode & 0o020 && owner.gid !== 0)) out.push(`chmod ${MANAGED_RESOLV_CONF_MODE.toString(8)} /etc/resolv.conf`);
  return out;
}

/**
 * K2s DNS's own /etc/resolv.conf fails the rule while it runs (sixth walk L1: `chmod 666` in place
 * was silent until someone wrote the file): the warning of status, doctor and the Host DNS card;
 * null when it passes.
 */
export function liveResolverWritable(owner: FileOwner): WritableResolverWords | null {
  const what = resolverOwnerProblem(owner);
  if (what === null) return null;
  const commands = liveFixCommands(owner).map((c) => `\`${shellCommand(c, true)}\``).join(', then ');
  return {
    meaning: `/etc/resolv.conf, the file K2s DNS wrote (mode 0644, owner root), is now ${what}: whoever may write it can point this host's DNS elsewhere, and K2s DNS says so only once it is written (a change it does not follow).`,
    fix: { gui: `Run ${commands} in a terminal.`, cli: `Run ${commands}.` },
  };
}

/**
 * /etc/resolv.conf fails the rule while no start is recorded (doctor, before a start): a start
 * would save it as it is and warn RESOLV_CONF_WRITABLE; null when it passes.
 */
export function currentResolverWritable(owner: FileOwner): WritableResolverWords | null {
  const what = resolverOwnerProblem(owner);
  const fix = ownerFixCommand(owner);
  if (what === null || fix === null) return null;
  const command = shellCommand(fix, true);
  return {
    meaning: `/etc/resolv.conf is ${what}: a start saves it as your original as it is (warning RESOLV_CONF_WRITABLE), stop puts it back so, and a user can choose this host's DNS through it.`,
    fix: { gui: `Run \`${command}\` in a terminal before pressing Start.`, cli: `Run \`${command}\` before starting.` },
  };
}
