import { execFile } from 'node:child_process';

/**
 * Runs a host tool (ip, getent, sha256sum…) with an argv array, no shell, and returns stdout.
 * Throws with the tool's stderr when it exits non-zero. The child's stdin is never written,
 * so a tool that exits at once cannot raise EPIPE.
 */
export function runCmd(file: string, args: readonly string[], timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, [...args], { timeout: timeoutMs }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${file} ${args.join(' ')} failed: ${stderr.trim() || err.message}`));
      else resolve(stdout);
    });
  });
}
