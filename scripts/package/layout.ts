/**
 * THE file layout of the k2s-dns package, shared by the .deb (dpkg-deb) and the .rpm (rpmbuild),
 * and the base the Electron desktop package (forge.config.ts, k2s-dns-desktop) depends on.
 * Every file is root-owned (dpkg-deb --root-owner-group; the spec's %defattr) with the mode
 * given here; the paths the polkit action pins are constants the app checks too
 * (electron/helper/installed.ts).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where the bundled app lives once installed (dist/ and out/renderer below it: electron/app-root.ts). */
export const LIB_DIR = '/usr/lib/k2s-dns';

/** One file of the package: its installed path, where its bytes come from, and its mode. */
export interface PackageFile {
  /** Absolute installed path, e.g. /usr/lib/k2s-dns/k2s-dns-helper. */
  path: string;
  /** Absolute source path in the checkout or the build output; or the bytes themselves. */
  from: string | { bytes: Buffer | string };
  /** Octal permission bits (0o755 for programs, 0o644 otherwise). */
  mode: number;
}

/** Inputs of packageFiles: the checkout and the generated texts (man page, copyright, changelog). */
export interface LayoutInput {
  /** The repository root (absolute). */
  repo: string;
  /** The built bundles (scripts/build.mjs --outdir; default <repo>/dist). */
  dist: string;
  /** The built renderer (vite; <repo>/out/renderer). */
  renderer: string;
  /** gzipped roff of k2s-dns(1) (scripts/package/texts.ts). */
  manPage: Buffer;
  /** /usr/share/doc/k2s-dns/copyright text. */
  copyright: string;
  /** gzipped /usr/share/doc/k2s-dns/changelog.gz (a native package's, Debian policy 12.7). */
  changelog: Buffer;
  /** /usr/lib/k2s-dns/package.json: marks the application directory (electron/core/app-root.ts looks for it). */
  packageJson: string;
  /** Bundled packages' own license files the copyright file refers to (licenses.ts licenseCopyPath): installed path → bytes. */
  licenseCopies?: Record<string, string>;
  /** The documentation (docFiles): installed path → gzipped bytes. */
  docs?: Record<string, Buffer>;
}

/** Where the documentation goes: README.md and docs/ of the repository, below it (docFiles). */
export const DOC_DIR = '/usr/share/doc/k2s-dns';

/**
 * The documentation the CLI's texts name (README.md, docs/*.md: `k2s-dns start --help` says which
 * file holds every path start writes), as installed paths → source files: README.md.gz and
 * docs/NAME.md.gz below DOC_DIR, gzipped as Debian policy 12.3 asks of documentation over 4 KB
 * (read them with zless(1)). Screenshots and the bench's JSON stay in the repository.
 */
export function docFiles(repo: string): Record<string, string> {
  const docs = readdirSync(join(repo, 'docs'), { withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.md'));
  return Object.fromEntries([[`${DOC_DIR}/README.md.gz`, join(repo, 'README.md')], ...docs.map((e) => [`${DOC_DIR}/docs/${e.name}.gz`, join(repo, 'docs', e.name)])].sort());
}

/** The helper part of the layout (the launcher, its bundle and map, the polkit action): what scripts/install-helper.sh installs from a checkout. */
export function helperFiles(repo: string, dist: string): (PackageFile & { from: string })[] {
  const res = (name: string) => join(repo, 'resources', name);
  return [
    { path: `${LIB_DIR}/k2s-dns-helper`, from: res('packaging/k2s-dns-helper'), mode: 0o755 },
    { path: `${LIB_DIR}/k2s-dns-helper.mjs`, from: join(dist, 'k2s-dns-helper.mjs'), mode: 0o644 },
    { path: `${LIB_DIR}/k2s-dns-helper.mjs.map`, from: join(dist, 'k2s-dns-helper.mjs.map'), mode: 0o644 },
    { path: '/usr/share/polkit-1/actions/io.k2s.dns.policy', from: res('io.k2s.dns.policy'), mode: 0o644 },
  ];
}

/** Files of dist/ that the CLI package does not ship: the Electron main (desktop package), the bundler's package list. */
const NOT_SHIPPED = /^app-entry\.mjs(\.map)?$|^k2s-dns-helper\.mjs(\.map)?$|^bundled-packages\.json$/;

/** Files below `dir`, recursively, as paths relative to it (sorted). */
function walk(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(dir, join(prefix, e.name)) : [join(prefix, e.name)]))
    .sort();
}

/** Every file of the k2s-dns package, in installed-path order. */
export function packageFiles(i: LayoutInput): PackageFile[] {
  const res = (name: string) => join(i.repo, 'resources', name);
  const files: PackageFile[] = [
    // The CLI on PATH: a launcher that runs the bundle with /usr/bin/node.
    { path: '/usr/bin/k2s-dns', from: res('packaging/k2s-dns'), mode: 0o755 },
    // What postinst runs to build the CLI's V8 startup snapshot that launcher starts from.
    { path: `${LIB_DIR}/k2s-dns-snapshot`, from: res('packaging/k2s-dns-snapshot'), mode: 0o755 },
    // The privileged helper at the path the polkit action pins, the one-file bundle it runs, the action.
    ...helperFiles(i.repo, i.dist),
    { path: '/usr/share/man/man1/k2s-dns.1.gz', from: { bytes: i.manPage }, mode: 0o644 },
    { path: '/usr/share/doc/k2s-dns/copyright', from: { bytes: i.copyright }, mode: 0o644 },
    { path: '/usr/share/doc/k2s-dns/changelog.gz', from: { bytes: i.changelog }, mode: 0o644 },
    { path: `${LIB_DIR}/package.json`, from: { bytes: i.packageJson }, mode: 0o644 },
    ...Object.entries(i.licenseCopies ?? {}).map(([path, bytes]) => ({ path, from: { bytes }, mode: 0o644 })),
    ...Object.entries(i.docs ?? {}).map(([path, bytes]) => ({ path, from: { bytes }, mode: 0o644 })),
  ];
  for (const f of walk(i.dist).filter((f) => !NOT_SHIPPED.test(f))) files.push({ path: `${LIB_DIR}/dist/${f}`, from: join(i.dist, f), mode: 0o644 });
  // bundled-packages.json: the bundler's list for the copyright file (licenses.ts), not part of the app.
  for (const f of walk(i.renderer).filter((f) => f !== 'bundled-packages.json')) files.push({ path: `${LIB_DIR}/out/renderer/${f}`, from: join(i.renderer, f), mode: 0o644 });
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Directories the package owns (rpm %dir; dpkg removes them when empty). System directories (/usr/bin, polkit's actions) are not ours. */
export function ownedDirs(files: readonly PackageFile[]): string[] {
  const dirs = new Set<string>();
  for (const f of files) {
    for (const root of [LIB_DIR, DOC_DIR]) {
      if (!f.path.startsWith(`${root}/`)) continue;
      let d = f.path.slice(0, f.path.lastIndexOf('/'));
      while (d.length >= root.length) {
        dirs.add(d);
        d = d.slice(0, d.lastIndexOf('/'));
      }
    }
  }
  return [...dirs].sort();
}
