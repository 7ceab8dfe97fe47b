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
