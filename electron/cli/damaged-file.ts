/**
 * The one stderr line for a file of the built CLI that is there but does not load (truncated, a
 * syntax error, a top level that throws, or no such export): the command then runs as it does
 * without that file (entry.ts: dist/k2s-dns-run.cjs; run-entry.ts: dist/k2s-dns-cli.cjs), so
 * every command still works, and the line says how to get the file back — never a stack.
 */

/** `k2s-dns: FILE does not load (ERROR'S FIRST LINE); this command ran without it. Reinstall …`, newline-ended. */
export function damagedFileLine(file: string, err: unknown): string {
  const what = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return `k2s-dns: ${file} does not load (${what.split('\n', 1)[0]}); this command ran without it. Reinstall k2s-dns, or run \`npm run build\` in the repository.\n`;
}
