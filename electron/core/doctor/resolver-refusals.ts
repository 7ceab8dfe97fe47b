/**
 * Doctor checks for the two layouts start refuses (docs/host-facts.md "Host resolver traps"): an immutable
 * /etc/resolv.conf (chattr(1) +i) and one that is itself a mount point (bind mount: containers, WSL).
 */
import type { DoctorFinding } from '../../../shared/doctor';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { isBindMounted } from '../host/mounts';
import type { DoctorContext } from './context';
import { shellCommand } from '../../../shared/fix';

/** `resolv-immutable`: error when /etc/resolv.conf has the immutable flag (lsattr -d). */
export function checkImmutable(ctx: DoctorContext): DoctorFinding {
  const base = { id: 'resolv-immutable', title: 'Immutable /etc/resolv.conf' };
  if (ctx.currentError !== null) {
    return { ...base, severity: 'error', title: '/etc/resolv.conf is not a readable resolver', meaning: `/etc/resolv.conf cannot be read as a resolver: ${ctx.currentError}`, fix: 'Replace it with a regular resolv.conf (or a symlink to one), then run doctor again.' };
  }
  if (ctx.current?.kind === 'file' && ctx.current.immutable) {
    return {
      ...base,
      severity: 'error',
      title: '/etc/resolv.conf is immutable (chattr +i)',
      meaning: '/etc/resolv.conf has the immutable flag (chattr +i), so it cannot be replaced by rename and k2s-dns start refuses (IMMUTABLE).',
      fix: `Run \`${shellCommand('chattr -i /etc/resolv.conf', true)}\` if K2s may manage it (k2s-dns stop puts the flag back with the original).`,
      detail: { path: K2S_PATHS.resolvConf },
    };
  }
  if (ctx.current?.kind === 'file' && ctx.currentNotes.length > 0) {
    return {
      ...base,
      severity: 'info',
      title: 'Immutable flag of /etc/resolv.conf unknown',
      meaning: `The immutable flag could not be read: ${ctx.currentNotes.join(' ')}`,
      fix: 'Run `lsattr -d /etc/resolv.conf` as root; an `i` in the flags means start will be refused.',
      detail: { notes: ctx.currentNotes },
    };
  }
  return {
    ...base,
    severity: 'ok',
    title: '/etc/resolv.conf is not immutable',
    meaning: ctx.current?.kind === 'symlink' ? '/etc/resolv.conf is a symlink; the link itself is replaced, so a flag on its target does not matter.' : '/etc/resolv.conf is not immutable.',
    fix: null,
  };
}

/** `resolv-bind-mount`: error when /etc/resolv.conf is a mount point in /proc/self/mountinfo. */
export async function checkBindMounted(ctx: DoctorContext): Promise<DoctorFinding> {
  const base = { id: 'resolv-bind-mount', title: 'Bind-mounted /etc/resolv.conf' };
  const path = ctx.deps.fs.real(K2S_PATHS.resolvConf);
  if (isBindMounted(path, await ctx.deps.mountinfo())) {
    return {
      ...base,
      severity: 'error',
      title: '/etc/resolv.conf is bind-mounted',
      meaning: '/etc/resolv.conf is a mount point (a container or WSL layout), so rename over it fails with EBUSY and k2s-dns start refuses (BIND_MOUNTED).',
      fix: 'Manage DNS on the host that mounts the file (the container host), not inside it.',
      detail: { mountPoint: path },
    };
  }
  return { ...base, severity: 'ok', title: '/etc/resolv.conf is not bind-mounted', meaning: '/etc/resolv.conf is not a mount point, so it can be replaced by rename.', fix: null };
}
