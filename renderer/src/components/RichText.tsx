/** Message text from the backend with `backtick` spans rendered as <code> (never literal backticks). */
import { Fragment } from 'react';
import { splitCodeSpans, type TextPart } from '../../../shared/code-span';

/** Splits `text` into prose and code spans, by the rule the backend writes them with (shared/code-span.ts: CommonMark's). An unpaired backtick stays as text. */
export function splitCode(text: string): TextPart[] {
  return splitCodeSpans(text);
}

/** `text` without its code-span backticks, for places that take plain text (title attributes, option labels). */
export function plainText(text: string): string {
  return splitCode(text).map((p) => p.text).join('');
}

/** Renders `text` with its code spans as <code>. */
export function RichText({ text }: { text: string }) {
  return (
    <>
      {splitCode(text).map((p, i) => (p.code ? <code key={i}>{p.text}</code> : <Fragment key={i}>{p.text}</Fragment>))}
    </>
  );
}
