/** Message text from the backend with `backtick` spans rendered as <code> (never literal backticks). */
import { Fragment } from 'react';

/** Splits `text` at backticks: odd parts are code. An unpaired backtick stays as text. */
export function splitCode(text: string): { code: boolean; text: string }[] {
  const parts = text.split('`');
  if (parts.length % 2 === 0) return [{ code: false, text }];
  return parts.map((t, i) => ({ code: i % 2 === 1, text: t })).filter((p) => p.text !== '');
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
