/**
 * Text from the cluster or from DNS (zone names, upstreams, reasons: anyone who controls a
 * zone or the Corefile writes them) made visible for people, the same rules in the CLI and the
 * UI. Pure: the URL API is in browsers and Node alike.
 *
 * Escaped as `\xHH` / `\uHHHH`: every C0 control (U+0000–U+001F, tab and newline included: a
 * field must stay on its line), DEL (U+007F) and C1 control (U+0080–U+009F, the 8-bit CSI is
 * U+009B, ECMA-48); the line and paragraph separators U+2028/U+2029 (some viewers break lines on
 * them); and the invisible format characters that reorder or hide text: Unicode TR9 bidi
 * controls U+200E/F, U+202A–E, U+2066–9, U+061C, the zero-width U+200B–D, U+2060–4, U+FEFF,
 * U+180E, U+00AD (soft hyphen) and the tag characters U+E0000–E007F ("Trojan Source",
 * CVE-2021-42574).
 */

const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\udb40[\udc00-\udc7f]/g;

/** `text` with every control and invisible format character shown as `\xHH` (≤ U+007F) or `\uHHHH`/`\u{HHHHH}`. */
export function escapeInvisible(text: string): string {
  return text.replace(INVISIBLE, (c) => {
    const code = c.codePointAt(0)!;
    const hex = code.toString(16);
    return code <= 0x7f ? `\\x${hex.padStart(2, '0')}` : code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, '0')}`;
  });
}

/**
 * The ASCII (punycode, RFC 3492 via IDNA/UTS #46 of the WHATWG URL parser) form of a DNS name
 * with any non-ASCII label, so `gооgle.com` (Cyrillic о) is told apart from `google.com`;
 * null for an all-ASCII name or one the URL parser refuses as a host.
 */
export function asciiForm(name: string): string | null {
  if (!/[^\x00-\x7f]/.test(name)) return null;
  try {
    const host = new URL(`http://${name.replace(/\.$/, '')}/`).hostname;
    return host !== '' && !/[^\x00-\x7f]/.test(host) ? host + (name.endsWith('.') ? '.' : '') : null;
  } catch {
    return null;
  }
}

/** A DNS name for people: escapeInvisible, and for a non-ASCII name its punycode beside it, `name (xn--…)`. */
export function visibleName(name: string): string {
  const ascii = asciiForm(name);
  return ascii === null ? escapeInvisible(name) : `${escapeInvisible(name)} (${ascii})`;
}
