/**
 * Is the privileged path in place? Looked at before EVERY Start, Stop and Uninstall of a
 * non-root app (not once at launch: a helper installed or removed meanwhile counts at once):
 * the root-owned helper the polkit action pins, pkexec, and the action itself. Each missing
 * piece is its own refusal naming the command that fixes it; nothing runs, nothing changes.
 * Paths: the package layout (scripts/package/layout.ts) and resources/io.k2s.dns.policy.
 */
import { lstatSync } from 'node:fs';
import type { ErrorCode } from '../../shared/error-codes';

/** The command a user runs once to install the root-owned helper from a checkout. */
export const INSTALL_HELPER_COMMAND = 'sudo bash scripts/install-helper.sh';

/** The launcher the polkit action's exec.path pins (resources/io.k2s.dns.policy). */
export const INSTALLED_HELPER = '/usr/lib/k2s-dns/k2s-dns-helper';
/** The one-file bundle the launcher runs. */
export const INSTALLED_HELPER_BUNDLE = `${INSTALLED_HELPER}.mjs`;
/** Where the deb/rpm packages (and scripts/install-helper.sh) put the polkit action. */
export const INSTALLED_POLICY = '/usr/share/polkit-1/actions/io.k2s.dns.policy';
/** pkexec, by absolute path: never one found on the user's PATH (it would see the password prompt). */
export const PKEXEC_PATH = '/usr/bin/pkexec';

/** What lstat(2) says about a path that matters here; null when it does not exist. */
export interface FileFacts {
  kind: 'file' | 'dir' | 'other';
  uid: number;
  /** Permission bits (mode & 0o7777). */
  mode: number;
}

/** lstat, injected (tests give a table). */
export type StatFn = (path: string) => FileFacts | null;

/** The real lstat: no symlink is followed, so a link to a user-writable file is `other`. */
export const nodeStat: StatFn = (path) => {
  try {
    const s = lstatSync(path);
    return { kind: s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other', uid: s.uid, mode: s.mode & 0o7777 };
  } catch {
    return null;
  }
};

/** The refusal codes of a missing piece. */
export type InstallGapCode = Extract<ErrorCode, 'HELPER_NOT_INSTALLED' | 'PKEXEC_MISSING' | 'POLICY_MISSING'>;

/** One missing piece: its code and what to run (the caller prefixes the verb, suffixes "Nothing changed."). */
export interface InstallGap {
  code: InstallGapCode;
  message: string;
}

// A package file's name holds the version the user downloaded: its path is said in prose, never as
// `<version>` in a line that looks runnable (walk 7 M4; pasted, the shell reads `<version>` as redirections).
const INSTALL_HINT = `install the k2s-dns package (\`sudo apt-get install\` followed by the .deb file's path, starting with ./ or /; or \`sudo rpm -i\` followed by the .rpm file's), or from a checkout after \`npm run build\`: ${INSTALL_HELPER_COMMAND}`;
const REINSTALL_HINT = `reinstall it: sudo apt-get install --reinstall k2s-dns (rpm: \`sudo rpm -U --replacepkgs\` followed by the .rpm file's path), or from a checkout ${INSTALL_HELPER_COMMAND}`;

/** Why a path root would run is not safe to run as root: not root-owned, or writable by group or others. */
function unsafe(path: string, f: FileFacts): string | null {
  if (f.uid !== 0) return `${path} is owned by uid ${f.uid}, not root`;
  if (f.mode & 0o022) return `${path} is writable by ${f.mode & 0o002 ? 'every user' : 'its group'} (mode ${f.mode.toString(8).padStart(4, '0')})`;
  return null;
}

/**
 * The first missing or unsafe piece of the privileged path, in the order a fix needs them:
 * the helper (launcher, bundle and their directory: present, regular, root-owned, writable by
 * root only — else polkit's "run exactly this program" promise is worthless), then pkexec
 * (its own package on Debian 12/13; polkitd does not pull it in), then the polkit action.
 * @returns null when everything is in place
 */
export function findInstallGap(stat: StatFn = nodeStat): InstallGap | null {
  const dir = INSTALLED_HELPER.slice(0, INSTALLED_HELPER.lastIndexOf('/'));
  for (const [path, kind] of [[dir, 'dir'], [INSTALLED_HELPER, 'file'], [INSTALLED_HELPER_BUNDLE, 'file']] as const) {
    const f = stat(path);
    if (!f) return { code: 'HELPER_NOT_INSTALLED', message: `needs root through the K2s DNS helper, which is not installed (${path === dir ? INSTALLED_HELPER : path} is missing; a checkout's own files are user-writable, so they are never run as root): ${INSTALL_HINT}; or run the app as root.` };
    const why = f.kind !== kind ? `${path} is not a ${kind === 'dir' ? 'directory' : 'regular file'}` : unsafe(path, f);
    if (why) return { code: 'HELPER_NOT_INSTALLED', message: `needs root through the K2s DNS helper, but ${why}, so it is not run as root: ${REINSTALL_HINT}.` };
  }
  const pk = stat(PKEXEC_PATH);
  if (!pk || pk.kind !== 'file' || !(pk.mode & 0o111)) {
    return { code: 'PKEXEC_MISSING', message: `runs the K2s DNS helper through pkexec, which is not installed (${PKEXEC_PATH}): sudo apt-get install pkexec (Fedora: sudo dnf install polkit).` };
  }
  const policy = stat(INSTALLED_POLICY);
  if (!policy || policy.kind !== 'file' || unsafe(INSTALLED_POLICY, policy)) {
    return { code: 'POLICY_MISSING', message: `needs the polkit action io.k2s.dns.helper, which is ${policy ? `not safe (${policy.kind !== 'file' ? 'not a regular file' : unsafe(INSTALLED_POLICY, policy)})` : 'not installed'} (${INSTALLED_POLICY}), so pkexec would not run the helper: ${REINSTALL_HINT}.` };
  }
  return null;
}
