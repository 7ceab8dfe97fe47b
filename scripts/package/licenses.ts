/**
 * The license paragraphs of the npm packages the k2s-dns package bundles (the CLI and helper
 * bundles in dist/, the renderer in out/renderer), for /usr/share/doc/k2s-dns/copyright
 * (copyright-format 1.0: one `Files:` paragraph per bundled package, its `Copyright:` lines and
 * its `License:` short name with the full text of the package's own LICENSE file) and, through
 * that file, the rpm's %license. Read at package time from node_modules — no network: which
 * packages comes from the bundlers' own lists (dist/ and out/renderer/ bundled-packages.json,
 * scripts/bundled-packages.mjs), the rest from each package.json and LICENSE file.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLED_PACKAGES_FILE } from '../bundled-packages.mjs';

/** One bundled npm package as the copyright file names it. */
export interface BundledLicense {
  /** `node_modules/<name>` (nested: `node_modules/a/node_modules/b`), as the Files: pattern. */
  dir: string;
  name: string;
  version: string;
  /** The SPDX expression of its package.json `license`. */
  license: string;
  /** Copyright holder lines (from the license text, else the package.json author). */
  copyright: string[];
  /** The license text the package ships (LICENSE, LICENSE.md, license.txt, COPYING…); null when it ships none. */
  text: string | null;
  /** The file `text` came from, relative to `dir`. */
  textFile: string | null;
}

/** License files, most specific first (npm's own list: LICENSE, LICENCE, COPYING, with or without an extension). */
const LICENSE_FILE = /^(licen[cs]e|copying)([-.][\w.-]*)?$/i;

/** `{name, email}` or "Name <email> (url)" as one line without the url. */
function authorLine(author: unknown): string | null {
  if (typeof author === 'string') return author.replace(/\s*\(https?:[^)]*\)\s*$/, '').trim() || null;
  if (author && typeof author === 'object' && typeof (author as { name?: unknown }).name === 'string') {
    const a = author as { name: string; email?: string };
    return a.email ? `${a.name} <${a.email}>` : a.name;
  }
  return null;
}

/** Reads one package's facts below `repo`. Throws when its package.json is missing (the list and node_modules disagree: run npm ci and npm run build). */
export function readBundledLicense(repo: string, dir: string): BundledLicense {
  const pkgPath = join(repo, dir, 'package.json');
  if (!existsSync(pkgPath)) throw new Error(`${dir}/package.json is missing, although the bundle holds ${dir}: run npm ci, then npm run build`);
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { name?: string; version?: string; license?: unknown; author?: unknown };
  const textFile = readdirSync(join(repo, dir)).filter((f) => LICENSE_FILE.test(f)).sort()[0] ?? null;
  const text = textFile ? readFileSync(join(repo, dir, textFile), 'utf8').replace(/\r\n?/g, '\n').trim() : null;
  const fromText = (text ?? '').split('\n').map((l) => l.trim()).filter((l) => /^(copyright\b|\(c\)|©)/i.test(l) && !/^copyright (notice|holders?)\b/i.test(l));
  const author = authorLine(pkg.author);
  const license = typeof pkg.license === 'string' ? pkg.license : 'UNKNOWN';
  return {
    dir,
    name: pkg.name ?? dir.slice(dir.lastIndexOf('node_modules/') + 13),
    version: pkg.version ?? '?',
    license,
    copyright: fromText.length ? [...new Set(fromText)] : [author ?? `the ${pkg.name ?? dir} authors`],
    text,
    textFile,
  };
}

/** The package directories the bundles under `outputs` list (their bundled-packages.json files), distinct and sorted. */
export function bundledDirs(outputs: readonly string[]): string[] {
  const dirs = outputs.flatMap((o) => {
    const f = join(o, BUNDLED_PACKAGES_FILE);
    if (!existsSync(f)) throw new Error(`${f} is missing: run npm run build (it lists the npm packages the bundles hold, for the copyright file)`);
    return JSON.parse(readFileSync(f, 'utf8')) as string[];
  });
  return [...new Set(dirs)].sort();
}

/**
 * SPDX identifiers whose text Debian ships in /usr/share/common-licenses (Debian policy 12.5: the
 * copyright file refers to it there instead of repeating it; lintian errs otherwise), → the file name.
 */
const COMMON_LICENSES: Record<string, string> = {
  'Apache-2.0': 'Apache-2.0',
  'GPL-2.0': 'GPL-2',
  'GPL-2.0-only': 'GPL-2',
  'GPL-2.0-or-later': 'GPL-2',
  'GPL-3.0': 'GPL-3',
  'GPL-3.0-only': 'GPL-3',
  'GPL-3.0-or-later': 'GPL-3',
  'LGPL-2.1': 'LGPL-2.1',
  'LGPL-2.1-only': 'LGPL-2.1',
  'LGPL-2.1-or-later': 'LGPL-2.1',
  'LGPL-3.0': 'LGPL-3',
  'LGPL-3.0-only': 'LGPL-3',
  'LGPL-3.0-or-later': 'LGPL-3',
  'MPL-2.0': 'MPL-2.0',
  'CC0-1.0': 'CC0-1.0',
};

/** Where the package installs a bundled package's own license file when the copyright file refers to common-licenses (rpm systems have none). */
export const LICENSE_COPIES_DIR = '/usr/share/doc/k2s-dns/licenses';

/** The installed copy of `l`'s license file, or null when the copyright file holds its text itself. */
export function licenseCopyPath(l: BundledLicense): string | null {
  return COMMON_LICENSES[l.license] && l.textFile ? `${LICENSE_COPIES_DIR}/${l.name}/${l.textFile}` : null;
}

/** A text as a copyright-format continuation: each line indented by one space, an empty line as ` .`. */
function continuation(text: string): string {
  return text
    .split('\n')
    .map((l) => (l.trim() === '' ? ' .' : ` ${l.replace(/\t/g, '    ')}`))
    .join('\n');
}

/** One `Files:` paragraph of the copyright file for `l`. */
export function licenseParagraph(l: BundledLicense): string {
  const copy = licenseCopyPath(l);
  const body = copy
    ? `On Debian systems the full text of the ${l.license} license is in /usr/share/common-licenses/${COMMON_LICENSES[l.license]}; ${l.name}'s own ${l.textFile} is installed as ${copy} (the rpm's %license).`
    : (l.text ?? `${l.name} ${l.version} ships no license file; its package.json says "${l.license}".`);
  return [
    `Files: ${l.dir}/*`,
    `Comment: ${l.name} ${l.version}, bundled into /usr/lib/k2s-dns${l.textFile ? `; text from its ${l.textFile}` : ''}`,
    `Copyright: ${l.copyright.join('\n ')}`,
    `License: ${l.license}`,
    continuation(body),
  ].join('\n');
}
