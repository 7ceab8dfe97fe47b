/**
 * What `k2s-dns ui` and `k2s-dns app` say about where they run: before serving, what Start, Stop
 * and Uninstall will change; after, the URL and who can open it. Run through the sandbox's
 * k2s-dns (`npm run sandbox` prints it; e2e/sandbox-cli-wrapper.ts), the web server listens in the
 * sandbox's network namespace, so its 127.0.0.1 URL answers only there, and its buttons change the
 * sandbox's /etc/resolv.conf, never this host's (new-user walk: it warned "Running as root: …
 * this host's real /etc/resolv.conf" and printed a URL no browser out here could open).
 */
import { cliWrapper, sandboxNameserver } from '../core/cli-invocation';

/**
 * True when this CLI runs through the sandbox's k2s-dns: the wrapper sets $K2S_DNS_CLI and
 * $K2S_DNS_SANDBOX_NAMESERVER (electron/core/cli-invocation.ts), and enters the sandbox's network,
 * mount and PID namespaces before it runs the CLI.
 */
export function inSandbox(env: Record<string, string | undefined> = process.env): boolean {
  return cliWrapper(env) !== null && sandboxNameserver(env) !== null;
}

/**
 * The line printed before serving, or null: in the sandbox, that the buttons act on the
 * sandbox's /etc/resolv.conf; as root elsewhere, that they change this host's real one at once,
 * without a password (README "Quick start": run as root, the app asks nothing).
 */
export function uiBeforeNotice(uid: number | undefined, env: Record<string, string | undefined> = process.env): string | null {
  if (inSandbox(env)) return "In the sandbox of npm run sandbox: Start, Stop and Uninstall change the sandbox's /etc/resolv.conf, not this host's.";
  if (uid === 0) return "Running as root: Start, Stop and Uninstall will change this host's real /etc/resolv.conf without asking (try them in `npm run sandbox` first).";
  return null;
}

/**
 * The lines naming the web mode's `url` (its token in the fragment, never sent to a server). In
 * the sandbox they say that the URL answers only inside it, and which URL to open in a browser:
 * the one `npm run sandbox` printed (its port bridge reaches the sandbox's own app from out here).
 */
export function uiUrlLines(url: string, env: Record<string, string | undefined> = process.env): string {
  const token = 'the token after # is new for every launch and stays in that browser tab, never in a cookie. Ctrl-C stops it.';
  if (!inSandbox(env)) return `K2s DNS is open at ${url}\n(127.0.0.1 only; ${token})\n`;
  return (
    `K2s DNS is open at ${url} inside the sandbox only: that address answers in the sandbox's network namespace (its nsenter … bash shell), not in a browser out here.\n` +
    'For the app in your browser, open the URL npm run sandbox printed; the sandbox\'s k2s-dns is for the CLI commands (status, start, stop, query, …).\n' +
    `(${token})\n`
  );
}
