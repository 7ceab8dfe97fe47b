/**
 * The rpmbuild spec of the k2s-dns .rpm: the staged tree (the same files as the .deb,
 * layout.ts) copied into the buildroot, every file listed with its mode, and the Debian
 * maintainer scripts run with rpm's arguments translated. rpm's order on an upgrade
 * (rpm(8), "Fedora packaging guidelines: scriptlets"): new %pre, new files, new %post, old
 * %preun, old files not in the new package removed, old %postun — so the old %preun/%postun see
 * $1 = 1 (one package left) and must not undo what the new one installed; on erase $1 = 0.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NEEDS } from './depends';
import { DOC_DIR, type PackageFile } from './layout';
import { LICENSE_COPIES_DIR } from './licenses';
import type { PackageMeta } from './texts';

/** rpm argument → the Debian argument the shared script understands, per scriptlet. */
const TRANSLATE = {
  // %post: $1 = 1 first install, ≥ 2 upgrade; both are dpkg's `configure`.
  post: { script: 'postinst', map: 'set -- configure' },
  preun: { script: 'prerm', map: 'if [ "$1" -eq 0 ]; then set -- remove; else set -- upgrade; fi' },
  postun: { script: 'postrm', map: 'if [ "$1" -eq 0 ]; then set -- purge; else set -- upgrade; fi' },
  // %triggerin -- nodejs: Node.js installed or upgraded while k2s-dns is (and k2s-dns installed
  // after it): dpkg's `triggered` (resources/packaging/triggers), the startup snapshot again.
  triggerin: { script: 'postinst', map: 'set -- triggered /usr/bin/node' },
} as const;

/** A scriptlet body: the translation line, then the shared script without its shebang. */
export function scriptlet(repo: string, which: keyof typeof TRANSLATE): string {
  const t = TRANSLATE[which];
  const body = readFileSync(join(repo, 'resources/packaging', t.script), 'utf8').replace(/^#!.*\n/, '');
  return `# rpm passes the number of k2s-dns packages left after this step; the script takes Debian's words.\n${t.map}\n${body}`;
}

/** rpm file names may not contain spaces or globs unquoted; ours never do, checked here. */
function listed(path: string): string {
  if (!/^\/[A-Za-z0-9._/@+-]+$/.test(path)) throw new Error(`file name not safe for an rpm %files list: ${path}`);
  return path;
}

/** The copyright file (layout.ts), the rpm's %license. */
export const COPYRIGHT_PATH = '/usr/share/doc/k2s-dns/copyright';

/** A %changelog date: `Tue Dec 01 2026`. */
export function rpmDate(epochSeconds: number): string {
  const [day, date, month, year] = new Date(epochSeconds * 1000).toUTCString().replace(',', '').split(' ');
  return `${day} ${month} ${date} ${year}`;
}

/** The spec text. `stage` is the staged tree the deb was built from. */
export function rpmSpec(m: PackageMeta, repo: string, stage: string, files: readonly PackageFile[], dirs: readonly string[]): string {
  const req = NEEDS.filter((n) => n.strength === 'requires').flatMap((n) => n.rpm.map((r) => `Requires: ${r}`));
  const rec = NEEDS.filter((n) => n.strength === 'recommends').flatMap((n) => n.rpm.map((r) => `Recommends: ${r}`));
  return [
    `Name: ${m.name}`,
    `Version: ${m.version}`,
    'Release: 1',
    `Summary: ${m.summary}`,
    'License: MIT',
    `URL: ${m.homepage}`,
    `Packager: ${m.maintainer}`,
    'BuildArch: x86_64',
    // Our dependencies are the table above; rpm's generators would add none we want.
    'AutoReqProv: no',
    ...req,
    ...rec,
    // JavaScript payload: no debuginfo subpackage, no brp-strip/compress passes over it.
    '%global debug_package %{nil}',
    '%global __os_install_post %{nil}',
    '',
    '%description',
    m.description,
    '',
    '%install',
    `cp -a ${stage}/. %{buildroot}/`,
    '',
    '%files',
    '%defattr(-,root,root,-)',
    ...dirs.map((d) => `%dir ${listed(d)}`),
    // The copyright file holds our license and every bundled npm package's (and the copies it refers to): rpm's %license marks them (rpm -qL).
    // The README and docs/ are %doc (rpm -qd; --excludedocs leaves them out).
    ...files.map((f) => `${f.path === COPYRIGHT_PATH || f.path.startsWith(`${LICENSE_COPIES_DIR}/`) ? '%license ' : isDoc(f.path) ? '%doc ' : ''}%attr(${f.mode.toString(8).padStart(4, '0')},root,root) ${listed(f.path)}`),
    '',
    '%post',
    scriptlet(repo, 'post'),
    '%preun',
    scriptlet(repo, 'preun'),
    '%postun',
    scriptlet(repo, 'postun'),
    '%triggerin -- nodejs',
    scriptlet(repo, 'triggerin'),
    '%changelog',
    `* ${rpmDate(m.epochSeconds)} ${m.maintainer} - ${m.version}-1`,
    `- Release ${m.version}.`,
    '',
  ].join('\n');
}

/** A file of the documentation (layout.ts docFiles): the README and docs/ below DOC_DIR. */
function isDoc(path: string): boolean {
  return path === `${DOC_DIR}/README.md.gz` || path.startsWith(`${DOC_DIR}/docs/`);
}
