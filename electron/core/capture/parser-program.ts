/** The packet parser's command line (capture/rows-main.ts's bundle), chosen by the companion that starts it. */
import path from 'node:path';
import { PARSER_VERB } from './capture-args';

/**
 * The packet parser's program (capture/pipeline.ts starts it as the unprivileged capture user):
 * `node --snapshot-blob BLOB -- PARSER_VERB` when the companion itself runs from the CLI's startup
 * snapshot (`execArgv` exactly `--snapshot-blob` and an absolute BLOB: the package's launcher
 * checked that blob before it ran the companion; the blob is 0644, so the parser's user reads
 * it), else `node RUN_PATH`. The snapshot spares the parser what it spares the companion: Debian's
 * Node compiles its bootstrap and every builtin it loads without one (measured on the booted
 * Debian 13 host: ~160 ms of CPU for `node capture-rows.cjs` to its first read, ~60 ms of it in
 * compileForInternalLoader), taken from the CPU that start's own steps need at the same time.
 */
export function parserProgram(node: string, execArgv: readonly string[], runPath: string): { file: string; args: string[] } {
  const blob = execArgv.length === 2 && execArgv[0] === '--snapshot-blob' && path.isAbsolute(execArgv[1]!) ? execArgv[1]! : null;
  return blob ? { file: node, args: ['--snapshot-blob', blob, '--', PARSER_VERB] } : { file: node, args: [runPath] };
}
