/**
 * The host's resolver as the oracle: getaddrinfo(3) (glibc, through NSS `hosts: files dns`) in a
 * child process whose /etc/resolv.conf is `resolvConf`, bind-mounted in its own mount namespace
 * (unshare(1)), so several lookups with different nameserver lists run at once and the shared
 * /etc/resolv.conf is never touched. The child is this Node binary (`dns.lookup`, family 4, so
 * glibc asks A only), which keeps EAI_NONAME apart from EAI_AGAIN — getent(1) exits 2 for both.
 * Node names EAI_NONAME and EAI_NODATA both ENOTFOUND (lib/internal/errors.js dnsException) but
 * keeps libuv's number in `errno`, so the child reports which one it was: NXDOMAIN is EAI_NONAME,
 * a NOERROR reply without an address is EAI_NODATA (glibc nss_dns NO_DATA).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What getaddrinfo said: the IPv4 addresses (sorted) or its error code. */
export type GlibcAnswer = { addresses: string[] } | { error: 'EAI_NONAME' | 'EAI_NODATA' | 'EAI_AGAIN' | 'EAI_FAIL' | string };

/** Short text of an answer for messages and comparisons: `203.0.113.1` or `EAI_NONAME`. */
export function answerText(a: GlibcAnswer): string {
  return 'addresses' in a ? a.addresses.join(',') : a.error;
}

const CHILD = `
const dns = require('node:dns');
const { getSystemErrorName } = require('node:util');
dns.lookup(process.argv[1], { all: true, family: 4, hints: 0 }, (err, addrs) => {
  if (err) process.stdout.write(JSON.stringify({ error: err.code === 'ENOTFOUND' ? getSystemErrorName(err.errno) : err.code }));
  else process.stdout.write(JSON.stringify({ addresses: addrs.map((a) => a.address).sort() }));
});`;

/**
 * getaddrinfo(`name`) with `resolvConf` as /etc/resolv.conf. Needs root (unshare --mount).
 * Throws when the child fails to run or prints nothing within `timeoutMs` (default 30 s,
 * above glibc's longest wait: timeout × attempts × nameservers, capped by resolv.conf(5)).
 */
export async function glibcLookup(resolvConf: string, name: string, timeoutMs = 30_000): Promise<GlibcAnswer> {
  const dir = await mkdtemp(join(tmpdir(), 'k2sdns-gai-'));
  const file = join(dir, 'resolv.conf');
  await writeFile(file, resolvConf);
  try {
    const script = 'mount --bind "$1" /etc/resolv.conf && exec "$2" -e "$3" "$4"';
    const out = await new Promise<string>((resolve, reject) => {
      execFile('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', script, 'sh', file, process.execPath, CHILD, name], { timeout: timeoutMs }, (err, stdout, stderr) =>
        err ? reject(new Error(`glibc lookup of ${name} failed to run: ${stderr.trim() || err.message}`)) : resolve(stdout),
      );
    });
    return JSON.parse(out) as GlibcAnswer;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
