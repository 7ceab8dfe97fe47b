/**
 * Entry of dist/k2s-dns-snapshot.cjs (scripts/build.mjs): the script of the CLI's V8 startup
 * snapshot, which the packages build at install (resources/packaging/k2s-dns-snapshot runs
 * `node --snapshot-blob BLOB --build-snapshot k2s-dns-snapshot.cjs`; Node's user-land startup
 * snapshot, https://nodejs.org/api/cli.html#--build-snapshot-entry). /usr/bin/k2s-dns then runs
 * `node --snapshot-blob BLOB ARGS…` while the blob matches the files it was built from.
 *
 * Why: Debian's Node.js is a shared-library build without Node's own start-up snapshot or its
 * builtin modules' code cache (`process.config.variables.node_use_node_snapshot` and
 * `node_use_node_code_cache` are false), so every command compiled Node's bootstrap and each
 * builtin module it loaded: `node -e 0` takes 81 ms on a booted Debian 13 host, and a stop's
 * first action came ~185 ms after exec. From the blob, Node's bootstrap and the builtins below
 * are deserialized, not compiled (docs/bench.md has the figures).
 *
 * What the blob holds: Node's bootstrap, the builtins of SNAPSHOT_BUILTINS and this file's own code; none of
 * the CLI's. At run time the command loads dist/k2s-dns-cli.cjs with its V8 code cache exactly
 * as dist/k2s-dns.mjs does (electron/core/compile-cache/cli-script.ts), so nothing the CLI reads
 * while it loads (its environment, the clock, files) is frozen into the blob: snapshot-run.ts
 * loads its imports at run time. This file exports nothing: Node runs a snapshot's script with
 * `require` for builtins only, and no `module`.
 */
import { startupSnapshot } from 'node:v8';
import { entryPath, runFromSnapshot, SNAPSHOT_BUILTINS } from './snapshot-run';

if (startupSnapshot.isBuildingSnapshot()) {
  for (const name of SNAPSHOT_BUILTINS) require(`node:${name}`);
  startupSnapshot.setDeserializeMainFunction(() => {
    // argv as Node gives it to dist/k2s-dns.mjs: [node, entry, …words]. The follower's and the
    // capture's command lines come from argv[1] (electron/core/lifecycle/node-deps.ts).
    process.argv.splice(1, 0, entryPath(__dirname));
    void runFromSnapshot(process.argv.slice(2), __dirname).then((code) => {
      if (code !== null) process.exitCode = code;
    });
  });
} else {
  process.stderr.write(`k2s-dns-snapshot.cjs builds a startup snapshot: node --snapshot-blob BLOB --build-snapshot ${__filename}\n`);
  // EXIT.usage (shared/lifecycle-events.ts), not imported here: nothing of the CLI loads before run time.
  process.exitCode = 2;
}
