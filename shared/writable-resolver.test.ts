/** followFixCommands / followFixLine (walk 11 M3): the commands after which the follower's owner rule passes. */
import { afterEach, describe, expect, it } from 'vitest';
import { followFixCommands, followFixLine } from './writable-resolver';
import { resolverOwnerProblem } from './network-writer';
import { setCliName } from './fix';

afterEach(() => setCliName('npx k2s-dns'));

describe('followFixCommands', () => {
  it.each([
    [{ uid: 0, gid: 0, mode: 0o666 }, ['chmod o-w /etc/resolv.conf'], 0o644],
    [{ uid: 0, gid: 4, mode: 0o664 }, ['chmod g-w /etc/resolv.conf'], 0o644],
    [{ uid: 0, gid: 4, mode: 0o666 }, ['chmod go-w /etc/resolv.conf'], 0o644],
    [{ uid: 1000, gid: 1000, mode: 0o664 }, ['chown root:root /etc/resolv.conf'], 0o664],
    [{ uid: 1000, gid: 1000, mode: 0o666 }, ['chown root:root /etc/resolv.conf', 'chmod o-w /etc/resolv.conf'], 0o664],
  ])('%o → %j, and the file passes after them', (owner, commands, modeAfter) => {
    expect(followFixCommands(owner)).toEqual(commands);
    const after = { uid: commands.some((c) => c.startsWith('chown')) ? 0 : owner.uid, gid: commands.some((c) => c.startsWith('chown')) ? 0 : owner.gid, mode: modeAfter };
    expect(resolverOwnerProblem(owner)).not.toBeNull();
    expect(resolverOwnerProblem(after)).toBeNull();
  });

  it('a file that passes needs none', () => {
    expect(followFixCommands({ uid: 0, gid: 0, mode: 0o644 })).toEqual([]);
    expect(followFixLine({ uid: 0, gid: 0, mode: 0o644 })).toBeNull();
  });

  it('the line goes through shellCommand: sudo each, or the sandbox wrapper', () => {
    setCliName('k2s-dns');
    expect(followFixLine({ uid: 1000, gid: 1000, mode: 0o666 })).toBe('sudo chown root:root /etc/resolv.conf && sudo chmod o-w /etc/resolv.conf');
    setCliName('/tmp/sb/k2s-dns', false, true);
    expect(followFixLine({ uid: 0, gid: 0, mode: 0o666 })).toBe("/tmp/sb/k2s-dns sh -c 'chmod o-w /etc/resolv.conf'");
  });
});
