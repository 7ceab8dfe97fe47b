/**
 * The program the capture companion runs (its argv up to CAPTURE_VERB; host/capture-companion.ts
 * starts it as root, held, before preflight, or as its systemd unit): in the package, its
 * launcher (/usr/bin/k2s-dns, which runs Node from the CLI's startup snapshot); else the
 * companion's own small bundle (CAPTURE_BUNDLE, scripts/build.mjs) when it is next to the code that runs start — dist/ for the
 * CLI, dist/ below the helper's one file in /usr/lib/k2s-dns (scripts/package/layout.ts) — else the
 * entry start runs from (the CLI and the helper entry both take CAPTURE_VERB; from the sources,
 * through tsx, there is no bundle of this build). The bundle is of the same build as the code
 * looking for it, and as root-owned as it: root already runs that code.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CAPTURE_BUNDLE, CAPTURE_VERB } from './capture-args';
import { packagedLauncher } from '../cli-invocation';
import { sayIfDangling } from '../built-file';

/**
 * [PACKAGED_LAUNCHER, CAPTURE_VERB] when the running code is the package's (packagedLauncher):
 * it runs the companion from the CLI's startup snapshot while the snapshot is current
 * (snapshot-run.ts loads only CAPTURE_BUNDLE then), else the script, so Debian's Node skips compiling its bootstrap and builtins on start's
 * path (~30 ms of a capture's ~120 ms to open on the booted Debian 13 host). Else
 * [node, bundle, CAPTURE_VERB] when `here` or `here`/dist holds CAPTURE_BUNDLE, else
 * [node, entry, CAPTURE_VERB]. `node` and `entry` are absolute paths.
 */
export function captureProgram(node: string, entry: string, here: string, exists: (p: string) => boolean = existsSync): string[] {
  const launcher = packagedLauncher(here, exists);
  if (launcher) return [launcher, CAPTURE_VERB];
  const places = [path.join(here, CAPTURE_BUNDLE), path.join(here, 'dist', CAPTURE_BUNDLE)];
  const bundle = places.find((p) => exists(p));
  // Neither there: a dangling link at either place is said on stderr (built-file.ts).
  if (bundle === undefined) for (const p of places) sayIfDangling(p, `the companion from ${entry}`);
  return [node, bundle ?? entry, CAPTURE_VERB];
}
