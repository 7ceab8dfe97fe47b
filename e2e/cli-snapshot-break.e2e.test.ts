/**
 * The installed CLI's startup snapshot (resources/packaging/k2s-dns, k2s-dns-snapshot) against
 * what broke it on a booted Debian 13 host with the real .deb: NODE_OPTIONS with a V8 flag (Node
 * refuses a blob under other V8 flags than it was built with: "Failed to load the startup
 * snapshot", exit 14), a /var/cache/k2s-dns another user may write (they write the key, then swap
 * the blob between the launcher's check and Node's open), a 0700 cache directory root's CLI made
 * earlier (users never ran from the blob), and purge (the host file list of package-install
 * leaves /var/cache out).
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackages } from '../scripts/package/main';
import { createDebianHost, debianHostMissing, HOST_SRC, REPO_ROOT, type DebianHost } from './bed/debian-host';
import { PLAIN_NSSWITCH, PLAIN_RESOLV_CONF } from './bed/debian-host-cli';
import { addUser, type HostUser } from './bed/desktop-user';
import { startTestbed, type Testbed } from './bed/testbed';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
const built = existsSync(join(REPO_ROOT, 'dist/k2s-dns.mjs'));
const hostWhy = !inSandbox ? 'the Debian host boots only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)' : !built ? 'not built: run npm run build first' : await debianHostMissing();
if (hostWhy) console.warn(`skipped: the startup snapshot on a booted Debian 13 host (${hostWhy})`);

/** Inside the repo (bound read-only at HOST_SRC in the host), git-ignored. */
const OUT = join(REPO_ROOT, '.tmp', 'cli-snapshot-break');
const EVE: HostUser = { name: 'eve', uid: 1001, home: '/home/eve' };
const CACHE = '/var/cache/k2s-dns';
const BLOB = `${CACHE}/k2s-dns-cli.blob`;
const FROM_BLOB = (args: string) => `+ exec /usr/bin/node --snapshot-blob ${BLOB} -- ${args}`;
const FROM_SCRIPT = (args: string) => `+ exec /usr/bin/node /usr/lib/k2s-dns/dist/k2s-dns.mjs ${args}`;

describe.skipIf(hostWhy !== null)('the installed CLI\'s startup snapshot on a booted Debian 13 host', () => {
  let tb: Testbed;
  let h: DebianHost;
  let deb: string;

  beforeAll(async () => {
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    deb = `${HOST_SRC}/${(await buildPackages({ version: '0.1.0', out: OUT, skipBuild: true })).deb.slice(REPO_ROOT.length).replace(/^\/+/, '')}`;
    tb = await startTestbed();
    h = await createDebianHost({ files: { '/etc/resolv.conf': PLAIN_RESOLV_CONF, '/etc/nsswitch.conf': PLAIN_NSSWITCH } });
    await h.boot();
    await h.waitRunning();
    await addUser(h, EVE, await readFile(tb.kubeconfigPath, 'utf8'));
  }, 240_000);
  afterAll(async () => {
    await h?.destroy();
    await tb?.stop();
  }, 120_000);

  /** `apt-get -y ARGS` with `env` added (NODE_OPTIONS as root's environment may hold it). */
  const apt = async (args: string[], env: string[] = []) => {
    const r = await h.run(['env', 'DEBIAN_FRONTEND=noninteractive', ...env, 'apt-get', '-y', '-o', 'Acquire::Retries=0', ...args], { timeoutMs: 120_000 });
    return { code: r.code, out: r.stdout + r.stderr };
  };
  /** Which exec /usr/bin/k2s-dns chose (sh -x), as `who`, with `env`; its exit status. */
  const launch = async (args: string[], opts: { who?: string; env?: string[] } = {}) => {
    const r = await h.run([...(opts.who ? ['runuser', '-u', opts.who, '--'] : []), 'env', ...(opts.env ?? []), 'sh', '-x', '/usr/bin/k2s-dns', ...args]);
    return { exec: r.stderr.split('\n').filter((l) => l.startsWith('+ exec ')).at(-1) ?? '', code: r.code, failed: r.stderr.includes('Failed to load the startup snapshot') };
  };

  it('a 0700 cache directory from earlier becomes 0755 at install, so users run from the blob; installed under NODE_OPTIONS=--max-old-space-size, the blob is Node\'s defaults', async () => {
    // What root's CLI makes for its code cache before the package ever built a blob.
    expect((await h.run(['install', '-d', '-m', '0700', CACHE])).code).toBe(0);
    const inst = await apt(['install', '--no-install-recommends', deb], ['NODE_OPTIONS=--max-old-space-size=4096']);
    expect(inst.code, inst.out).toBe(0);
    expect((await h.run(['stat', '-c', '%U %a', CACHE, BLOB])).stdout).toBe('root 755\nroot 644\n');
    expect(await launch(['--version'], { who: EVE.name })).toEqual({ exec: FROM_BLOB('--version'), code: 0, failed: false });
    expect(await launch(['status'])).toEqual({ exec: FROM_BLOB('status'), code: 0, failed: false });
  }, 300_000);

  it('NODE_OPTIONS with a V8 flag runs the script (the blob would refuse it, exit 14)', async () => {
    expect(await launch(['status'], { env: ['NODE_OPTIONS=--max-old-space-size=4096'] })).toEqual({ exec: FROM_SCRIPT('status'), code: 0, failed: false });
    expect(await launch(['--version'], { who: EVE.name, env: ['NODE_OPTIONS=--expose-gc'] })).toEqual({ exec: FROM_SCRIPT('--version'), code: 0, failed: false });
  }, 120_000);

  it('a cache directory others may write: the launcher runs the script even with a key a user wrote for a link to root\'s own blob', async () => {
    expect((await h.run(['chmod', '0777', CACHE])).code).toBe(0);
    // eve moves root's blob aside (same inode, owner, mode), links its name to it and writes the key for it.
    const plant = await h.run(['runuser', '-u', EVE.name, '--', 'sh', '-c', `cd ${CACHE} && mv k2s-dns-cli.blob real.blob && ln -s real.blob k2s-dns-cli.blob && rm -f k2s-dns-cli.blob.key && stat -L --printf '%u:%a:%i:%s:%Y:%Z|' -- ${BLOB} /usr/bin/node /usr/lib/*/libnode.so.* /usr/lib64/libnode.so.* /usr/lib/k2s-dns/dist/k2s-dns-cli.cjs /usr/lib/k2s-dns/dist/k2s-dns-snapshot.cjs > k2s-dns-cli.blob.key 2>/dev/null; echo >> k2s-dns-cli.blob.key && head -c 6 k2s-dns-cli.blob.key`]);
    expect(plant.stdout, plant.stderr).toBe('0:644:');
    expect(await launch(['--version'])).toEqual({ exec: FROM_SCRIPT('--version'), code: 0, failed: false });
    // The builder refuses the directory too (and removes the planted key and link first).
    const rebuild = await h.run(['/usr/lib/k2s-dns/k2s-dns-snapshot']);
    expect(rebuild.code).toBe(1);
    expect(rebuild.stderr).toContain(`k2s-dns-snapshot: ${CACHE} is owned by uid 0 with mode 777`);
    expect(await launch(['--version'])).toEqual({ exec: FROM_SCRIPT('--version'), code: 0, failed: false });
    // Made root's alone again, dpkg's trigger on /usr/bin/node builds the blob again.
    expect((await h.run(['sh', '-c', `rm -f ${CACHE}/real.blob && chmod 0755 ${CACHE} && dpkg-trigger --no-await /usr/bin/node && dpkg --triggers-only --pending`], { timeoutMs: 120_000 })).code).toBe(0);
    expect(await launch(['--version'])).toEqual({ exec: FROM_BLOB('--version'), code: 0, failed: false });
  }, 180_000);

  it('purge leaves no /var/cache/k2s-dns (root\'s code cache and the blob)', async () => {
    expect((await h.run(['k2s-dns', 'status'])).code).toBe(0);
    const purge = await apt(['purge', 'k2s-dns']);
    expect(purge.code, purge.out).toBe(0);
    expect((await h.run(['test', '-e', CACHE])).code).toBe(1);
  }, 120_000);
});
