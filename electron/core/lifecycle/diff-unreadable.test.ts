/** `k2s-dns diff` as a user: the root-only state directory is named with the command that can read it, not a raw EACCES. */
import { afterEach, describe, expect, it } from 'vitest';
import { setCliName } from '../../../shared/fix';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { resolverDiff } from './diff';
import { trackedHosts } from '../../../e2e/support/test-deps';

const host = trackedHosts();
afterEach(() => setCliName('npx k2s-dns'));

/** What lstat(2) of a path below a 0700 directory of another user gives. */
const eacces = (path: string) => Object.assign(new Error(`EACCES: permission denied, lstat '${path}'`), { code: 'EACCES', errno: -13, syscall: 'lstat', path });

describe('resolverDiff when the state is root-only', () => {
  it('names the file, why, and `sudo k2s-dns diff` on an installed host', async () => {
    const h = await host();
    const lstat = h.deps.fs.lstat.bind(h.deps.fs);
    h.deps.fs.lstat = async (p: string) => {
      if (p === K2S_PATHS.stateFile) throw eacces(p);
      return lstat(p);
    };
    h.deps.uid = () => 1000;
    setCliName('k2s-dns');
    await expect(resolverDiff(h.deps)).rejects.toThrow(
      `The saved original resolver is in ${K2S_PATHS.stateFile}, which only root can read (its directory ${K2S_PATHS.stateDir} is 0700), so the diff cannot be shown to uid 1000; run sudo k2s-dns diff.`,
    );
  });

  it('any other error stays what it was', async () => {
    const h = await host();
    h.deps.fs.lstat = async () => {
      throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
    };
    await expect(resolverDiff(h.deps)).rejects.toThrow('EIO: i/o error');
  });
});
