/**
 * Says each problem reading the proxy log once: a web server whose user may not read the log
 * (root:adm 0640, tail.ts logReadError) met it at every poll of every follower and wrote the same
 * `k2s-dns logs: Cannot read the proxy log …` line five times in ~7 s for one page (new-user
 * walk 20). A cause is its message (the path and what is wrong); it is said again only when it
 * changes, or after the log was read since (fixed, then broken again).
 */

/** What a log source tells its reporter: a read problem at `path`, or a read of `path` that worked. */
export interface ReadProblemReporter {
  /** A read of `path` failed with `err` (a LogReadError): written unless it is the cause last written for `path` and no read worked since. */
  problem(path: string, err: Error): void;
  /** A read of `path` worked (the file opened, a tail or page read it): its next problem is written again. */
  readable(path: string): void;
}

/** A reporter that hands each line to `write` (`k2s-dns logs: MESSAGE`); its memory is its own. */
export function createReadProblemReporter(write: (line: string) => void): ReadProblemReporter {
  const said = new Map<string, string>();
  return {
    problem(path, err) {
      if (said.get(path) === err.message) return;
      said.set(path, err.message);
      write(`k2s-dns logs: ${err.message}`);
    },
    readable(path) {
      said.delete(path);
    },
  };
}

/** This process's reporter, to stderr: every log source of the process shares it, so a cause is said once per process. */
export const stderrReadProblems: ReadProblemReporter = createReadProblemReporter((line) => console.error(line));
