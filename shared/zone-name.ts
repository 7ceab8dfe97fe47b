/**
 * The zone-name text every boundary accepts (the contract's allowZones, the helper's
 * --allow-zones, the CLI's --allow-zone, the proxy config renderers, the zone policy):
 * lower-case labels of 1–63 letters, digits, `-` or `_` (SRV-style labels), dot-separated,
 * no trailing dot, at most 253 characters in all (RFC 1035 §2.3.4). Pure module.
 */

/** One zone name without trailing dot, lower case (the length limit is MAX_ZONE_NAME_LENGTH). */
export const ZONE_NAME_RE = /^[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})*$/;

/** Longest zone name in text form, characters (RFC 1035 §2.3.4). */
export const MAX_ZONE_NAME_LENGTH = 253;

/** Whether `text` is a zone name as ZONE_NAME_RE and MAX_ZONE_NAME_LENGTH define it. */
export function isZoneName(text: string): boolean {
  return text.length <= MAX_ZONE_NAME_LENGTH && ZONE_NAME_RE.test(text);
}

/**
 * One zone label as every route K2s writes needs it: letters, digits, `_` (service labels such
 * as `_tcp`), hyphens only inside (RFC 952, RFC 1123 §2.1 host name labels). The zone policy
 * (corefile-policy.ts zoneRefusal) and systemd-resolved's routing domains (resolved-link.ts
 * routingDomains) share it, so a `-corp.lan` zone is refused at discovery, not at resolved's route.
 */
export const ZONE_LABEL_RE = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** The first label of `zone` (lower case, no trailing dot) that starts or ends with a hyphen, or null. */
export function edgeHyphenLabel(zone: string): string | null {
  return zone.split('.').find((l) => l !== '' && !ZONE_LABEL_RE.test(l) && /^-|-$/.test(l)) ?? null;
}

/** True for a zone name (isZoneName) whose every label passes ZONE_LABEL_RE: one a route can carry. */
export function isRoutableZoneName(zone: string): boolean {
  return isZoneName(zone) && zone.split('.').every((l) => ZONE_LABEL_RE.test(l));
}

/** `ch` as people can find it: the character and its code point, e.g. `"K" (U+212A)`. */
function codePointWords(ch: string): string {
  return `"${ch}" (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`;
}

/**
 * A zone name as people type it, folded as DNS folds it: ASCII letters to lower case (RFC 4343
 * §3: only the 26 ASCII letters compare case-insensitively), the trailing dot dropped. JavaScript's
 * toLowerCase folds Unicode too: the Kelvin sign U+212A becomes `k` and U+0130 becomes `i` plus a
 * combining dot, so `\u212A8s.corp` (a Kelvin sign first) would pass as `k8s.corp`, a zone it is not. Any non-ASCII character is
 * refused instead (a zone is ASCII on the wire; an IDN is typed in its `xn--` form), naming it
 * and, when Unicode folds it to ASCII, what it looks like.
 * Throws an Error whose message continues "--allow-zone …".
 */
export function foldZoneText(text: string): string {
  for (const ch of text) {
    if (ch.codePointAt(0)! < 0x80) continue;
    const folded = ch.toLowerCase().normalize('NFKC');
    const looks = !/^[\u0000-\u007f]+$/.test(folded) ? '' : `; it only looks like the ASCII "${folded}", which RFC 4343 case folding never makes of it — type "${folded}"`;
    throw new Error(`must be an ASCII zone name such as corp.example, not "${text.slice(0, 64).replace(/[\u0000-\u001f\u007f-\u009f]/g, '?')}": it holds the non-ASCII character ${codePointWords(ch)}${looks} (an internationalized name goes in its xn-- form).`);
  }
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(/\.$/, '');
}
