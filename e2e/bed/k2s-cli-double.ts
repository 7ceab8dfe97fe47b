/**
 * tools/k2s-cli-double (Go: what K2s's own CLI does on `k2s stop` / `k2s uninstall`), built into
 * the checkout's .tmp (a real directory in every worktree, so the booted host sees it at
 * HOST_K2S_DOUBLE; a symlinked .tools does not resolve inside the host).
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HOST_SRC, REPO_ROOT } from './debian-host';

/** Where the booted host runs the double. */
export const HOST_K2S_DOUBLE = `${HOST_SRC}/.tmp/k2s-cli-double`;

/** Builds the double (standard library only, no download; 170 s bound): null, or why it could not. */
export async function buildK2sDouble(): Promise<string | null> {
  await mkdir(join(REPO_ROOT, '.tmp'), { recursive: true });
  const env = { ...process.env, CGO_ENABLED: '0', GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod', GOCACHE: join(REPO_ROOT, '.tmp', 'go-cache') };
  for (const go of ['go', '/usr/local/go/bin/go']) {
    try {
      await promisify(execFile)(go, ['build', '-trimpath', '-o', join(REPO_ROOT, '.tmp', 'k2s-cli-double'), '.'], { cwd: join(REPO_ROOT, 'tools', 'k2s-cli-double'), env, timeout: 170_000 });
      return null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return `go build of tools/k2s-cli-double failed: ${(err as Error).message}`;
    }
  }
  return 'Go is not installed (tools/k2s-cli-double is a Go program)';
}
