/**
 * Entry of dist/k2s-dns-capture-watch.cjs (scripts/build.mjs; CAPTURE_BUNDLE): the exact query
 * log's companion alone, `node k2s-dns-capture-watch.cjs capture-watch [--held | flags]`
 * (capture-program.ts). It does what `k2s-dns capture-watch` does (cli/internal-verbs.ts) without
 * loading the CLI: Node reads, compiles and runs ~40 KB instead of the CLI's entry and its
 * 1.2 MB script, and start waits for this process to open its capture. Anything but
 * CAPTURE_VERB as the first argument is a usage error (exit 2); `--help` or `-h` after it prints
 * the verb's help (core/internal-help.ts).
 */
import { surviveClosedOutput } from '../closed-output';
import { createHostFs } from '../host/host-fs-node';
import { CAPTURE_VERB } from './capture-args';
import { runCapture } from './capture-main';
import { internalHelp } from '../internal-help';
import { INTERNAL_VERB_REFUSED, internalVerbRefusal } from '../host/internal-caller';

const [verb, ...rest] = process.argv.slice(2);
const help = internalHelp(CAPTURE_VERB, rest);
if (verb === CAPTURE_VERB && help !== null) {
  process.stdout.write(help);
} else if (verb !== CAPTURE_VERB) {
  process.stderr.write(`usage: ${process.argv[1] ?? 'k2s-dns-capture-watch.cjs'} ${CAPTURE_VERB} --held | --listen ADDRESS:PORT … --port PORT … (run by k2s-dns start)\n`);
  process.exitCode = 2;
} else if (internalVerbRefusal(CAPTURE_VERB) !== null) {
  // Run by start with the pkexec/sudo variables dropped (host/internal-caller.ts).
  process.stderr.write(internalVerbRefusal(CAPTURE_VERB)!);
  process.exitCode = INTERNAL_VERB_REFUSED;
} else {
  // Its output is a log file or the journal; a closed one must not end the capture (closed-output.ts).
  surviveClosedOutput();
  // Exits as soon as runCapture has resolved: it has awaited all its work by then (children
  // reaped, the rows file closed, its files written; stdout and stderr, a pipe, a socket or a
  // file, are written synchronously on Linux, Node's process.stdout docs), so nothing is left
  // to wait for, and the stop's unit goes inactive without Node's own teardown after the stop
  // line (12–17 ms at load 6–7 on the booted Debian 13 host; docs/benchmarking.md).
  void runCapture(createHostFs('/'), process.getuid?.() ?? -1, rest, process.argv[1] ?? '').then((code) => process.exit(code));
}
