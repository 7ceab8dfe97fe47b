/**
 * New user: `start` as a user who is not root, with $KUBECONFIG naming a root-only file (as the
 * sandbox wrapper's kubeconfig is), was refused with NOT_ROOT naming `--kubeconfig PATH`: the
 * user's lookup skips a file it may not read, and sudo drops $KUBECONFIG, so the printed line
 * must name that file (electron/cli/name-kubeconfig.ts kubeconfigAsked). Without $KUBECONFIG and
 * with no kubeconfig anywhere, `PATH` stays. Runs the CLI as uid 65534 (setpriv(1)) in the sandbox.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: start-not-root-kubeconfig e2e runs only inside e2e/bed/sandbox.sh (as root)');

const BIN = fileURLToPath(new URL('../bin/k2s-dns.mjs', import.meta.url));
const REPO = fileURLToPath(new URL('..', import.meta.url));

/** `k2s-dns ARGS` as uid:gid 65534 with no groups, HOME /, $KUBECONFIG `kubeconfig` (unset when null). */
function asUser(args: string[], kubeconfig: string | null): Promise<{ code: number; stdout: string }> {
  // npm_command: run as node itself (not under `npx vitest`'s exec), so hints name `node bin/k2s-dns.mjs` (electron/cli/app-launch.ts cliLaunchName).
  const { KUBECONFIG: _, K2S_DNS_SANDBOX_KUBECONFIG: _s, npm_command: _n, ...env } = process.env;
  return new Promise((resolve) => {
    execFile('setpriv', ['--reuid', '65534', '--regid', '65534', '--clear-groups', '--', process.execPath, BIN, ...args], { timeout: 60_000, cwd: REPO, env: { ...env, HOME: '/', ...(kubeconfig ? { KUBECONFIG: kubeconfig } : {}) } }, (err, stdout) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout });
    });
  });
}

describe.skipIf(!inSandbox)("NOT_ROOT's start line names the kubeconfig $KUBECONFIG gives, root-only or not", () => {
  let dir = '';
  let file = '';
  beforeAll(async () => {
    dir = await mkdtemp('/tmp/k2s-not-root-');
    await chmod(dir, 0o755);
    file = path.join(dir, 'kubeconfig');
    await writeFile(file, 'apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n', { mode: 0o600 });
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a root-only $KUBECONFIG: named, not PATH; none at all: PATH', async () => {
    const named = await asUser(['start'], file);
    expect(named.code).toBe(3);
    expect(named.stdout).toContain(`run it as root: \`sudo node bin/k2s-dns.mjs start --kubeconfig ${file}\`, or \`su -c 'node bin/k2s-dns.mjs start --kubeconfig ${file}'\` where sudo is not installed`);
    expect(named.stdout).toContain('REFUSED [NOT_ROOT]');
    const none = await asUser(['start'], null);
    expect(none.code).toBe(3);
    expect(none.stdout).toContain('`sudo node bin/k2s-dns.mjs start --kubeconfig PATH`');
    // New user (session 30): no `npx k2s-dns` line for a user (npm's cache refuses it on a root-owned checkout).
    expect(none.stdout).not.toContain('npx k2s-dns');
  });
});
