/**
 * Terminal-safe text for the CLI's human output. Names, record data and reasons come from DNS
 * answers and the cluster's ConfigMap (anyone who controls a zone or the Corefile): a raw ESC
 * (C0) or CSI (C1, U+009B) would let them recolour, rewrite or hide lines, set the window title,
 * or on some terminals inject input (ECMA-48). Every C0 control (U+0000–U+001F, tab and newline
 * included: a field must stay on its line), DEL (U+007F) and C1 control (U+0080–U+009F) becomes
 * a visible escape: `\x1b`, `\x7f`, `\u009b`; so do the line and paragraph separators U+2028/U+2029
 * (some terminals and viewers break lines on them), and the invisible format characters that
 * reorder or hide text (Unicode TR9 bidi controls U+200E/F, U+202A–E, U+2066–9, the zero-width
 * U+200B–D, U+2060–4 and U+FEFF: "Trojan Source", CVE-2021-42574).
 */

const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** `text` with every C0/C1 control and DEL shown as `\xHH` (≤ U+007F), the others as `\uHHHH`. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROLS, (c) => {
    const code = c.charCodeAt(0);
    const hex = code.toString(16).padStart(2, '0');
    return code <= 0x7f ? `\\x${hex}` : `\\u${hex.padStart(4, '0')}`;
  });
}
