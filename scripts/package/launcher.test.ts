/**
 * /usr/bin/k2s-dns (resources/packaging/k2s-dns) and the blob's builder
 * (resources/packaging/k2s-dns-snapshot) run for real with sh, on a copy of their paths under a
 * temporary root: a stand-in Node that prints what it was asked to run, the key the builder
 * writes, and the launcher's choice between the startup snapshot and the script.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'k2s-dns-launcher-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const uid = process.getuid?.() ?? 0;

const CACHE = join(root, 'var/cache/k2s-dns');
const DIST = join(root, 'usr/lib/k2s-dns/dist');
const NODE = join(root, 'usr/bin/node');
const LAUNCHER = join(root, 'usr/bin/k2s-dns');
const BUILDER = join(root, 'usr/lib/k2s-dns/k2s-dns-snapshot');

/**
 * The packaged script with its absolute paths under `root`; for a runner other than root, its
 * "owned by uid 0" patterns name the runner's uid (files here are the runner's).
 */
function relocated(file: string): string {
  let text = readFileSync(join(REPO, 'resources/packaging', file), 'utf8');
  for (const p of ['/var/cache/k2s-dns', '/usr/bin/node', '/usr/lib/k2s-dns', '/usr/lib64']) text = text.replaceAll(p, join(root, p));
  return text.replaceAll('in 0:644:*)', `in ${uid}:644:*)`).replace(/^( +)0:\*\[2367\]: \| 0:\*\[2367\]\?:\) ;;\n( +)0:\*\)/m, `$1${uid}:*[2367]: | ${uid}:*[2367]?:) ;;\n$2${uid}:*)`);
}

/** A Node whose "blob" holds the NODE_OPTIONS it was built under, that answers --version as the CLI, and otherwise prints its arguments. */
const FAKE_NODE = `#!/bin/sh
case "$*" in
  *--build-snapshot*) printf '%s' "\${NODE_OPTIONS:-}" > "$2"; exit 0 ;;
  *--version) echo 'k2s-dns 9.9.9'; exit 0 ;;
esac
echo "node $*"
`;

function install(): void {
  rmSync(join(root, 'usr'), { recursive: true, force: true });
  rmSync(join(root, 'var'), { recursive: true, force: true });
  mkdirSync(DIST, { recursive: true });
  mkdirSync(join(root, 'var/cache'), { recursive: true });
  mkdirSync(join(root, 'usr/bin'), { recursive: true });
  for (const f of ['k2s-dns.mjs', 'k2s-dns-cli.cjs', 'k2s-dns-snapshot.cjs']) writeFileSync(join(DIST, f), f);
  writeFileSync(NODE, FAKE_NODE, { mode: 0o755 });
  writeFileSync(LAUNCHER, relocated('k2s-dns'), { mode: 0o755 });
  writeFileSync(BUILDER, relocated('k2s-dns-snapshot'), { mode: 0o755 });
}

/** The builder run as the package's postinst runs it (its defaults: relocated). */
function build(env: Record<string, string> = {}): { code: number | null; stderr: string } {
  const r = spawnSync('sh', [BUILDER], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } });
  return { code: r.status, stderr: r.stderr };
}

/** What /usr/bin/k2s-dns ARGS exec'd: the stand-in Node's line. */
function launch(args: string[], env: Record<string, string> = {}): string {
  return execFileSync('sh', [LAUNCHER, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } }).trim();
}
const FROM_BLOB = (args: string) => `node --snapshot-blob ${CACHE}/k2s-dns-cli.blob -- ${args}`;
const FROM_SCRIPT = (args: string) => `node ${DIST}/k2s-dns.mjs ${args}`;

describe('/usr/bin/k2s-dns and the startup snapshot it runs', () => {
  beforeEach(install);

  it('runs from the blob the builder made while its key matches; the script for the window, once a file changed, or without a blob', () => {
    expect(launch(['status'])).toBe(FROM_SCRIPT('status'));
    expect(build()).toEqual({ code: 0, stderr: '' });
    expect(statSync(CACHE).mode & 0o7777).toBe(0o755);
    expect(launch(['status', '--json'])).toBe(FROM_BLOB('status --json'));
    expect(launch(['ui', '--port', '1'])).toBe(FROM_SCRIPT('ui --port 1'));
    // A new CLI script (another inode, size or time): the key no longer matches.
    utimesSync(join(DIST, 'k2s-dns-cli.cjs'), new Date(0), new Date(0));
    expect(launch(['status'])).toBe(FROM_SCRIPT('status'));
  });

  it('a changed libnode where Fedora\'s and RHEL\'s nodejs-libs put it (/usr/lib64, /usr/bin/node unchanged) no longer matches the key', () => {
    const LIBNODE = join(root, 'usr/lib64/libnode.so.115');
    mkdirSync(join(root, 'usr/lib64'), { recursive: true });
    writeFileSync(LIBNODE, 'libnode 20.19.1');
    expect(build().code).toBe(0);
    expect(launch(['status'])).toBe(FROM_BLOB('status'));
    // nodejs-libs upgraded alone (another Node in the library: Node refuses the blob, exit 14).
    writeFileSync(LIBNODE, 'libnode 20.19.2');
    utimesSync(LIBNODE, new Date(0), new Date(0));
    expect(launch(['status'])).toBe(FROM_SCRIPT('status'));
    rmSync(join(root, 'usr/lib64'), { recursive: true });
  });

  it('a reboot that renumbers the file system\'s device (an overlay or btrfs root: an anonymous 0:N) still runs from the blob', () => {
    expect(build().code).toBe(0);
    // stat(1) as after such a reboot: every file's device number (%d) another, nothing else changed.
    const bin = join(root, 'rebooted-bin');
    mkdirSync(bin, { recursive: true });
    const realStat = execFileSync('sh', ['-c', 'command -v stat'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'stat'), `#!/bin/sh\nfor a; do shift; set -- "$@" "$(printf '%s' "$a" | sed 's/%d/4242/g')"; done\nexec ${realStat} "$@"\n`, { mode: 0o755 });
    expect(launch(['status'], { PATH: `${bin}:${process.env.PATH}` })).toBe(FROM_BLOB('status'));
    rmSync(bin, { recursive: true });
  });

  it('the capture companion (its unit\'s ExecStart) from the blob, else from its own bundle, never the whole CLI script', () => {
    const args = ['capture-watch', '--listen', '127.0.0.1:53', '--port', '53'];
    expect(launch(args)).toBe(`node ${DIST}/k2s-dns-capture-watch.cjs ${args.join(' ')}`);
    expect(build().code).toBe(0);
    expect(launch(args)).toBe(FROM_BLOB(args.join(' ')));
    expect(launch(args, { NODE_OPTIONS: '--max-old-space-size=4096' })).toBe(`node ${DIST}/k2s-dns-capture-watch.cjs ${args.join(' ')}`);
  });

  it('never from the blob with NODE_OPTIONS: Node refuses a snapshot under other V8 flags (exit 14), the script runs with them', () => {
    expect(build().code).toBe(0);
    expect(launch(['stop'], { NODE_OPTIONS: '--max-old-space-size=4096' })).toBe(FROM_SCRIPT('stop'));
    expect(launch(['stop'], { NODE_OPTIONS: '' })).toBe(FROM_BLOB('stop'));
  });

  it('the builder builds with Node\'s defaults whatever NODE_OPTIONS root has (a blob built under a V8 flag fails every command started without it)', () => {
    expect(build({ NODE_OPTIONS: '--max-old-space-size=4096' })).toEqual({ code: 0, stderr: '' });
    expect(readFileSync(join(CACHE, 'k2s-dns-cli.blob'), 'utf8')).toBe('');
    expect(launch(['status'])).toBe(FROM_BLOB('status'));
  });

  it('never from a directory anyone else may write (they could write the key and swap the blob after the check); 0700 is fine', () => {
    expect(build().code).toBe(0);
    for (const mode of [0o777, 0o1777, 0o775, 0o757, 0o2775]) {
      chmodSync(CACHE, mode);
      expect(launch(['status']), mode.toString(8)).toBe(FROM_SCRIPT('status'));
    }
    chmodSync(CACHE, 0o700);
    expect(launch(['status'])).toBe(FROM_BLOB('status'));
    chmodSync(CACHE, 0o2755);
    expect(launch(['status'])).toBe(FROM_BLOB('status'));
  });

  it.skipIf(uid !== 0)('never from a directory another user owns, even with root\'s blob and key in it', () => {
    expect(build().code).toBe(0);
    chownSync(CACHE, 1000, 1000);
    expect(launch(['status'])).toBe(FROM_SCRIPT('status'));
  });

  it('the builder makes a 0700 cache directory (root\'s CLI makes its code cache so) readable by all, so every user runs from the blob', () => {
    mkdirSync(CACHE, { mode: 0o700 });
    chmodSync(CACHE, 0o700);
    expect(build()).toEqual({ code: 0, stderr: '' });
    expect(statSync(CACHE).mode & 0o7777).toBe(0o755);
    // Another directory given on the command line keeps its mode.
    const other = join(root, 'other-cache');
    mkdirSync(other, { mode: 0o700 });
    chmodSync(other, 0o700);
    expect(spawnSync('sh', [BUILDER, DIST, other, NODE], { encoding: 'utf8', env: { PATH: process.env.PATH } }).status).toBe(0);
    expect(statSync(other).mode & 0o7777).toBe(0o700);
    rmSync(other, { recursive: true });
  });

  it('the builder refuses a directory others may write and leaves no blob or key', () => {
    mkdirSync(CACHE);
    chmodSync(CACHE, 0o777);
    const r = build();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`k2s-dns-snapshot: ${CACHE} is owned by uid ${uid} with mode 777`);
    expect(launch(['status'])).toBe(FROM_SCRIPT('status'));
    // A blob and key built before (the directory root's then) are removed too, not left beside the refusal.
    chmodSync(CACHE, 0o755);
    expect(build().code).toBe(0);
    chmodSync(CACHE, 0o777);
    expect(build().code).toBe(1);
    expect(readdirSync(CACHE)).toEqual([]);
  });

  it('the builder keeps no blob that fails to build, or that answers --version otherwise than the script, and removes the one before', () => {
    expect(build().code).toBe(0);
    // A Node whose build fails: the old blob (built for another Node) and its key are gone.
    writeFileSync(NODE, FAKE_NODE.replace('exit 0 ;;', 'echo "snapshot: out of memory" >&2; exit 1 ;;'), { mode: 0o755 });
    const failed = build();
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('--build-snapshot failed (snapshot: out of memory ); k2s-dns runs without a startup snapshot');
    expect(readdirSync(CACHE)).toEqual([]);
    expect(launch(['status'])).toBe(FROM_SCRIPT('status'));
    // A blob that answers --version with something else than the script: not kept.
    writeFileSync(NODE, FAKE_NODE.replace("*--version) echo 'k2s-dns 9.9.9'", "*--snapshot-blob*--version) echo 'k2s-dns 0.0.1'; exit 0 ;;\n  *--version) echo 'k2s-dns 9.9.9'"), { mode: 0o755 });
    const differs = build();
    expect(differs.code).toBe(1);
    expect(differs.stderr).toContain('the startup snapshot answers --version with "k2s-dns 0.0.1", the script with "k2s-dns 9.9.9"');
    expect(readdirSync(CACHE)).toEqual([]);
    expect(launch(['status'])).toBe(FROM_SCRIPT('status'));
  });
});
