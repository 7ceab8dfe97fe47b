/**
 * The internal verbs `k2s-dns start` runs as root next to the proxy — `capture-watch` (the exact
 * query log's companion, capture/capture-main.ts) and `follow-watch` (the network follower,
 * lifecycle/follow-main.ts) — answered by loading only their own modules. They skip main.ts and
 * its flag tables (zod schemas), ~70 ms of CPU at each start: start waits for the capture
 * companion to open its capture, so the companion's own start-up is on start's path.
 */
import { CAPTURE_VERB } from '../core/capture/capture-args';
import { INTERNAL_VERB_REFUSED, internalVerbRefusal } from '../core/host/internal-caller';

/** The follower's verb, as host/follower.ts names it (not imported from there: that module loads the unit renderer; internal-verbs.test.ts holds the two equal). */
export const FOLLOW_VERB = 'follow-watch';

/**
 * Runs `argv` (without node and script) when it is an internal verb; resolves its exit status,
 * or null for anything else (main.ts answers it). `follow-watch` with arguments is left to
 * main.ts, which refuses them as usage errors.
 */
export async function runInternalVerb(argv: readonly string[]): Promise<number | null> {
  const [command, ...rest] = argv;
  // Run by start with the pkexec/sudo variables dropped; a caller reaching them through sudo is refused (host/internal-caller.ts).
  if (command === CAPTURE_VERB || (command === FOLLOW_VERB && rest.length === 0)) {
    const refusal = internalVerbRefusal(command);
    if (refusal !== null) {
      process.stderr.write(refusal);
      return INTERNAL_VERB_REFUSED;
    }
  }
  if (command === CAPTURE_VERB) {
    const [{ createHostFs }, { runCapture }] = await Promise.all([import('../core/host/host-fs-node'), import('../core/capture/capture-main')]);
    return runCapture(createHostFs('/'), process.getuid?.() ?? -1, rest, process.argv[1] ?? '');
  }
  if (command === FOLLOW_VERB && rest.length === 0) {
    const [{ createNodeDeps }, { runFollower }] = await Promise.all([import('../core/lifecycle/node-deps'), import('../core/lifecycle/follow-main')]);
    return runFollower(await createNodeDeps());
  }
  return null;
}
