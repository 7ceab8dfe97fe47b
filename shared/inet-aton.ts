/**
 * IPv4 text as glibc's inet_aton(3) reads it: what a `nameserver` line of resolv.conf
 * (glibc resolv/res_init.c: `__inet_aton_exact (cp, &a)`) and a numeric host in getaddrinfo(3)
 * take as an address. Pure module.
 *
 * Rules (inet_aton(3), glibc resinet/inet_addr.c inet_aton_end): one to four parts separated by
 * `.`; each part starts with a digit and is a C number (`0x`/`0X` hex, a leading `0` octal, else
 * decimal); `a` is all 32 bits, `a.b` puts b in the low 24 bits, `a.b.c` c in the low 16; every
 * part but the last is at most 255 and the last fills the bits left. Nothing may follow (the
 * `_exact` form: no trailing dot, no space).
 */

/** One C-notation part (hex, octal or decimal) as inet_aton's strtoul(…, 0) reads it whole, or null. */
function partValue(part: string): number | null {
  if (/^0[xX][0-9a-fA-F]+$/.test(part)) return parseInt(part.slice(2), 16);
  if (/^0[0-7]*$/.test(part)) return parseInt(part, 8);
  if (/^[1-9][0-9]*$/.test(part)) return Number(part);
  return null;
}

/**
 * The dotted quad (`127.0.0.2`) inet_aton makes of `text` (`127.2`, `0x7f000002`, `0177.0.0.2`,
 * `127.0.0.2`), or null when inet_aton refuses it.
 */
export function inetAton(text: string): string | null {
  const parts = text.split('.');
  if (parts.length > 4) return null;
  const values: number[] = [];
  for (const p of parts) {
    const v = partValue(p);
    // strtoul's ERANGE and inet_aton's `ul > 0xffffffff` both refuse a part past 32 bits.
    if (v === null || !(v <= 0xffffffff)) return null;
    values.push(v);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 0xff)) return null;
  const lastBits = 32 - 8 * values.length;
  if (lastBits < 32 && last >= 2 ** lastBits) return null;
  let n = last;
  values.forEach((v, i) => {
    n += v * 2 ** (24 - 8 * i);
  });
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
}
