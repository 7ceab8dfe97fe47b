/**
 * DEBIAN/control of the k2s-dns .deb (deb-control(5), Debian policy 5.3 and 7).
 * Architecture amd64: K2s runs on x86-64 only, and the desktop package built on top
 * (forge.config.ts) is amd64; the payload itself is JavaScript.
 */
import { NEEDS } from './depends';
import type { PackageMeta } from './texts';

/** The control file; `installedKiB` is the payload's size (Installed-Size, KiB). */
export function debControl(m: PackageMeta, installedKiB: number): string {
  const list = (s: 'requires' | 'recommends') => NEEDS.filter((n) => n.strength === s).flatMap((n) => (n.deb ? [n.deb] : [])).join(', ');
  // Description: a synopsis line, then the long text folded with one leading space.
  const long = m.description.replace(/(.{1,78})(\s+|$)/g, ' $1\n').trimEnd();
  return [
    `Package: ${m.name}`,
    `Version: ${m.version}`,
    'Architecture: amd64',
    `Maintainer: ${m.maintainer}`,
    `Installed-Size: ${installedKiB}`,
    `Depends: ${list('requires')}`,
    `Recommends: ${list('recommends')}`,
    'Section: net',
    'Priority: optional',
    `Homepage: ${m.homepage}`,
    `Description: ${m.summary}`,
    long,
    '',
  ].join('\n');
}
