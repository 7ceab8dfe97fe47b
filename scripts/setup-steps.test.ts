/**
 * Setup's phases print one line each (scripts/lib/step.sh): routine output (apt's, npm's, go's
 * ~90 `go: downloading …` lines) goes to a log under the git-ignored .tools/, and a failed phase
 * prints its log's tail and path. Checked on `step` itself and on scripts/build-engines.sh run in
 * a copy of the repo's scripts with a stand-in `go` on PATH (no network, no real build).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO } from './lib/repo-files';

const STEP = join(REPO, 'scripts/lib/step.sh');
const versions: Record<string, string> = Object.fromEntries(
  readFileSync(join(REPO, 'tools/engines/versions.env'), 'utf8')
    .split('\n')
    .filter((l) => /^[A-Z_]+=/.test(l))
    .map((l) => l.split('=') as [string, string]),
);

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'k2sdns-setup-steps-'));
  dirs.push(d);
  return d;
}

/** Runs `script` in bash with `set -euo pipefail` and step.sh sourced → status, stdout, stderr. */
function bash(script: string, cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync('bash', ['-c', `set -euo pipefail\n. ${JSON.stringify(STEP)}\n${script}`], { cwd, env, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A shell loop printing go's 90 download lines to stderr. */
const DOWNLOADS = 'i=0; while [ $i -lt 90 ]; do echo "go: downloading example.com/m$i v1.0.$i" >&2; i=$((i+1)); done';

describe('step (scripts/lib/step.sh)', () => {
  it('prints one line for a phase that succeeds; the phase output is only in the log', () => {
    const d = tempDir();
    const r = bash(`noisy() { ${DOWNLOADS}; echo built; }\nstep logs/x.log "setup: building x" noisy`, d);
    expect(r).toMatchObject({ status: 0, stderr: '' });
    expect(r.stdout).toMatch(/^setup: building x … done \(\d+ s\)\n$/);
    const log = readFileSync(join(d, 'logs/x.log'), 'utf8').split('\n');
    expect(log[0]).toMatch(/^== \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: noisy$/);
    expect(log.filter((l) => l.startsWith('go: downloading '))).toHaveLength(90);
    expect(log).toContain('built');
  });

  it('on failure prints the last 40 log lines, the note and the log path, returns the status and stops the caller', () => {
    const d = tempDir();
    const r = bash(
      `fails() { ${DOWNLOADS}; echo "main.go:3: undefined: x" >&2; return 3; echo "not reached in the function"; }\n` +
        `STEP_NOTE="the download lines are routine" step logs/f.log "setup: building f" fails\necho "not reached in the caller"`,
      d,
    );
    expect(r.status).toBe(3);
    expect(r.stdout).toMatch(/^setup: building f … failed \(\d+ s, exit status 3\)\n$/);
    const err = r.stderr.split('\n');
    expect(err[0]).toBe(`---- last 40 lines of logs/f.log:`);
    expect(err.slice(1, 41)).toEqual([...Array.from({ length: 39 }, (_, k) => `go: downloading example.com/m${51 + k} v1.0.${51 + k}`), 'main.go:3: undefined: x']);
    expect(err.slice(41)).toEqual(['----', 'note: the download lines are routine', 'full log: logs/f.log', '']);
  });

  it("keeps the caller's set -e inside a function it runs: the line after a failed command does not run", () => {
    const d = tempDir();
    const r = bash(`two() { false; echo "after false"; }\nstep l.log "setup: two" two`, d);
    expect(r.status).toBe(1);
    expect(readFileSync(join(d, 'l.log'), 'utf8')).not.toContain('after false');
  });
});

describe('scripts/build-engines.sh output', () => {
  /** A copy of what build-engines.sh reads, and a `go` that prints go's download lines and writes stand-in engines. */
  function fakeRepo(goFails: boolean): { root: string; env: NodeJS.ProcessEnv } {
    const root = tempDir();
    mkdirSync(join(root, 'scripts/lib'), { recursive: true });
    cpSync(join(REPO, 'scripts/build-engines.sh'), join(root, 'scripts/build-engines.sh'));
    cpSync(STEP, join(root, 'scripts/lib/step.sh'));
    cpSync(join(REPO, 'tools/engines'), join(root, 'tools/engines'), { recursive: true });
    mkdirSync(join(root, 'fakebin'));
    const go = join(root, 'fakebin/go');
    writeFileSync(
      go,
      `#!/bin/sh
[ "$1" = build ] || exit 0
${DOWNLOADS}
${goFails ? 'echo "main.go:7:2: undefined: coremain.Run" >&2; exit 1' : ''}
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
case "$out" in
  */dnsproxy.tmp) printf '#!/bin/sh\\necho "dnsproxy version ${versions.DNSPROXY_VERSION}"\\n' >"$out" ;;
  */coredns.tmp) printf '#!/bin/sh\\necho "CoreDNS-${versions.COREDNS_VERSION!.slice(1)}"\\n' >"$out" ;;
esac
chmod 755 "$out"
`,
    );
    chmodSync(go, 0o755);
    return { root, env: { ...process.env, PATH: `${join(root, 'fakebin')}:${process.env.PATH}` } };
  }

  it('prints one line per engine and none of go\'s download lines', () => {
    const { root, env } = fakeRepo(false);
    const r = spawnSync('bash', ['scripts/build-engines.sh'], { cwd: root, env, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    // setup's own prefix and an estimate, as its other slow phases (walk 18 L5).
    expect(lines[0]).toMatch(new RegExp(`^setup: building AdGuard dnsproxy ${versions.DNSPROXY_VERSION} with Go \\(about a minute\\) … done \\(\\d+ s\\)$`));
    expect(lines[1]).toMatch(new RegExp(`^setup: building CoreDNS ${versions.COREDNS_VERSION} with Go \\(a few minutes\\) … done \\(\\d+ s\\)$`));
    expect(readFileSync(join(root, '.tools/logs/build-dnsproxy.log'), 'utf8').match(/^go: downloading /gm)).toHaveLength(90);
    expect(spawnSync(join(root, '.tools/bin/dnsproxy'), ['--version'], { encoding: 'utf8' }).stdout).toBe(`dnsproxy version ${versions.DNSPROXY_VERSION}\n`);
  });

  it('a failed build prints the error from its log, the log path, and stops', () => {
    const { root, env } = fakeRepo(true);
    const r = spawnSync('bash', ['scripts/build-engines.sh'], { cwd: root, env, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`^setup: building AdGuard dnsproxy ${versions.DNSPROXY_VERSION} with Go \\(about a minute\\) … failed \\(\\d+ s, exit status 1\\)\n$`));
    const log = join(root, '.tools/logs/build-dnsproxy.log');
    expect(r.stderr).toContain('\nmain.go:7:2: undefined: coremain.Run\n----\n');
    expect(r.stderr.endsWith(`full log: ${log}\n`)).toBe(true);
    expect(existsSync(join(root, '.tools/bin/dnsproxy'))).toBe(false);
    expect(existsSync(join(root, '.tools/logs/build-coredns.log'))).toBe(false);
  });
});

describe('scripts/setup.sh output (walk 18 L5)', () => {
  /**
   * A copy of setup.sh with stand-ins: dpkg-query says every package is installed, node_modules
   * carries package-lock.json's hash (npm ci skipped), the engine and Debian host scripts print a
   * line, and `npm` prints npm's banner (`> k2s-dns@… build`), as `npm run build` does.
   */
  function fakeSetup(): { root: string; env: NodeJS.ProcessEnv } {
    const root = tempDir();
    mkdirSync(join(root, 'scripts/lib'), { recursive: true });
    cpSync(join(REPO, 'scripts/setup.sh'), join(root, 'scripts/setup.sh'));
    cpSync(STEP, join(root, 'scripts/lib/step.sh'));
    writeFileSync(join(root, 'scripts/build-engines.sh'), 'echo "setup: engines stand-in"\n');
    writeFileSync(join(root, 'scripts/build-debian-host.sh'), 'echo "setup: debian host stand-in"\n');
    writeFileSync(join(root, 'package-lock.json'), '{}\n');
    mkdirSync(join(root, 'node_modules'));
    const sha = spawnSync('sha256sum', [join(root, 'package-lock.json')], { encoding: 'utf8' }).stdout.split(' ')[0];
    writeFileSync(join(root, 'node_modules/.k2s-dns-lock.sha256'), `${sha}\n`);
    mkdirSync(join(root, 'fakebin'));
    writeFileSync(join(root, 'fakebin/dpkg-query'), '#!/bin/sh\nprintf "install ok installed"\n', { mode: 0o755 });
    writeFileSync(join(root, 'fakebin/npm'), '#!/bin/sh\necho\necho "> k2s-dns@0.0.0 $1 $2"\necho "> node scripts/build.mjs"\n', { mode: 0o755 });
    return { root, env: { ...process.env, PATH: `${join(root, 'fakebin')}:${process.env.PATH}` } };
  }

  it("every line is a setup line: the app's build is one phase (npm's banner in its log), and the last line is the total", () => {
    const { root, env } = fakeSetup();
    const r = spawnSync('bash', ['scripts/setup.sh'], { cwd: root, env, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => !l.startsWith('setup: '))).toEqual([]);
    expect(lines).toContain('setup: debian host stand-in');
    expect(lines.at(-2)).toMatch(/^setup: building the app \(npm run build; a few seconds\) … done \(\d+ s\)$/);
    expect(lines.at(-1)).toMatch(/^setup: done in \d+ (s|min)$/);
    expect(readFileSync(join(root, '.tools/logs/build.log'), 'utf8')).toContain('> k2s-dns@0.0.0 run build');
  });

  it('--no-debian-host skips the Debian 13 root file system and says what then is skipped', () => {
    const { root, env } = fakeSetup();
    const r = spawnSync('bash', ['scripts/setup.sh', '--no-debian-host'], { cwd: root, env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('debian host stand-in');
    expect(r.stdout).toContain('setup: Debian 13 host root file system skipped (--no-debian-host): npm run try-package and the e2e tests that boot it will say skipped\n');
    expect(spawnSync('bash', ['scripts/setup.sh', '--bogus'], { cwd: root, env, encoding: 'utf8' }).status).toBe(64);
  });

  it('--help and -h print the usage on stdout and exit 0, running nothing (new-user walk: exit 64); a bad flag stays 64 with it on stderr', () => {
    const { root, env } = fakeSetup();
    for (const flag of ['--help', '-h']) {
      const r = spawnSync('bash', ['scripts/setup.sh', flag], { cwd: root, env, encoding: 'utf8' });
      expect({ status: r.status, stderr: r.stderr }, flag).toEqual({ status: 0, stderr: '' });
      expect(r.stdout, flag).toMatch(/^usage: bash scripts\/setup\.sh \[--no-debian-host\]\n {2}--no-debian-host: skip/);
      expect(r.stdout, flag).not.toContain('setup: ');
    }
    const bad = spawnSync('bash', ['scripts/setup.sh', '--bogus'], { cwd: root, env, encoding: 'utf8' });
    expect({ status: bad.status, stdout: bad.stdout }).toEqual({ status: 64, stdout: '' });
    expect(bad.stderr).toMatch(/^usage: bash scripts\/setup\.sh \[--no-debian-host\]\n/);
  });
});

describe('scripts/build-debian-host.sh with its root file system present (new-user walk)', () => {
  it('names the command that takes --force (setup.sh does not: usage, exit 64)', () => {
    const root = tempDir();
    mkdirSync(join(root, 'scripts/lib'), { recursive: true });
    cpSync(join(REPO, 'scripts/build-debian-host.sh'), join(root, 'scripts/build-debian-host.sh'));
    cpSync(STEP, join(root, 'scripts/lib/step.sh'));
    // `want` as the script computes it, from its own lines, so the cached copy counts as current.
    const want = spawnSync('bash', ['-c', 'eval "$(sed -n "/^BED_VERSION=/,/^want=/p" scripts/build-debian-host.sh)"; printf %s "$want"'], { cwd: root, encoding: 'utf8' }).stdout;
    expect(want).toMatch(/^bed=\d+ suite=trixie /);
    mkdirSync(join(root, '.tools/debian13'), { recursive: true });
    writeFileSync(join(root, '.tools/debian13/version'), want);
    writeFileSync(join(root, '.tools/debian13/.complete'), '');
    const r = spawnSync('bash', ['scripts/build-debian-host.sh'], { cwd: root, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('setup: Debian 13 host root file system present (.tools/debian13; delete it, or run bash scripts/build-debian-host.sh --force, to rebuild)\n');
  });
});
