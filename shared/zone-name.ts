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
