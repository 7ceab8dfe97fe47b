/**
 * A DNS name that truncates in the middle (lib/name-tail.ts): the head gives way, the last two
 * labels stay; the full name is the title. Inline boxes, not flex: innerText stays the plain name.
 */
import { splitNameTail } from '../lib/name-tail';

/** The name; `testId` goes on the outer span. */
export function DnsName({ name, testId }: { name: string; testId?: string }) {
  const { head, tail } = splitNameTail(name);
  return (
    <span className="dns-name" title={name} data-testid={testId}>
      {/* The tail's width in ch (the log views are monospace): the head takes what is left. */}
      {head && <span className="dns-name-head" style={{ maxWidth: `calc(100% - ${tail.length}ch)` }}>{head}</span>}
      <span className="dns-name-tail">{tail}</span>
    </span>
  );
}
