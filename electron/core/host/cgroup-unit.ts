/** The systemd system service a process runs in, from its /proc/PID/cgroup text. Pure. */

/** A user manager's own unit (user@.service(5)): `user@UID.service`. */
const USER_MANAGER = /^user@\d+\.service$/;

/**
 * The system `.service` unit named by `cgroupText` (the lines of /proc/PID/cgroup, proc(5):
 * `HIERARCHY-ID:CONTROLLERS:PATH`; the cgroup v2 line is `0::PATH`, cgroup v1's systemd one is
 * `N:name=systemd:PATH`), e.g. `dnsmasq.service` for `0::/system.slice/dnsmasq.service`: the
 * last path component ending in `.service` (a service may nest cgroups of its own below it,
 * systemd.resource-control(5) Delegate=). Null when the process is in no service (a `.scope`:
 * a login session, a container; `init.scope`; the root `/` of a cgroup namespace), or in a user
 * manager's tree (`user@UID.service`: `systemctl stop` as root does not reach it), or the text
 * names none. Only a unit read here may be offered as `systemctl stop UNIT`; a process name is
 * no unit name.
 */
export function serviceUnitOfCgroup(cgroupText: string): string | null {
  const parts = cgroupPath(cgroupText);
  if (parts === null) return null;
  if (parts.some((p) => USER_MANAGER.test(p))) return null;
  const unit = [...parts].reverse().find((p) => p.endsWith('.service'));
  // A unit name is `[A-Za-z0-9:_.\\@-]` (systemd.unit(5)); anything else is not printed as a command.
  return unit !== undefined && /^[A-Za-z0-9:_.\\@-]+\.service$/.test(unit) ? unit : null;
}

/**
 * Whether `cgroupText` (/proc/PID/cgroup, as serviceUnitOfCgroup reads it) puts the process in a
 * `.service` unit's cgroup: a system service, a service of a user manager (`user@UID.service/…/
 * NAME.service`), or a sub-cgroup of either. systemd kills such a cgroup, children included, once
 * the service's main process exits (KillMode=control-group, systemd.kill(5)), even a child in a
 * session of its own. `user@UID.service` itself is not such a service here: its main process is
 * the user manager, which outlives the command, and a desktop's terminals and apps (the desktop
 * app's pkexec helper included) run in scopes below it (`app.slice/app-….scope`), not killed as
 * the command exits. True also when the text names no cgroup line (not known: taken as the case
 * that must wait); false for a scope (a login session, a container, a desktop app), `init.scope`
 * or a path outside this cgroup namespace's view (`/..`, a process entered from outside it).
 */
export function inServiceCgroup(cgroupText: string): boolean {
  return cgroupPath(cgroupText)?.some((p) => p.endsWith('.service') && !USER_MANAGER.test(p)) ?? true;
}

/**
 * The components of the path systemd keeps its units in, from a /proc/PID/cgroup text: the cgroup
 * v2 line's (`0::PATH`: unified and hybrid layouts), else cgroup v1's `name=systemd` one; null
 * when it has neither. Once cgroup v2 was mounted anywhere (a container runtime, a tool), the
 * kernel lists a `0::` line for every process (kernel/cgroup/cgroup.c proc_cgroup_show,
 * cgrp_dfl_visible), `0::/` while systemd runs the legacy (v1-only) layout and keeps its units in
 * the `name=systemd` hierarchy: then that line says where the process is.
 */
function cgroupPath(cgroupText: string): string[] | null {
  const lines = cgroupText.split('\n');
  const pathOf = (line: string) => line.slice(line.indexOf(':', line.indexOf(':') + 1) + 1).trim().split('/').filter((p) => p !== '');
  const v2 = lines.find((l) => l.startsWith('0::'));
  const v1 = lines.find((l) => /^\d+:name=systemd:/.test(l));
  if (v2 !== undefined && (v1 === undefined || pathOf(v2).length > 0)) return pathOf(v2);
  return v1 === undefined ? null : pathOf(v1);
}
