import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DOC_DIR, docFiles, helperFiles, LIB_DIR, ownedDirs, packageFiles } from './layout';
import { commandUsage, HELP_VERBS, USAGE } from '../../electron/cli/usage';
import { debControl } from './deb-control';
import { rpmDate, rpmSpec } from './rpm-spec';
import { manPage, type PackageMeta } from './texts';
import { INSTALLED_HELPER, INSTALLED_POLICY } from '../../electron/helper/installed';
import forge, { BASE_PACKAGE } from '../../forge.config';
import { UNIT_DOCUMENTATION } from '../../shared/systemd-unit';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'k2s-dns-layout-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A fake build output: two chunks, the entries the package leaves out, a renderer. */
function fakeBuild() {
  const dist = join(tmp, 'dist');
  const renderer = join(tmp, 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  mkdirSync(dist, { recursive: true });
  for (const f of ['k2s-dns.mjs', 'chunk-A.mjs', 'chunk-A.mjs.map', 'app-entry.mjs', 'app-entry.mjs.map', 'vendor-client-node.cjs', 'k2s-dns-helper.mjs', 'k2s-dns-helper.mjs.map']) writeFileSync(join(dist, f), f);
  writeFileSync(join(renderer, 'index.html'), '<!doctype html>');
  writeFileSync(join(renderer, 'assets/index-x.js'), '');
  return { repo: REPO, dist, renderer, manPage: Buffer.from(''), copyright: 'c', changelog: Buffer.from(''), packageJson: '{}' };
}

const meta: PackageMeta = { name: 'k2s-dns', version: '1.2.3', maintainer: 'M <m@example.invalid>', homepage: 'https://example.invalid', summary: 'S', description: 'D', epochSeconds: 1_796_137_200 };

describe('the documentation in the package', () => {
  const docs = docFiles(REPO);

  it('installs README.md and every docs/*.md, gzipped, below /usr/share/doc/k2s-dns, and nothing else of the repository', () => {
    expect(docs[`${DOC_DIR}/README.md.gz`]).toBe(join(REPO, 'README.md'));
    expect(docs[`${DOC_DIR}/docs/host-integration.md.gz`]).toBe(join(REPO, 'docs/host-integration.md'));
    expect(Object.keys(docs).every((p) => /^\/usr\/share\/doc\/k2s-dns\/(README\.md|docs\/[a-z0-9-]+\.md)\.gz$/.test(p))).toBe(true);
    const withDocs = packageFiles({ ...fakeBuild(), docs: { [`${DOC_DIR}/docs/a.md.gz`]: Buffer.from('x') } });
    expect(withDocs.find((f) => f.path === `${DOC_DIR}/docs/a.md.gz`)?.mode).toBe(0o644);
    expect(ownedDirs(withDocs)).toContain(`${DOC_DIR}/docs`);
  });

  // New-user walk 23: it said the packages install "every file below", the bench's JSON included.
  it('the README\'s "More documentation" says exactly which of its files the packages install', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## More documentation'));
    const intro = section.slice(0, section.indexOf('\n|'));
    expect(intro).toContain('The packages install this README and the `.md` files below in `/usr/share/doc/k2s-dns/`');
    const linked = [...new Set([...section.matchAll(/\]\((docs\/[^)#]+)\)/g)].map((m) => m[1]!))];
    expect(linked.length).toBeGreaterThan(10);
    for (const f of linked) {
      if (f.endsWith('.md')) expect(Object.keys(docs), f).toContain(`${DOC_DIR}/${f}.gz`);
      else expect(intro, f).toContain(`\`${f}\``);
    }
    // What else docs/ holds that the package leaves out is named there too.
    expect(intro).toContain('`docs/screenshots/` stay in the repository');
  });

  // Walk 23: the unit's Docs: was the log file; now the man page and this doc, both installed.
  it('the proxy unit\'s Documentation= names what the package installs', () => {
    expect(UNIT_DOCUMENTATION).toEqual(['man:k2s-dns(1)', `file:${DOC_DIR}/docs/host-integration.md.gz`]);
    expect(Object.keys(docs)).toContain(UNIT_DOCUMENTATION[1].slice('file:'.length));
    expect(packageFiles(fakeBuild()).map((f) => f.path)).toContain('/usr/share/man/man1/k2s-dns.1.gz');
  });

  it('every docs/ file the CLI\'s help names is one the package installs', () => {
    const help = [USAGE, ...HELP_VERBS.map((v) => commandUsage(v))].join('\n');
    const named = [...help.matchAll(/docs\/([a-z0-9-]+\.md)/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(0);
    for (const n of named) expect(Object.keys(docs)).toContain(`${DOC_DIR}/docs/${n}.gz`);
  });

  it('the rpm marks them %doc', () => {
    const spec = rpmSpec(meta, REPO, '/stage', [{ path: `${DOC_DIR}/docs/verdict.md.gz`, from: 'x', mode: 0o644 }, { path: `${DOC_DIR}/README.md.gz`, from: 'x', mode: 0o644 }, { path: `${DOC_DIR}/copyright`, from: 'x', mode: 0o644 }], []);
    expect(spec).toContain(`%doc %attr(0644,root,root) ${DOC_DIR}/docs/verdict.md.gz\n`);
    expect(spec).toContain(`%doc %attr(0644,root,root) ${DOC_DIR}/README.md.gz\n`);
    expect(spec).toContain(`%license %attr(0644,root,root) ${DOC_DIR}/copyright\n`);
  });
});

describe('the package layout', () => {
  const files = packageFiles(fakeBuild());
  const paths = files.map((f) => f.path);

  it('puts the helper at the path the polkit action pins and the app checks, the CLI on PATH, the UI where app-root finds it', () => {
    const policy = readFileSync(join(REPO, 'resources/io.k2s.dns.policy'), 'utf8');
    expect(policy).toContain(`<annotate key="org.freedesktop.policykit.exec.path">${INSTALLED_HELPER}</annotate>`);
    expect(files.find((f) => f.path === INSTALLED_HELPER)?.mode).toBe(0o755);
    expect(files.find((f) => f.path === `${INSTALLED_HELPER}.mjs`)?.mode).toBe(0o644);
    expect(paths).toContain(INSTALLED_POLICY);
    expect(files.find((f) => f.path === '/usr/bin/k2s-dns')?.mode).toBe(0o755);
    const wrapper = readFileSync(join(REPO, 'resources/packaging/k2s-dns'), 'utf8');
    expect(wrapper).toContain('if [ "${K2S_DNS_DEBUG:-}" = 1 ]; then\n  exec /usr/bin/node --enable-source-maps /usr/lib/k2s-dns/dist/k2s-dns.mjs "$@"\nfi\n');
    expect(wrapper.trimEnd().split('\n').at(-1)).toBe('exec /usr/bin/node /usr/lib/k2s-dns/dist/k2s-dns.mjs "$@"');
    expect(wrapper).toContain('exec /usr/bin/node --snapshot-blob /var/cache/k2s-dns/k2s-dns-cli.blob -- "$@"');
    expect(files.find((f) => f.path === '/usr/lib/k2s-dns/k2s-dns-snapshot')?.mode).toBe(0o755);
    expect(paths).toEqual(expect.arrayContaining(['/usr/lib/k2s-dns/dist/k2s-dns.mjs', '/usr/lib/k2s-dns/dist/chunk-A.mjs.map', '/usr/lib/k2s-dns/dist/vendor-client-node.cjs', '/usr/lib/k2s-dns/out/renderer/index.html', '/usr/lib/k2s-dns/out/renderer/assets/index-x.js', '/usr/share/man/man1/k2s-dns.1.gz', '/usr/lib/k2s-dns/package.json']));
    // The Electron main belongs to no one here (the client-node script is the CLI's: start loads it); the helper bundle sits beside its launcher only.
    expect(paths.filter((p) => /app-entry|dist\/k2s-dns-helper/.test(p))).toEqual([]);
    expect(ownedDirs(files)).toEqual(['/usr/lib/k2s-dns', '/usr/lib/k2s-dns/dist', '/usr/lib/k2s-dns/out', '/usr/lib/k2s-dns/out/renderer', '/usr/lib/k2s-dns/out/renderer/assets', '/usr/share/doc/k2s-dns']);
  });

  it('the launcher checks the startup snapshot\'s key with the same stat(1) words the builder wrote it with', () => {
    const wrapper = readFileSync(join(REPO, 'resources/packaging/k2s-dns'), 'utf8');
    const builder = readFileSync(join(REPO, 'resources/packaging/k2s-dns-snapshot'), 'utf8');
    const statOf = (text: string) => /stat -L --printf '([^']+)' -- (.+?) 2>\/dev\/null/.exec(text)?.slice(1);
    const [wrapperFormat, wrapperFiles] = statOf(wrapper)!;
    const [builderFormat, builderFiles] = statOf(builder)!;
    expect(wrapperFormat).toBe('%u:%a:%i:%s:%Y:%Z|');
    expect(builderFormat).toBe(wrapperFormat);
    // The builder's words with its defaults (DIST, CACHE, NODE) are the launcher's paths.
    const defaults = { '"$BLOB"': '/var/cache/k2s-dns/k2s-dns-cli.blob', '"$NODE"': '/usr/bin/node', '"$DIST/': '/usr/lib/k2s-dns/dist/' };
    let expanded = builderFiles!;
    for (const [from, to] of Object.entries(defaults)) expanded = expanded.replaceAll(from, to);
    // The launcher's first word is the directory (root's, writable by root alone: launcher.test.ts); the key is the rest.
    expect(`/var/cache/k2s-dns ${expanded.replaceAll('"', '')}`).toBe(wrapperFiles);
    expect(builder).toMatch(/^DIST=\$\{1:-\/usr\/lib\/k2s-dns\/dist\}\nCACHE=\$\{2:-\/var\/cache\/k2s-dns\}\nNODE=\$\{3:-\/usr\/bin\/node\}\nBLOB=\$CACHE\/k2s-dns-cli\.blob$/m);
    // The blob first, and only root's: the launcher reads the key's first field before it trusts the rest.
    expect(wrapperFiles!.split(' ').slice(0, 2)).toEqual(['/var/cache/k2s-dns', '/var/cache/k2s-dns/k2s-dns-cli.blob']);
    expect(wrapper).toContain('case $key in 0:644:*) true ;; *) false ;; esac');
  });

  it('scripts/install-helper.sh installs the same four helper files with the same modes', () => {
    const script = readFileSync(join(REPO, 'scripts/install-helper.sh'), 'utf8').replaceAll('$LIB', '/usr/lib/k2s-dns').replaceAll('"$POLICY"', INSTALLED_POLICY);
    for (const f of helperFiles(REPO, 'dist')) {
      expect(script).toMatch(new RegExp(`install (-D )?-m 0${f.mode.toString(8)} -o root -g root \\S+ "?${f.path.replaceAll('.', '\\.')}"?\\n`));
    }
  });
});

describe('deb control and rpm spec', () => {
  it('declare the same needs: nodejs 20.19, pkexec, polkit, e2fsprogs; dnsmasq and tcpdump recommended', () => {
    const control = debControl(meta, 14576);
    expect(control).toContain('\nDepends: nodejs (>= 20.19), pkexec, polkitd, e2fsprogs\nRecommends: dnsmasq-base, tcpdump\n');
    expect(control).toMatch(/^Package: k2s-dns\nVersion: 1\.2\.3\nArchitecture: amd64\n/);
    expect(control).toContain('\nInstalled-Size: 14576\n');
    const spec = rpmSpec(meta, REPO, '/stage', packageFiles(fakeBuild()), ['/usr/lib/k2s-dns']);
    expect(spec.match(/^(Requires|Recommends): .*$/gm)).toEqual(['Requires: /usr/bin/node', 'Requires: nodejs >= 1:20.19', 'Requires: /usr/bin/pkexec', 'Requires: polkit', 'Requires: util-linux', 'Requires: e2fsprogs', 'Recommends: dnsmasq', 'Recommends: tcpdump']);
    expect(spec).toContain('%attr(0755,root,root) /usr/lib/k2s-dns/k2s-dns-helper\n');
    expect(spec).toContain('%dir /usr/lib/k2s-dns\n');
  });

  it('rpm scriptlets translate $1 into the Debian words: erase is remove/purge, upgrade (the old package\'s $1 = 1) is upgrade', () => {
    const spec = rpmSpec(meta, REPO, '/stage', [], []);
    const body = (name: string) => spec.split(`\n%${name}\n`)[1]!.split('\n%')[0]!;
    expect(body('preun').split('\n')[1]).toBe('if [ "$1" -eq 0 ]; then set -- remove; else set -- upgrade; fi');
    expect(body('postun').split('\n')[1]).toBe('if [ "$1" -eq 0 ]; then set -- purge; else set -- upgrade; fi');
    expect(body('post').split('\n')[1]).toBe('set -- configure');
    expect(body('preun')).toContain(readFileSync(join(REPO, 'resources/packaging/prerm'), 'utf8').replace(/^#!.*\n/, '').split('\n%')[0]!.trimEnd());
    expect(spec).toContain('%changelog\n* Tue Dec 01 2026 M <m@example.invalid> - 1.2.3-1\n');
    expect(rpmDate(0)).toBe('Thu Jan 01 1970');
  });
});

describe('the README\'s "What the package installs (and nothing else)"', () => {
  // New-user walk: it left out k2s-dns-snapshot, package.json and changelog.gz (dpkg -c lists them).
  it('names every file the package installs outside its directories of many files (dist/, out/renderer/, docs/, licenses/), and those directories', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const start = readme.indexOf('What the package installs (and nothing else):');
    expect(start).toBeGreaterThan(0);
    const list = readme.slice(start, readme.indexOf('\n\n', start)).replace(/\s+/g, ' ');
    const files = packageFiles({ ...fakeBuild(), docs: { [`${DOC_DIR}/README.md.gz`]: Buffer.from(''), [`${DOC_DIR}/docs/a.md.gz`]: Buffer.from('') } }).map((f) => f.path);
    const grouped = /^\/usr\/lib\/k2s-dns\/(dist|out\/renderer)\/|^\/usr\/share\/doc\/k2s-dns\/(docs|licenses)\//;
    const own: Record<string, string> = { '/usr/share/man/man1/k2s-dns.1.gz': '`k2s-dns(1)`', [`${DOC_DIR}/README.md.gz`]: 'this README' };
    const single = files.filter((f) => !grouped.test(f));
    expect(single).toEqual(expect.arrayContaining([`${LIB_DIR}/k2s-dns-snapshot`, `${LIB_DIR}/package.json`, `${DOC_DIR}/changelog.gz`]));
    for (const f of single) {
      const names = [`\`${f}\``, `\`${f.slice(f.lastIndexOf('/') + 1)}\``, ...(own[f] ? [own[f]] : [])];
      expect(names.some((n) => list.includes(n)), f).toBe(true);
    }
    for (const dir of [`\`${LIB_DIR}/dist\``, `\`${LIB_DIR}/out/renderer\``, '`docs/`', '`licenses/`']) expect(list, dir).toContain(dir);
  });
});

describe('k2s-dns(1)', () => {
  it('carries the --help text with roff escapes, and no line roff would read as a request', () => {
    const page = manPage(meta, 'k2s-dns start --kubeconfig PATH\n.hidden\nback\\slash');
    expect(page).toMatch(/^\.TH K2S-DNS 1 "2026-12-01" "k2s-dns 1\.2\.3" "User Commands"\n/);
    expect(page).toContain('\n.nf\nk2s\\-dns start \\-\\-kubeconfig PATH\n\\&.hidden\nback\\eslash\n.fi\n');
  });
});

describe('forge.config.ts', () => {
  it('builds only the desktop window on top of the k2s-dns package of the same version', () => {
    const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    expect(BASE_PACKAGE).toEqual({ name: 'k2s-dns', version });
    const opts = forge.makers.map((m) => m.config.options as { name: string; depends?: string[]; requires?: string[]; scripts?: unknown });
    expect(opts.map((o) => o.name)).toEqual(['k2s-dns-desktop', 'k2s-dns-desktop']);
    expect(opts[0]!.depends).toEqual([`k2s-dns (= ${version})`]);
    expect(opts[1]!.requires).toEqual([`k2s-dns = ${version}`]);
    expect(opts.every((o) => o.scripts === undefined)).toBe(true);
  });
});

describe('maintainer scripts run only absolute commands of their own package', () => {
  // A root maintainer script must not find k2s-dns through PATH: sudo's secure_path puts
  // /usr/local/bin first, where `npm link` from a user's checkout installs another k2s-dns.
  it.each(['prerm', 'postinst', 'postrm'])('%s never runs k2s-dns through PATH', (name) => {
    const text = readFileSync(join(REPO, 'resources/packaging', name), 'utf8');
    const code = text.split('\n').filter((l) => !/^\s*(#|echo )/.test(l));
    const bare = code.filter((l) => /(^|[\s;|&(!])k2s-dns(\s|$)/.test(l));
    expect(bare).toEqual([]);
  });
});
