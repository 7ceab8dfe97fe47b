/**
 * AdGuard dnsproxy's argv (dnsproxy README "Usage"). Apart from the config renderer
 * (shared/dnsproxy-config.ts, which loads the `yaml` and `tldts` packages) so that every command
 * that only names the engine's command line (status, stop, the health probes) loads neither.
 */

/**
 * argv for dnsproxy after the binary: `--config-path=<path>` and `-v` when verbose. No
 * `--output`: the service manager appends stdout/stderr to the log file itself.
 * Throws when the path is not absolute or holds characters outside a plain path.
 */
export function renderDnsproxyArgs(configPath: string, verbose: boolean): string[] {
  if (!/^\/[A-Za-z0-9._/-]+$/.test(configPath)) {
    throw new Error(`Config path "${configPath}" must be an absolute plain path (letters, digits, . _ - /); use /etc/k2s/dnsproxy.yaml.`);
  }
  return verbose ? [`--config-path=${configPath}`, '-v'] : [`--config-path=${configPath}`];
}
