/**
 * The one shape of K2s's small root companion units (pure): the exact query log's capture
 * (capture-unit.ts) and the systemd-resolved route (resolved-route-unit.ts). Each is a
 * Type=simple service tied to k2s-dnsproxy.service (COMPANION_TIE: started with it, stopped and
 * restarted with it, never alone), restarted on failure 1 s later at most 10 times a minute
 * (systemd.unit(5) StartLimitIntervalSec=/StartLimitBurst=, systemd.service(5) Restart=).
 */
import { COMPANION_TIE, COMPANION_WANTED_BY, quoteExecWord } from './systemd-unit';

/** What differs between the companion units. */
export interface CompanionUnitSpec {
  /** The two comment lines at the top, without `# ` (the first starts "Managed by k2s-dns: …"). */
  header: readonly [string, string];
  description: string;
  /** Documentation= value, e.g. `man:tcpdump(8)`. */
  documentation: string;
  /** [Unit] lines after COMPANION_TIE (e.g. `After=systemd-resolved.service`). */
  unitExtra?: readonly string[];
  /** ExecStart= words; argv[0] absolute (the caller checks). */
  argv: readonly string[];
  /** [Service] lines between ExecStart= and Restart= (kill mode, umask, sandboxing). */
  service: readonly string[];
}

/** The unit text of `spec`, LF lines with a final newline. */
export function renderCompanionUnit(spec: CompanionUnitSpec): string {
  return [
    `# ${spec.header[0]}`,
    `# ${spec.header[1]}`,
    '[Unit]',
    `Description=${spec.description}`,
    `Documentation=${spec.documentation}`,
    ...COMPANION_TIE,
    ...(spec.unitExtra ?? []),
    'StartLimitIntervalSec=60s',
    'StartLimitBurst=10',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${spec.argv.map(quoteExecWord).join(' ')}`,
    ...spec.service,
    'Restart=on-failure',
    'RestartSec=1s',
    '',
    '[Install]',
    `WantedBy=${COMPANION_WANTED_BY}`,
    '',
  ].join('\n');
}
