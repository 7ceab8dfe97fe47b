import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helperFiles } from '../../scripts/package/layout';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const isRoot = process.getuid?.() === 0;

/** Runs a program; resolves to its exit code and output (never rejects). */
function run(file: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: REPO, env, timeout: 90_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

let tmp = '';
let dist = '';
let root = '';

/**
 * The package's helper files in a temp root: the bundles built fresh (scripts/build.mjs), then
 * the helper part of the package layout (scripts/package/layout.ts, what dpkg and rpm unpack),
 * copied with its modes. Far from the checkout: no node_modules, no tsx.
 */
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'k2s-dns-pkg-'));
  chmodSync(tmp, 0o755);
  dist = join(tmp, 'dist');
  const built = await run(process.execPath, ['scripts/build.mjs', '--bundles-only', '--outdir', dist]);
  expect(built.stderr).toBe('');
  expect(built.code).toBe(0);
  root = join(tmp, 'root');
  for (const f of helperFiles(REPO, dist)) {
    const dest = join(root, f.path);
    mkdirSync(dirname(dest), { recursive: true });
    copyFileSync(f.from, dest);
    chmodSync(dest, f.mode);
  }
  for (const d of ['usr', 'usr/lib', 'usr/lib/k2s-dns', 'usr/share', 'usr/share/polkit-1', 'usr/share/polkit-1/actions']) chmodSync(join(root, d), 0o755);
}, 180_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the packaged helper', () => {
  it.skipIf(!isRoot)(isRoot ? 'the package layout gives a root-owned launcher, one bundle and the policy pinning the launcher' : 'skipped: the layout is root-owned only when staged as root (run as root)', () => {
    const lib = join(root, 'usr/lib/k2s-dns');
    const mode = (p: string) => statSync(p).mode & 0o7777;
    expect(mode(join(lib, 'k2s-dns-helper'))).toBe(0o755);
    expect(mode(join(lib, 'k2s-dns-helper.mjs'))).toBe(0o644);
    for (const p of [lib, join(lib, 'k2s-dns-helper'), join(lib, 'k2s-dns-helper.mjs'), join(root, 'usr/share/polkit-1/actions/io.k2s.dns.policy')]) {
      expect(statSync(p).uid).toBe(0);
      expect(mode(p) & 0o022).toBe(0);
    }
    const policy = readFileSync(join(root, 'usr/share/polkit-1/actions/io.k2s.dns.policy'), 'utf8');
    expect(policy).toContain('<annotate key="org.freedesktop.policykit.exec.path">/usr/lib/k2s-dns/k2s-dns-helper</annotate>');
    // The bundle is self-contained: it imports Node's built-in modules only.
    const bundle = readFileSync(join(lib, 'k2s-dns-helper.mjs'), 'utf8');
    expect([...bundle.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]).filter((s) => !isBuiltin(s!))).toEqual([]);
  });

  it.skipIf(!isRoot)(isRoot ? 'runs from the temp root: validates its argv (exit 2) and, as nobody, refuses with exit 3' : 'skipped: needs the root-owned payload (run as root)', async () => {
    const launcher = join(root, 'usr/lib/k2s-dns/k2s-dns-helper');
    const usage = await run(launcher, ['reboot'], {});
    expect(usage.stderr).not.toContain('ERR_MODULE_NOT_FOUND');
    expect(usage.stderr.trim()).toBe('Unknown helper verb "reboot"; expected one of start, stop, uninstall.');
    expect(usage.code).toBe(2);
    // Not root: the whole helper loaded (lifecycle, client-node) and refused before touching anything.
    const nobody = await run('/usr/bin/setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', launcher, 'stop'], {});
    expect(nobody.stderr.trim()).toBe('The k2s-dns helper must run as root (through pkexec or sudo).');
    expect(nobody.code).toBe(3);
  });
});

describe('the bundled CLI', () => {
  it('every bundle and chunk imports only Node built-ins, its own chunks, electron and (lazily) vite', () => {
    const bare = new Set<string>();
    for (const f of readdirSync(dist).filter((x) => x.endsWith('.mjs'))) {
      const text = readFileSync(join(dist, f), 'utf8');
      for (const m of text.matchAll(/(?:^import .* from |^import |import\()"([^"]+)"/gm)) {
        if (!m[1]!.startsWith('./') && !isBuiltin(m[1]!)) bare.add(m[1]!);
      }
    }
    expect([...bare].sort()).toEqual(['electron', 'vite']);
    expect(readdirSync(dist).filter((x) => x.endsWith('.mjs') && !x.startsWith('chunk-')).sort()).toEqual(['app-entry.mjs', 'k2s-dns-helper.mjs', 'k2s-dns.mjs']);
  });

  it('stack traces name the .ts lines (source maps), not the bundle', async () => {
    const kubeconfig = join(tmp, 'kubeconfig.yaml');
    // Port 1 on loopback: refused at once, so zones fails with a ClusterUnreachableError. No code
    // cache: as root it would be written to this machine's /var/cache/k2s-dns.
    writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\nusers:\n- name: u\n  user: {token: t}\n');
    const r = await run(process.execPath, ['--enable-source-maps', join(dist, 'k2s-dns.mjs'), 'zones', '--kubeconfig', kubeconfig], { ...process.env, K2S_DNS_DEBUG: '1', K2S_DNS_COMPILE_CACHE: '0' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('k2s-dns zones failed: The Kubernetes API server at https://127.0.0.1:1 refused the connection');
    const frames = [...r.stderr.matchAll(/^\s+at .*?\(?(\/[^():]+):(\d+):\d+\)?$/gm)].map((m) => ({ file: m[1]!, line: Number(m[2]) }));
    const ours = frames.filter((f) => f.file.startsWith(REPO) || f.file.startsWith(dist));
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.filter((f) => f.file.startsWith(dist))).toEqual([]);
    const top = ours[0]!;
    expect(top.file).toMatch(/\/electron\/core\/cluster\/[\w-]+\.ts$/);
    expect(existsSync(top.file)).toBe(true);
    // The mapped line is where the error is made.
    expect(readFileSync(top.file, 'utf8').split('\n')[top.line - 1]).toMatch(/super\(|new \w+Error|throw /);
  });
});
