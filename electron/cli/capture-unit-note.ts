/**
 * `k2s-dns queries` once no companion runs (K2s DNS stopped): the capture unit's state when it is
 * not inactive (shared/capture-unit-state.ts) — failed after a companion killed mid-drain, whose
 * last rows may be missing, or still deactivating (hung on SIGTERM). Asked only on systemd
 * (/run/systemd/system, sd_booted(3)) with the unit's file there: one `systemctl show`, never on
 * the path of a running capture's queries.
 */
import { execFile } from 'node:child_process';
import { lstat } from 'node:fs/promises';
import { captureUnitState, type CaptureUnitState } from '../../shared/capture-unit-state';
import { CAPTURE_UNIT_NAME } from '../../shared/capture-unit';
import { K2S_PATHS } from '../../shared/k2s-paths';
import { parseUnitRunState, SHOW_PROPERTIES } from '../../shared/systemd-show';

/** `systemctl show` of the capture unit's SHOW_PROPERTIES, its stdout; null when it failed. */
export type ShowCapture = () => Promise<string | null>;

/** Runs systemctl show for the capture unit (5 s at most). */
const showCapture: ShowCapture = () =>
  new Promise((resolve) => {
    execFile('systemctl', ['show', ...SHOW_PROPERTIES.flatMap((p) => ['-p', p]), `${CAPTURE_UNIT_NAME}.service`], { timeout: 5_000, encoding: 'utf8' }, (err, stdout) => resolve(err ? null : stdout));
  });

/** The unit's state when it is not inactive; null when inactive, not on systemd, without its file, or unknown. */
export async function captureUnitNote(show: ShowCapture = showCapture, exists: (p: string) => Promise<boolean> = (p) => lstat(p).then(() => true, () => false)): Promise<CaptureUnitState | null> {
  if (!(await exists('/run/systemd/system')) || !(await exists(K2S_PATHS.captureUnit))) return null;
  const out = await show();
  return out === null ? null : captureUnitState(parseUnitRunState(out));
}
