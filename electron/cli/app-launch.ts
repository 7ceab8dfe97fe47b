/**
 * The command line that started this app in web mode (`k2s-dns ui|app`), without its own
 * `--kubeconfig`: what the window's "restart the app with a kubeconfig" fixes name
 * (shared/fix.ts appKubeconfigCommand), so the line works for the user who started it (new user,
 * session 30: after `npm start` as a user on a root-owned checkout the fix named `npx k2s-dns app
 * --kubeconfig PATH`, which fails there: npx copies the checkout into the user's npm cache,
 * `npm error code EPERM … syscall chmod`, README "The CLI").
 */
import path from 'node:path';

/**
 * `npm start --` when npm ran the package's `start` script (npm sets `npm_lifecycle_event`,
 * docs.npmjs.com "scripts": `npm start -- ARGS` passes ARGS on); `CLI VERB` when npx ran it
 * (`npm_command` `exec`) or the CLI is not a checkout's (`cli` is not `npx k2s-dns`: installed
 * `k2s-dns`, a wrapper); else, a checkout started with node itself, `node bin/k2s-dns.mjs VERB`
 * as the README names it (with the checkout's absolute path when `cwd` is elsewhere).
 * `appRoot`: the checkout's directory (electron/core/app-root.ts APP_ROOT).
 */
export function appLaunchLine(verb: 'ui' | 'app', cli: string, env: Record<string, string | undefined>, cwd: string, appRoot: string): string {
  if (cli !== 'npx k2s-dns') return `${cli} ${verb}`;
  if (verb === 'app' && env.npm_lifecycle_event === 'start') return 'npm start --';
  return `${cliLaunchName(cli, env, cwd, appRoot)} ${verb}`;
}

/**
 * The CLI as this process was started, for the commands its hints name: `cli` itself unless it is
 * the checkout's `npx k2s-dns` and npx did not run it (`npm_command` is not `exec`); then `node
 * bin/k2s-dns.mjs`, as the README names it (the checkout's absolute path when `cwd` is elsewhere).
 * For a user on a root-owned checkout `npx k2s-dns` fails (npm's cache: EPERM, README "The CLI"),
 * so a hint naming it could not run as printed (new user, session 30). `appRoot`: as appLaunchLine.
 */
export function cliLaunchName(cli: string, env: Record<string, string | undefined>, cwd: string, appRoot: string): string {
  if (cli !== 'npx k2s-dns' || env.npm_command === 'exec') return cli;
  const script = path.resolve(cwd) === path.resolve(appRoot) ? 'bin/k2s-dns.mjs' : path.join(appRoot, 'bin/k2s-dns.mjs');
  return `node ${script}`;
}
