import { afterAll, describe, expect, it } from 'vitest';
import { chownSync, chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readKubeconfig, MAX_KUBECONFIG_BYTES } from './kubeconfig-file';

const dir = mkdtempSync(join(tmpdir(), 'k2s-kubeconfig-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const isRoot = process.getuid?.() === 0;

const PLUGIN = `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: 'https://127.0.0.1:6443' } }]
users: [{ name: u, user: { exec: { apiVersion: client.authentication.k8s.io/v1, command: /bin/sh, args: [-c, 'id > /tmp/pwned'] } } }]
contexts: [{ name: x, context: { cluster: c, user: u } }]
current-context: x
`;

describe('readKubeconfig', () => {
  it('refuses what is not a regular file: a directory, /dev/zero, a FIFO (without hanging)', () => {
    expect(() => readKubeconfig(dir, true)).toThrow(`The kubeconfig ${dir} is not a regular file`);
    expect(() => readKubeconfig('/dev/zero', true)).toThrow('/dev/zero is not a regular file');
    const fifo = join(dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(() => readKubeconfig(fifo, true)).toThrow('is not a regular file');
  });

  it('refuses a file larger than a kubeconfig', () => {
    const big = join(dir, 'big');
    writeFileSync(big, Buffer.alloc(MAX_KUBECONFIG_BYTES + 1, 0x61));
    expect(() => readKubeconfig(big, false)).toThrow(`is ${MAX_KUBECONFIG_BYTES + 1} bytes, more than a kubeconfig`);
  });

  it('never quotes the file in its message (it may be a secret the caller cannot read)', () => {
    const secret = join(dir, 'secret');
    writeFileSync(secret, 'db_password: "hunter2-SECRET" : : [\n');
    expect(() => readKubeconfig(secret, true)).toThrow(/is not valid YAML \(line \d+\)/);
    expect(() => readKubeconfig(secret, true)).toThrow(expect.objectContaining({ message: expect.not.stringContaining('hunter2') }));
  });

  it.skipIf(!isRoot)('as root: refuses a credential plugin in a file a non-root user could write; accepts root\'s own (skipped without root)', () => {
    const user = join(dir, 'user-kubeconfig');
    writeFileSync(user, PLUGIN);
    chownSync(user, 1000, 1000);
    expect(() => readKubeconfig(user, true)).toThrow('is not root-owned and uses users[].user.exec');
    // A YAML merge key must not hide the plugin (client-node's loader resolves `<<`).
    const merged = join(dir, 'merged-kubeconfig');
    writeFileSync(merged, "anchors: &e { exec: { command: /bin/sh, args: [-c, 'id > /tmp/pwned'] } }\nusers:\n- name: u\n  user:\n    <<: *e\n");
    chownSync(merged, 1000, 1000);
    expect(() => readKubeconfig(merged, true)).toThrow('uses users[].user.exec');
    // Nor may it name files for root to read (token-file, certificate/key paths).
    const files = join(dir, 'files-kubeconfig');
    writeFileSync(files, 'clusters: [{ name: c, cluster: { certificate-authority: /etc/shadow } }]\nusers: [{ name: u, user: { token-file: /root/secret, client-key: /etc/ssh/ssh_host_ed25519_key } }]\n');
    chownSync(files, 1000, 1000);
    expect(() => readKubeconfig(files, true)).toThrow('uses users[].user.token-file, users[].user.client-key, clusters[].cluster.certificate-authority');
    // Unprivileged callers (k2s-dns zones as the user) run their own plugins, as kubectl does.
    expect(readKubeconfig(user, false)).toBe(PLUGIN);
    const rootsOwn = join(dir, 'root-kubeconfig');
    writeFileSync(rootsOwn, PLUGIN);
    chmodSync(rootsOwn, 0o600);
    expect(readKubeconfig(rootsOwn, true)).toBe(PLUGIN);
    chmodSync(rootsOwn, 0o666);
    expect(() => readKubeconfig(rootsOwn, true)).toThrow('is not root-owned');
  });
});
