/**
 * The sandbox's private /etc (e2e/bed/inner.sh) is a copy of the host's without /etc/kubernetes:
 * on a K2s host that holds the real cluster's admin.conf, which the CLI's kubeconfig lookup tries
 * before $KUBECONFIG, the sandbox's (README; walk 18 H1: the sandbox's `zones` and `start` went to
 * the host's API server). Here a nested inner.sh copies this sandbox's /etc (already a private
 * copy, so writing /etc/kubernetes there never touches the host's) and must leave it out.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: sandbox-etc-kubernetes e2e runs only inside e2e/bed/sandbox.sh (as root)');

describe.skipIf(!inSandbox)("the sandbox's private /etc", () => {
  it('has no /etc/kubernetes even when the /etc it copies has an admin.conf', () => {
    // This sandbox's own inner.sh left it out already (the host's, if any).
    expect(existsSync('/etc/kubernetes')).toBe(false);
    mkdirSync('/etc/kubernetes');
    try {
      writeFileSync('/etc/kubernetes/admin.conf', 'apiVersion: v1\nkind: Config\n');
      const r = spawnSync(
        'unshare',
        ['--net', '--mount', '--propagation', 'private', '--pid', '--fork', '--mount-proc', '--kill-child', 'bash', join(__dirname, 'bed', 'inner.sh'), 'sh', '-c', 'ls -A /etc/kubernetes 2>&1 || true; test -e /etc/nsswitch.conf && echo copied'],
        { encoding: 'utf8', env: { ...process.env, K2S_DNS_HOST_MNTNS: readlinkSync('/proc/self/ns/mnt') }, timeout: 60_000 },
      );
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe("ls: cannot access '/etc/kubernetes': No such file or directory\ncopied\n");
      // The /etc it copied keeps its file: only the copy loses it.
      expect(existsSync('/etc/kubernetes/admin.conf')).toBe(true);
    } finally {
      rmSync('/etc/kubernetes', { recursive: true, force: true });
    }
  }, 90_000);
});
