/**
 * status.driftOwnerRefusal: the network follower's owner rule (shared/network-writer.ts
 * resolverOwnerRefusal) applied to another program's /etc/resolv.conf, so the drift banner can
 * say why their file is not the default choice (issue 20: a `nobody`-owned file, refused by the
 * follower, was the banner's default).
 */
import { describe, expect, it } from 'vitest';
import { chmod, chown, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { dnsStatus } from './status';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();

describe('status: the owner rule on a drifted file', () => {
  it('a file every user may write: the refusal in the rule’s words; after chmod o-w: none', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    const file = join(h.root, 'etc/resolv.conf');
    await writeFile(file, 'nameserver 198.51.100.77\n');
    await chmod(file, 0o666);
    const s = await dnsStatus(h.deps);
    expect(s.resolverOwner).toBe('foreign');
    expect(s.driftOwnerRefusal).toBe('the new file is writable by every user (mode 0666); K2s follows no file a user could write — fix it with chmod o-w');
    await chmod(file, 0o644);
    expect((await dnsStatus(h.deps)).driftOwnerRefusal).toBeUndefined();
  });

  it('a file owned by nobody (uid 65534): a user account', async (ctx) => {
    if (process.getuid?.() !== 0) {
      console.log('skipped: chown to 65534 needs root');
      ctx.skip();
    }
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    const file = join(h.root, 'etc/resolv.conf');
    await writeFile(file, 'nameserver 198.51.100.77\n');
    await chown(file, 65534, 65534);
    expect((await dnsStatus(h.deps)).driftOwnerRefusal).toMatch(/^the new file is owned by uid 65534, a user account/);
  });
});
