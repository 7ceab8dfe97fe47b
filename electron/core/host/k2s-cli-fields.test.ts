import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResolverStateFile } from '../../../shared/state-file';
import type { ResolverEntry } from '../../../shared/types';
import { createHostFs } from './host-fs-node';
import { fromK2sCliState, toK2sCliFields } from './k2s-cli-state';
import { parseStateText, readState, writeState } from './state-store';

const ORIGINAL = 'nameserver 192.0.2.53\nsearch example.test\noptions edns0\n';
const FILE: ResolverEntry = { kind: 'file', contentBase64: Buffer.from(ORIGINAL).toString('base64'), mode: 0o644, uid: 0, gid: 0, immutable: false };
const LINK: ResolverEntry = { kind: 'symlink', target: '../run/systemd/resolve/stub-resolv.conf', uid: 0, gid: 0, dangling: false, targetContentBase64: 'bmFtZXNlcnZlciAxMjcuMC4wLjUzCg==' };

const state = (resolvConf: ResolverEntry): ResolverStateFile => ({
  version: 1,
  writtenBy: 'k2s-dns',
  savedAt: '2026-12-06T23:00:00.000Z',
  resolvConf,
  upstreams: ['192.0.2.53'],
  resolvedDropIn: false,
  engine: 'adguard',
  listeners: [{ address: '127.0.0.1', port: 53 }],
  skippedListeners: [],
  clusterDomain: 'cluster.local',
  kubeDnsIp: '172.21.0.10',
  kubernetesServiceIp: '172.21.0.1',
  managedResolvConfSha256: 'ab'.repeat(32),
});

describe("K2s's own CLI's members in the state file (k2s stop / k2s uninstall restore from them)", () => {
  it('a regular file: Go os.FileMode 0644 (420), its exact bytes as standard base64, not immutable', () => {
    const f = toK2sCliFields(FILE);
    expect(f).toEqual({ mode: 420, content: 'bmFtZXNlcnZlciAxOTIuMC4yLjUzCnNlYXJjaCBleGFtcGxlLnRlc3QKb3B0aW9ucyBlZG5zMAo=', wasImmutable: false });
    expect(Buffer.from(f.content!, 'base64').toString('utf8')).toBe(ORIGINAL);
  });

  it("a symlink: its exact readlink string and Go's ModeSymlink|0777; setuid/setgid/sticky as Go's bits; an empty file has no content (omitempty)", () => {
    expect(toK2sCliFields(LINK)).toEqual({ mode: 2 ** 27 + 0o777, linkTarget: '../run/systemd/resolve/stub-resolv.conf', wasImmutable: false });
    expect(toK2sCliFields({ ...FILE, mode: 0o4640, immutable: true })).toMatchObject({ mode: 2 ** 23 + 0o640, wasImmutable: true });
    expect(toK2sCliFields({ ...FILE, mode: 0o3600 })).toMatchObject({ mode: 2 ** 22 + 2 ** 20 + 0o600 });
    expect(toK2sCliFields({ ...FILE, contentBase64: '' })).toEqual({ mode: 420, wasImmutable: false });
    // No original at all: K2s writes an empty 0644 file, which glibc reads as it reads none.
    expect(toK2sCliFields({ kind: 'absent' })).toEqual({ mode: 420, wasImmutable: false });
  });

  it("round trip: what K2s's reader (fromK2sCliState) makes of them is the saved file, owner aside", () => {
    expect(fromK2sCliState(toK2sCliFields(FILE))).toEqual(FILE);
    expect(fromK2sCliState(toK2sCliFields({ ...FILE, mode: 0o600 }))).toEqual({ ...FILE, mode: 0o600 });
    expect(fromK2sCliState(toK2sCliFields(LINK))).toEqual({ ...LINK, targetContentBase64: null });
  });

  describe('written and read through the state file', () => {
    let root: string;
    beforeEach(() => {
      root = mkdtempSync(path.join(os.tmpdir(), 'k2s-cli-fields-'));
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('writeState puts them at the top level beside version 1; readState gives back exactly the state written, without them', async () => {
      const fs = createHostFs(root);
      await writeState(fs, state(FILE));
      const json = JSON.parse(readFileSync(path.join(root, 'var/lib/k2s/dns-resolver-state.json'), 'utf8'));
      expect(json).toMatchObject({ version: 1, writtenBy: 'k2s-dns', mode: 420, content: FILE.kind === 'file' ? FILE.contentBase64 : '', wasImmutable: false });
      expect(json.linkTarget).toBeUndefined();
      expect(await readState(fs)).toEqual(state(FILE));
    });

    it('a follow that saves a file over a saved symlink drops the link target (K2s would make the old link again)', async () => {
      const fs = createHostFs(root);
      await writeState(fs, state(LINK));
      const read = (await readState(fs))!;
      await writeState(fs, { ...read, resolvConf: FILE });
      const json = JSON.parse(readFileSync(path.join(root, 'var/lib/k2s/dns-resolver-state.json'), 'utf8'));
      expect(json.linkTarget).toBeUndefined();
      expect(json.mode).toBe(420);
      expect(Buffer.from(json.content, 'base64').toString('utf8')).toBe(ORIGINAL);
    });

    it('a state file of an earlier version (no K2s members) still reads', () => {
      expect(parseStateText(JSON.stringify(state(LINK)), '2026-12-06T00:00:00.000Z')).toEqual(state(LINK));
    });
  });
});
