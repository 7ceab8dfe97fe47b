/**
 * Numbers a store's requests so only the newest one's answer is applied: answers can arrive out
 * of order (two refreshes in flight, the older answering last), and an older answer must not
 * overwrite a newer one. `begin()` marks a new request and returns `isLatest()` for its answer.
 */
export function latestRequest(): { begin(): () => boolean } {
  let newest = 0;
  return {
    begin() {
      const mine = ++newest;
      return () => mine === newest;
    },
  };
}
