/**
 * `k2s-dns zones` with a kubeconfig it cannot use: exit 3 for every such file, as start refuses
 * it (breaker finding 4: 1 for invalid YAML and a directory), its help's exit statuses those of a
 * read-only command, and a root-only file named as such to a user (breaker finding 1).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runMain as run } from './run-main.fixture';
import { commandUsage } from './usage';
import { setCliKubeconfig, setKubectlKubeconfig } from '../../shared/fix';

const tmp = mkdtempSync(join(tmpdir(), 'k2s-dns-zoneskc-'));
chmodSync(tmp, 0o755);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
afterEach(() => {
  setCliKubeconfig(null);
  setKubectlKubeconfig(null);
});

describe('zones: a kubeconfig it cannot use is refused, exit 3', () => {
  it('missing, not valid YAML, a directory: exit 3 and the file\'s own problem', async () => {
    const missing = await run(['zones', '--kubeconfig', join(tmp, 'none.yaml')]);
    expect(missing).toEqual({ code: 3, stdout: '', stderr: `The kubeconfig ${join(tmp, 'none.yaml')} does not exist; check the path (--kubeconfig; for the app: npm start -- --kubeconfig PATH).\n` });
    const bad = join(tmp, 'bad.yaml');
    writeFileSync(bad, 'a: [\n  b: : c\n');
    expect(await run(['zones', '--kubeconfig', bad])).toEqual({ code: 3, stdout: '', stderr: `The kubeconfig ${bad} is not valid YAML (line 2); fix the file or pass another with --kubeconfig.\n` });
    const dir = join(tmp, 'a-dir');
    mkdirSync(dir);
    expect(await run(['zones', '--kubeconfig', dir])).toEqual({ code: 3, stdout: '', stderr: `The kubeconfig ${dir} is not a regular file; pass the kubeconfig file itself with --kubeconfig.\n` });
  });

  it('zones --help gives a read-only command\'s exit statuses, not start/stop\'s rollback', () => {
    const help = commandUsage('zones');
    expect(help).toContain(`Exit status: 0 the zones printed; 1 the cluster could not be read (API server unreachable,
credentials rejected, or an answer that is not the expected object); 2 usage; 3 no kubeconfig
that can be used (none found, missing, not readable by this user, not a file, not valid YAML…).
`);
    expect(help).not.toMatch(/rolled back|nothing changed/);
  });

  const isRoot = process.geteuid?.() === 0;
  const hasSetpriv = spawnSync('setpriv', ['--version']).status === 0;
  // The lookup tries /etc/kubernetes/admin.conf first: on a K2s host it would be the one named.
  const noAdminConf = !existsSync('/etc/kubernetes/admin.conf');
  const CLI = fileURLToPath(new URL('../../bin/k2s-dns.mjs', import.meta.url));

  /** `k2s-dns ARGS` as uid/gid 65534 (nobody) with `env`, through the sources (tsx). */
  function asNobody(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve, reject) => {
      const p = spawn('setpriv', ['--reuid', '65534', '--regid', '65534', '--clear-groups', '--', 'env', '-u', 'KUBECONFIG', '-u', 'SUDO_USER', '-u', 'PKEXEC_UID', '-u', 'K2S_DNS_CLI', 'HOME=/', 'K2S_DNS_FROM_SOURCE=1', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), process.execPath, CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      p.on('error', reject);
      p.on('close', (code) => resolve({ code, stderr }));
    });
  }

  it.skipIf(!isRoot || !hasSetpriv || !noAdminConf)('a root-only kubeconfig, named or in $KUBECONFIG: it exists, only root reads it, and zones as root (skipped without root/setpriv, or with an admin.conf)', async () => {
    const kc = join(tmp, 'admin.conf');
    writeFileSync(kc, 'apiVersion: v1\n', { mode: 0o600 });
    const asRoot = `run zones as root: \`sudo npx k2s-dns zones --kubeconfig ${kc}\`, or \`su -c 'npx k2s-dns zones --kubeconfig ${kc}'\` where sudo is not installed`;
    const named = await asNobody(['zones', '--kubeconfig', kc], {});
    expect(named).toEqual({ code: 3, stderr: `The kubeconfig ${kc} exists, but only root can read it; ${asRoot}.\n` });
    const inEnv = await asNobody(['zones'], { KUBECONFIG: kc });
    expect(inEnv).toEqual({ code: 3, stderr: `No kubeconfig this user can read (tried /etc/kubernetes/admin.conf, ${kc}, /.kube/config): ${kc} exists, but only root can read it; ${asRoot}, or pass --kubeconfig with one you can read.\n` });
  }, 120_000);
});
