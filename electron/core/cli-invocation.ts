/**
 * How the user of THIS install runs the CLI, so fix texts (shared/fix.ts cliCommand) are lines
 * they can paste: the packages put the app in /usr/lib/k2s-dns and its launcher on PATH as
 * /usr/bin/k2s-dns (scripts/package/layout.ts), so code running from there says `k2s-dns`; a
 * checkout runs it through npm's bin link, `npx k2s-dns` (the README's "The CLI").
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { setCliName, setSandboxKubeconfig, type CliName } from '../../shared/fix';
import { APP_ROOT } from './app-root';

/** The packages' application directory (scripts/package/layout.ts LIB_DIR), with a trailing slash as APP_ROOT has it. */
export const PACKAGED_APP_ROOT = '/usr/lib/k2s-dns/';
/** The packages' launcher on PATH (scripts/package/layout.ts, resources/packaging/k2s-dns). */
export const PACKAGED_LAUNCHER = '/usr/bin/k2s-dns';

/**
 * PACKAGED_LAUNCHER when the running code is the package's (`here`, its directory, is
 * PACKAGED_APP_ROOT or its dist/) and the launcher is there, else null: a companion started as
 * `k2s-dns VERB` then runs from the CLI's startup snapshot while the snapshot is current (the
 * launcher checks), else from the script. Never from a checkout that happens to sit beside a
 * package, nor from a look-alike directory.
 */
export function packagedLauncher(here: string, exists: (p: string) => boolean = existsSync): string | null {
  const dir = path.join(here, '/');
  return (dir === PACKAGED_APP_ROOT || dir === `${PACKAGED_APP_ROOT}dist/`) && exists(PACKAGED_LAUNCHER) ? PACKAGED_LAUNCHER : null;
}

/**
 * The environment variable naming a wrapper that runs this CLI (an absolute path, one shell
 * word), e.g. the sandbox's DIR/k2s-dns, which enters the sandbox's namespaces as root: fix texts
 * then name it, without `sudo`, so a pasted line acts where the user's K2s DNS runs. Such a
 * wrapper also runs `WRAPPER sh -c 'CMD'` there (e2e/sandbox-cli-wrapper.ts): a fix's commands
 * of other programs (`chmod o-w /etc/resolv.conf`) are printed through it (shared/fix.ts shellCommand).
 */
export const CLI_WRAPPER_ENV = 'K2S_DNS_CLI';

/** A $K2S_DNS_CLI value that is an absolute path of shell-safe characters, else null (ignored). */
export function cliWrapper(env: Record<string, string | undefined> = process.env): string | null {
  const w = env[CLI_WRAPPER_ENV];
  return w && /^\/[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : null;
}

/**
 * The environment variable the sandbox of `npm run sandbox` sets beside $K2S_DNS_CLI (in its
 * process and in its wrapper's env, e2e/sandbox-cli-wrapper.ts): the nameserver of its network
 * (the test bed's upstream, 192.0.2.53). It says this runtime is that sandbox: a fix that asks
 * for a resolver file then names a whole command that writes one there, through the wrapper, and
 * an unreachable API's message and fix name the sandbox's control instead of `k2s status` and
 * `k2s start` (shared/fix.ts resolverFileWays, clusterStartWays). Read only with a wrapper;
 * ignored unless an IPv4 address.
 */
export const SANDBOX_NAMESERVER_ENV = 'K2S_DNS_SANDBOX_NAMESERVER';

/**
 * The environment variable the sandbox of `npm run sandbox` sets beside SANDBOX_NAMESERVER_ENV
 * (its wrapper's env, e2e/sandbox-cli-wrapper.ts; its own process, e2e/sandbox-app.ts): the path
 * of its kubeconfig, whose API server is the test bed's. Only an unreachable API read through that
 * kubeconfig is called the sandbox's test API (shared/fix.ts clusterStartWays); another one (a
 * `--kubeconfig` naming a real cluster) gets the host's words. Read only with a wrapper.
 */
export const SANDBOX_KUBECONFIG_ENV = 'K2S_DNS_SANDBOX_KUBECONFIG';

/** A $K2S_DNS_SANDBOX_NAMESERVER value that is a dotted-quad IPv4 address, else null (ignored). */
export function sandboxNameserver(env: Record<string, string | undefined> = process.env): string | null {
  const ip = env[SANDBOX_NAMESERVER_ENV];
  return ip && /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(ip) ? ip : null;
}

/** The wrapper of cliWrapper; else `k2s-dns` when `appRoot` (the directory this code runs from, APP_ROOT) is the packaged one, else `npx k2s-dns`. */
export function cliInvocation(appRoot: string = APP_ROOT, env: Record<string, string | undefined> = process.env): CliName {
  return cliWrapper(env) ?? (appRoot === PACKAGED_APP_ROOT ? 'k2s-dns' : 'npx k2s-dns');
}

/** Tells shared/fix.ts how this runtime's CLI is run (and whether it is the sandbox: SANDBOX_NAMESERVER_ENV); each entry (CLI, helper, Electron main) calls it once at start. */
export function useCliInvocation(appRoot: string = APP_ROOT, env: Record<string, string | undefined> = process.env): CliName {
  const name = cliInvocation(appRoot, env);
  const wrapper = cliWrapper(env) !== null;
  setCliName(name, !wrapper, wrapper, wrapper ? sandboxNameserver(env) : null);
  setSandboxKubeconfig(wrapper ? env[SANDBOX_KUBECONFIG_ENV] || null : null);
  return name;
}
