/**
 * `npm run package`: builds, offline, from a checkout (scripts/setup.sh done):
 *   <out>/k2s-dns_<version>_amd64.deb      with dpkg-deb
 *   <out>/k2s-dns-<version>.x86_64.rpm     with rpmbuild (Debian's `rpm` package)
 * from ONE staged tree (layout.ts): the CLI launcher, the bundles, the helper at its pinned path,
 * the polkit action, the web UI, k2s-dns(1). Then the Electron desktop package (forge.config.ts)
 * where an Electron binary and Forge exist; else it says `skipped: …`.
 * Flags: `--version V` (default package.json's; the e2e test builds a bumped one), `--out DIR`
 * (default out/packages), `--skip-build` (reuse dist/ and out/renderer of `npm run build`).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { docFiles, ownedDirs, packageFiles, type PackageFile } from './layout';
import { bundledDirs, licenseCopyPath, readBundledLicense } from './licenses';
import { changelog, copyright, gzip, manPage, type PackageMeta } from './texts';
import { debControl } from './deb-control';
import { rpmSpec } from './rpm-spec';
import { ELECTRON_INSTALL_HINT, findElectronBinary } from '../../electron/cli/electron-binary';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** Runs a program in the repo; throws with its stderr when it fails; returns stdout. */
function run(file: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(file, args, { cwd: REPO, env, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw new Error(`${file}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${file} ${args.join(' ')} failed (exit ${r.status}): ${(r.stderr || r.stdout).trim().slice(0, 2000)}`);
  return r.stdout;
}

/** Seconds since the epoch for the changelog and man page: SOURCE_DATE_EPOCH, else the last commit's time, else now. */
function buildEpoch(): number {
  const env = Number(process.env.SOURCE_DATE_EPOCH);
  if (Number.isInteger(env) && env > 0) return env;
  const git = spawnSync('git', ['log', '-1', '--format=%ct'], { cwd: REPO, encoding: 'utf8' });
  const t = Number(git.stdout?.trim());
  return git.status === 0 && t > 0 ? t : Math.floor(Date.now() / 1000);
}

/** The package's metadata; `version` overrides package.json's. */
export function packageMeta(version?: string): PackageMeta {
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
  const v = version ?? pkg.version;
  // Both tools: digits, dots, letters, "+" and "~"; no "-" (rpm forbids it in Version).
  if (!/^[0-9][A-Za-z0-9.+~]*$/.test(v)) throw new Error(`version "${v}" is not a valid deb and rpm version (digits, letters, . + ~)`);
  return {
    name: 'k2s-dns',
    version: v,
    maintainer: process.env.K2S_DNS_MAINTAINER ?? 'K2s DNS maintainers <k2s-dns@example.invalid>',
    homepage: 'https://github.com/Siemens-Healthineers/K2s',
    summary: 'Kubernetes DNS for native Linux K2s hosts',
    description:
      'Gives a native Linux K2s host cluster DNS: k2s-dns start saves the exact /etc/resolv.conf, runs a proxy on 127.0.0.1:53 that sends the cluster zones to CoreDNS and everything else to the original nameservers, and stop restores the resolver byte for byte. A CLI, a web UI (k2s-dns ui) and a privileged helper run through pkexec and polkit.',
    epochSeconds: buildEpoch(),
  };
}

/** Writes the payload into `root` with the layout's modes (directories 0755). */
function stage(root: string, files: readonly PackageFile[]): number {
  let bytes = 0;
  for (const f of files) {
    const dest = join(root, f.path);
    mkdirSync(dirname(dest), { recursive: true, mode: 0o755 });
    if (typeof f.from === 'string') copyFileSync(f.from, dest);
    else writeFileSync(dest, f.from.bytes);
    chmodSync(dest, f.mode);
    bytes += statSync(dest).size;
  }
  // mkdirSync's mode is masked by the umask: set every directory explicitly.
  run('find', [root, '-type', 'd', '-exec', 'chmod', '0755', '{}', '+']);
  return bytes;
}

/** DEBIAN/ of the deb: control, md5sums, the maintainer scripts, the triggers (deb-triggers(5)); then dpkg-deb. */
function buildDeb(meta: PackageMeta, root: string, files: readonly PackageFile[], bytes: number, out: string): string {
  const debian = join(root, 'DEBIAN');
  mkdirSync(debian, { mode: 0o755 });
  writeFileSync(join(debian, 'control'), debControl(meta, Math.ceil(bytes / 1024)));
  const md5 = files.map((f) => `${createHash('md5').update(readFileSync(join(root, f.path))).digest('hex')}  ${f.path.slice(1)}`);
  writeFileSync(join(debian, 'md5sums'), `${md5.join('\n')}\n`);
  for (const s of ['postinst', 'prerm', 'postrm', 'triggers']) copyFileSync(join(REPO, 'resources/packaging', s), join(debian, s));
  for (const f of ['control', 'md5sums', 'triggers']) chmodSync(join(debian, f), 0o644);
  for (const s of ['postinst', 'prerm', 'postrm']) chmodSync(join(debian, s), 0o755);
  const deb = join(out, `${meta.name}_${meta.version}_amd64.deb`);
  // --root-owner-group: every file root:root whoever builds (no fakeroot needed).
  run('dpkg-deb', ['--root-owner-group', '-Zxz', '--build', root, deb]);
  rmSync(debian, { recursive: true });
  return deb;
}

/** rpmbuild over the same staged tree, in a private _topdir. */
function buildRpm(meta: PackageMeta, root: string, files: readonly PackageFile[], out: string, work: string): string {
  const top = join(work, 'rpm');
  mkdirSync(top);
  const spec = join(top, 'k2s-dns.spec');
  writeFileSync(spec, rpmSpec(meta, REPO, root, files, ownedDirs(files)));
  run('rpmbuild', ['-bb', '--quiet', '--define', `_topdir ${top}`, '--define', `_rpmdir ${out}`, '--define', '_build_name_fmt %%{NAME}-%%{VERSION}.%%{ARCH}.rpm', '--define', `_tmppath ${top}`, spec]);
  return join(out, `${meta.name}-${meta.version}.x86_64.rpm`);
}

/** The line `npm run package` prints when there is no Electron binary: what was found (`why`) and what gets it. */
export function desktopSkipped(why: string): string {
  return `skipped: k2s-dns-desktop (electron-forge make needs an Electron binary): ${why}; ${ELECTRON_INSTALL_HINT}, then run npm run package again`;
}

/** The Electron desktop package (forge.config.ts): only where an Electron binary and Forge are installed. */
function desktopPackage(): string {
  const found = findElectronBinary();
  if (found.exe === null) return desktopSkipped(found.why);
  const exe = found.exe;
  try {
    createRequire(join(REPO, 'package.json')).resolve('@electron-forge/cli/package.json');
  } catch {
    return `skipped: @electron-forge/cli is not installed (k2s-dns-desktop needs it and its makers; forge.config.ts; Electron at ${exe})`;
  }
  run('npx', ['electron-forge', 'make']);
  return 'k2s-dns-desktop: built by electron-forge make into out/make';
}

/** Builds both packages; resolves to their paths. */
export async function buildPackages(o: { version?: string; out: string; skipBuild: boolean }): Promise<{ deb: string; rpm: string; desktop: string }> {
  const t0 = performance.now();
  if (!o.skipBuild) run(process.execPath, ['scripts/build.mjs']);
  for (const need of ['dist/k2s-dns.mjs', 'dist/k2s-dns-helper.mjs', 'out/renderer/index.html']) {
    if (!existsSync(join(REPO, need))) throw new Error(`${need} is missing: run npm run build (or drop --skip-build)`);
  }
  const meta = packageMeta(o.version);
  const bundled = bundledDirs([join(REPO, 'dist'), join(REPO, 'out/renderer')]).map((d) => readBundledLicense(REPO, d));
  const work = mkdtempSync(join(tmpdir(), 'k2s-dns-package-'));
  try {
    const root = join(work, 'root');
    mkdirSync(root, { mode: 0o755 });
    chmodSync(work, 0o755);
    const files = packageFiles({
      repo: REPO,
      dist: join(REPO, 'dist'),
      renderer: join(REPO, 'out/renderer'),
      manPage: gzip(manPage(meta)),
      // The npm packages the bundles hold, each with its license text (no network: node_modules).
      copyright: copyright(meta, bundled),
      licenseCopies: Object.fromEntries(bundled.flatMap((l) => (licenseCopyPath(l) && l.text !== null ? [[licenseCopyPath(l)!, `${l.text}\n`]] : []))),
      changelog: gzip(changelog(meta)),
      docs: Object.fromEntries(Object.entries(docFiles(REPO)).map(([path, from]) => [path, gzip(readFileSync(from, 'utf8'))])),
      packageJson: `${JSON.stringify({ name: meta.name, version: meta.version, private: true, description: meta.summary }, null, 2)}\n`,
    });
    const bytes = stage(root, files);
    mkdirSync(o.out, { recursive: true });
    const rpm = buildRpm(meta, root, files, o.out, work);
    const deb = buildDeb(meta, root, files, bytes, o.out);
    const desktop = desktopPackage();
    const kib = (p: string) => `${Math.round(statSync(p).size / 1024)} KiB`;
    process.stdout.write(`package: ${relative(REPO, deb)} (${kib(deb)}), ${relative(REPO, rpm)} (${kib(rpm)}); ${files.length} files, ${Math.round(bytes / 1024)} KiB installed, in ${Math.round(performance.now() - t0)} ms\npackage: ${desktop}\n`);
    return { deb, rpm, desktop };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args[at + 1] : undefined;
  };
  try {
    await buildPackages({ ...(value('--version') ? { version: value('--version')! } : {}), out: resolve(value('--out') ?? join(REPO, 'out/packages')), skipBuild: args.includes('--skip-build') });
  } catch (err) {
    process.stderr.write(`package: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}
