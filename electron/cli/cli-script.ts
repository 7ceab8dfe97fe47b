/**
 * Entry of dist/k2s-dns-cli.cjs (scripts/build.mjs): the whole CLI but the window's verbs as
 * ONE CommonJS script, which entry.ts runs through a V8 code cache
 * (electron/core/compile-cache/cli-script.ts).
 * Its module.exports is this module's exports.
 */
export { runCli } from './run-cli';
