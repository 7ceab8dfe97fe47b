/**
 * The generated texts of the k2s-dns package: the man page k2s-dns(1) (from the CLI's own
 * `--help` text, so the two never disagree), the copyright file (machine-readable, Debian's
 * copyright-format 1.0) and a native package's changelog. Gzipped as Debian policy 12.3/12.7
 * ask (`gzip -9n`: no name, no time stamp, so the bytes depend only on the text).
 */
import { gzipSync } from 'node:zlib';
import { USAGE } from '../../electron/cli/usage';
import { licenseParagraph, type BundledLicense } from './licenses';

/** Package metadata shared by deb, rpm, the man page and the changelog. */
export interface PackageMeta {
  name: string;
  /** Upstream version, e.g. 0.1.0 (dpkg and rpm both accept it; no "-", rpm forbids it). */
  version: string;
  /** `Name <address>`. */
  maintainer: string;
  homepage: string;
  summary: string;
  description: string;
  /** Build time stamp, seconds since the epoch (SOURCE_DATE_EPOCH or the commit's time). */
  epochSeconds: number;
}

/** gzip -9n: maximum compression, no file name, mtime 0 (zlib's default header). */
export const gzip = (text: string): Buffer => gzipSync(Buffer.from(text), { level: 9 });

/** A line of plain text as roff: backslashes escaped, hyphens as minus signs, no control line. */
function roffLine(line: string): string {
  const t = line.replace(/\\/g, '\\e').replace(/-/g, '\\-');
  return /^[.']/.test(t) ? `\\&${t}` : t;
}

/** k2s-dns(1) in man(7) roff: NAME, SYNOPSIS, the full `--help` text, FILES, SEE ALSO. */
export function manPage(m: PackageMeta, usage = USAGE): string {
  const date = new Date(m.epochSeconds * 1000).toISOString().slice(0, 10);
  return [
    `.TH K2S-DNS 1 "${date}" "k2s-dns ${m.version}" "User Commands"`,
    '.SH NAME',
    `k2s-dns \\- ${roffLine(m.summary)}`,
    '.SH SYNOPSIS',
    '.B k2s-dns',
    '.I command',
    '.RI [ options ]',
    '.SH DESCRIPTION',
    roffLine(m.description),
    'The text below is the output of',
    '.BR "k2s-dns --help" .',
    '.PP',
    '.nf',
    ...usage.split('\n').map(roffLine),
    '.fi',
    '.SH FILES',
    '.TP',
    '.I /usr/lib/k2s-dns/k2s-dns-helper',
    'The privileged helper; the polkit action io.k2s.dns.helper pins it, and the app runs it through',
    '.BR pkexec (1)',
    'for Start, Stop and Uninstall.',
    '.TP',
    '.I /usr/share/polkit-1/actions/io.k2s.dns.policy',
    'The polkit action (an administrator password for the local active session).',
    '.TP',
    '.I /var/lib/k2s/dns-resolver-state.json',
    'The saved resolver while K2s DNS runs.',
    '.TP',
    '.I /usr/share/doc/k2s-dns/',
    'The documentation: README.md.gz, and docs/*.md.gz for each topic (read them with',
    '.BR zless (1)).',
    '.SH SEE ALSO',
    '.BR resolv.conf (5),',
    '.BR pkexec (1),',
    '.BR polkit (8)',
    '',
  ].join('\n');
}

/**
 * /usr/share/doc/k2s-dns/copyright (copyright-format 1.0): our code (MIT), then one paragraph per
 * npm package the bundles hold, with its own license text (licenses.ts).
 */
export function copyright(m: PackageMeta, bundled: readonly BundledLicense[] = []): string {
  return [ownCopyright(m), ...bundled.map(licenseParagraph)].join('\n\n') + (bundled.length ? '\n' : '');
}

/** The header and our own MIT paragraph. */
function ownCopyright(m: PackageMeta): string {
  return `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: ${m.name}
Source: ${m.homepage}

Files: *
Copyright: ${new Date(m.epochSeconds * 1000).getUTCFullYear()} K2s DNS contributors
License: MIT
 Permission is hereby granted, free of charge, to any person obtaining a copy of this software
 and associated documentation files (the "Software"), to deal in the Software without
 restriction, including without limitation the rights to use, copy, modify, merge, publish,
 distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the
 Software is furnished to do so, subject to the following conditions:
 .
 The above copyright notice and this permission notice shall be included in all copies or
 substantial portions of the Software.
 .
 THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING
 BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
 NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM,
 DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.`;
}

/** RFC 2822 date as deb-changelog(5) wants it: `Tue, 01 Dec 2026 15:00:00 +0000`. */
export function changelogDate(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toUTCString().replace('GMT', '+0000');
}

/** A native package's changelog (deb-changelog(5)): one entry for this version. */
export function changelog(m: PackageMeta): string {
  return `${m.name} (${m.version}) unstable; urgency=medium\n\n  * Release ${m.version}.\n\n -- ${m.maintainer}  ${changelogDate(m.epochSeconds)}\n`;
}
