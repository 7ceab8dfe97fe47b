/**
 * Allowed zones that changed nothing. Pure module, no imports: start loads it before the zone
 * policy's own modules (shared/corefile.ts, which uses it too, loads the public suffix list).
 */

/** Zones named in the warning; the rest are counted. */
const MAX_SHOWN = 4;

/**
 * The warning for allowed zones (`--allow-zone`, the Zones panel's toggle, or the last start's)
 * that changed nothing: no zone CoreDNS serves was refused by that name, so none is forwarded
 * because of it (a typo, a zone the cluster does not serve, or one forwarded anyway). Null when
 * every allow forwarded a zone. `allowZones` and `allowed` are lower case without a trailing dot.
 */
export function unusedAllows(allowZones: readonly string[], allowed: readonly string[]): string | null {
  const unused = [...new Set(allowZones)].filter((z) => !allowed.includes(z));
  if (unused.length === 0) return null;
  const shown = unused.slice(0, MAX_SHOWN).map((z) => z.slice(0, 64)).join(', ');
  const more = unused.length > MAX_SHOWN ? ` and ${unused.length - MAX_SHOWN} more` : '';
  return `Allowed zone${unused.length === 1 ? '' : 's'} ${shown}${more} changed nothing: no zone the Corefile serves was refused by ${unused.length === 1 ? 'that name' : 'those names'}, so none is forwarded because of ${unused.length === 1 ? 'it' : 'them'} (check the spelling against the zones listed).`;
}
