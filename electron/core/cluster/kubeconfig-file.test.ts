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
    expect(() => readKubeconfig(dir, 0)).toThrow(`The kubeconfig ${dir} is not a regular file`);
    expect(() => readKubeconfig('/dev/zero', 0)).toThrow('/dev/zero is not a regular file');
    const fifo = join(dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(() => readKubeconfig(fifo, 0)).toThrow('is not a regular file');
  });

  it('refuses a file larger than a kubeconfig', () => {
    const big = join(dir, 'big');
    writeFileSync(big, Buffer.alloc(MAX_KUBECONFIG_BYTES + 1, 0x61));
    expect(() => readKubeconfig(big, 1000)).toThrow(`is ${MAX_KUBECONFIG_BYTES + 1} bytes, more than a kubeconfig`);
  });

  it('never quotes the file in its message (it may be a secret the caller cannot read)', () => {
    const secret = join(dir, 'secret');
    writeFileSync(secret, 'db_password: "hunter2-SECRET" : : [\n');
    expect(() => readKubeconfig(secret, 0)).toThrow(/is not valid YAML \(line \d+\)/);
    expect(() => readKubeconfig(secret, 0)).toThrow(expect.objectContaining({ message: expect.not.stringContaining('hunter2') }));
  });

  it.skipIf(!isRoot)('as root: refuses a credential plugin in a file a non-root user could write; accepts root\'s own (skipped without root)', () => {
    const user = join(dir, 'user-kubeconfig');
    writeFileSync(user, PLUGIN);
    chownSync(user, 1000, 1000);
    expect(() => readKubeconfig(user, 0)).toThrow('is not root-owned and uses users[].user.exec');
    // A YAML merge key must not hide the plugin (client-node's loader resolves `<<`).
    const merged = join(dir, 'merged-kubeconfig');
    writeFileSync(merged, "anchors: &e { exec: { command: /bin/sh, args: [-c, 'id > /tmp/pwned'] } }\nusers:\n- name: u\n  user:\n    <<: *e\n");
    chownSync(merged, 1000, 1000);
    expect(() => readKubeconfig(merged, 0)).toThrow('uses users[].user.exec');
    // Nor may it name files for root to read (token-file, certificate/key paths).
    const files = join(dir, 'files-kubeconfig');
    writeFileSync(files, 'clusters: [{ name: c, cluster: { certificate-authority: /etc/shadow } }]\nusers: [{ name: u, user: { token-file: /root/secret, client-key: /etc/ssh/ssh_host_ed25519_key } }]\n');
    chownSync(files, 1000, 1000);
    expect(() => readKubeconfig(files, 0)).toThrow('uses users[].user.token-file, users[].user.client-key, clusters[].cluster.certificate-authority');
    // Unprivileged callers (k2s-dns zones as the user) run their own plugins, as kubectl does.
    expect(readKubeconfig(user, 1000)).toBe(PLUGIN);
    // Regression: another user's plugin ran in a non-root process on main.
    expect(() => readKubeconfig(user, 1001)).toThrow(`The kubeconfig ${user} uses users[].user.exec but is owned by uid 1000; k2s-dns runs a credential plugin only from your own or root's kubeconfig`);
    expect(() => readKubeconfig(merged, 1001)).toThrow('uses users[].user.exec but is owned by uid 1000');
    const rootsOwn = join(dir, 'root-kubeconfig');
    writeFileSync(rootsOwn, PLUGIN);
    chmodSync(rootsOwn, 0o600);
    expect(readKubeconfig(rootsOwn, 0)).toBe(PLUGIN);
    chmodSync(rootsOwn, 0o666);
    expect(() => readKubeconfig(rootsOwn, 0)).toThrow('is not root-owned');
  });

  it("in a non-root process: runs a plugin only from the caller's or root's file that no one else can write", () => {
    // Works as any user: the file belongs to whoever runs the test; the caller uid is varied.
    const me = process.geteuid?.() ?? 0;
    const other = me === 4242 ? 4243 : 4242;
    const own = join(dir, 'own-kubeconfig');
    writeFileSync(own, PLUGIN);
    chmodSync(own, 0o600);
    if (me === 0) expect(readKubeconfig(own, other)).toBe(PLUGIN); // root's own file
    else expect(readKubeconfig(own, me)).toBe(PLUGIN);
    chmodSync(own, 0o666);
    expect(() => readKubeconfig(own, me === 0 ? other : me)).toThrow(`uses users[].user.exec but is owned by uid ${me} and writable by others`);
    const auth = join(dir, 'auth-provider-kubeconfig');
    writeFileSync(auth, 'users: [{ name: u, user: { auth-provider: { name: oidc } } }]\n');
    chmodSync(auth, 0o646);
    expect(() => readKubeconfig(auth, me === 0 ? other : me)).toThrow('uses users[].user.auth-provider but is owned by');
    // Without a plugin the owner does not matter (embedded data runs nothing).
    const plain = join(dir, 'plain-kubeconfig');
    writeFileSync(plain, 'users: [{ name: u, user: { token: abc } }]\n');
    chmodSync(plain, 0o666);
    expect(readKubeconfig(plain, other)).toContain('token: abc');
  });
});
