/**
 * Numbers a store's requests so an older answer never overwrites a newer one: answers can arrive
 * out of order (two refreshes in flight, the older answering last). `begin()` marks a new
 * request and returns its ticket. Two policies, one numbering:
 * - `ticket()`: true while it is the newest request (the answer of any older one is dropped);
 * - `ticket.claim()`: for polls whose every answer is news: true (and recorded as applied)
 *   unless a later request's answer was applied already, so the view never steps back.
 */
export interface RequestTicket {
  /** True while no later request was begun. */
  (): boolean;
  /** This request's number (1, 2, …). */
  readonly seq: number;
  /** True when an answer to a later request was applied (claimed) already. */
  stale(): boolean;
  /** Applies this answer unless it is stale: true when it may be applied. */
  claim(): boolean;
}

/** A request counter for one store (see RequestTicket). */
export function latestRequest(): { begin(): RequestTicket; /** Requests begun so far. */ readonly sent: number } {
  let newest = 0;
  let applied = 0;
  return {
    begin() {
      const seq = ++newest;
      const stale = () => seq < applied;
      return Object.assign(() => seq === newest, {
        seq,
        stale,
        claim() {
          if (stale()) return false;
          applied = seq;
          return true;
        },
      });
    },
    get sent() {
      return newest;
    },
  };
}
