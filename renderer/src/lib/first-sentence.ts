/**
 * The first sentence of a lifecycle message, for the places that repeat a message the window
 * shows in full elsewhere (a step row under its result, the live region's announcement).
 * A sentence ends at ".", "!" or "?" followed by a space and a capital letter or an opening
 * quote/parenthesis; so "127.0.0.1", "e.g. foo" and times like "02:23:54" never end one.
 */
export function firstSentence(text: string): { first: string; more: boolean } {
  const m = /^(.*?[.!?])\s+(?=[A-Z"`(])/s.exec(text);
  return m ? { first: m[1]!, more: true } : { first: text, more: false };
}
