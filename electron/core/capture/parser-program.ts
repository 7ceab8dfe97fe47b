/** The packet parser's command line (capture/rows-main.ts's bundle), chosen by the companion that starts it. */
import { statSync } from 'node:fs';
import path from 'node:path';
import { PARSER_VERB } from './capture-args';

/**
 * True when a user who neither owns `file` nor is in its group can read it (the parser's user,
 * nobody): it is other-readable (o+r) and every directory above it other-searchable (o+x) —
 * path_resolution(7). POSIX ACLs are not read: a file they alone would open counts as not
 * readable (the parser then runs the script). False when a stat fails.
 */
export function othersCanRead(file: string, stat: (p: string) => { mode: number } = statSync): boolean {
  try {
    if ((stat(file).mode & 0o004) === 0) return false;
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      if ((stat(dir).mode & 0o001) === 0) return false;
      if (dir === path.dirname(dir)) return true;
    }
  } catch {
    return false;
  }
}

/**
 * The packet parser's program (capture/pipeline.ts starts it as the unprivileged capture user):
 * `node --snapshot-blob BLOB -- PARSER_VERB` when the companion itself runs from the CLI's startup
 * snapshot (`execArgv` exactly `--snapshot-blob` and an absolute BLOB: the package's launcher
 * checked that blob before it ran the companion) and the parser's user can read BLOB
 * (`readable`, othersCanRead: the launcher accepts a root-only 0700 cache directory, where Node
 * as nobody exits 14, "Cannot open" the blob, measured on the booted Debian 13 host), else
 * `node RUN_PATH`. The snapshot spares the parser what it spares the companion: Debian's
 * Node compiles its bootstrap and every builtin it loads without one (measured on the booted
 * Debian 13 host: ~160 ms of CPU for `node capture-rows.cjs` to its first read, ~60 ms of it in
 * compileForInternalLoader), taken from the CPU that start's own steps need at the same time.
 */
export function parserProgram(node: string, execArgv: readonly string[], runPath: string, readable: (blob: string) => boolean = othersCanRead): { file: string; args: string[] } {
  const blob = execArgv.length === 2 && execArgv[0] === '--snapshot-blob' && path.isAbsolute(execArgv[1]!) ? execArgv[1]! : null;
  return blob && readable(blob) ? { file: node, args: ['--snapshot-blob', blob, '--', PARSER_VERB] } : { file: node, args: [runPath] };
}
