/**
 * Terminal-safe text for the CLI's human output. Names, record data and reasons come from DNS
 * answers and the cluster's ConfigMap (anyone who controls a zone or the Corefile): a raw ESC
 * (C0) or CSI (C1, U+009B) would let them recolour, rewrite or hide lines, set the window title,
 * or on some terminals inject input (ECMA-48); bidi and zero-width characters reorder or hide
 * text. The rules are shared with the UI: shared/visible-text.ts.
 */
import { escapeInvisible } from '../../shared/visible-text';

/** `text` with every C0/C1 control, DEL and invisible format character shown as `\xHH` / `\uHHHH`. */
export function terminalSafe(text: string): string {
  return escapeInvisible(text);
}
