/**
 * A structural check of a DNS message before it is decoded (RFC 1035 §4.1): dns-packet 5.6
 * throws on bad pointers and labels but decodes a truncated message into garbage
 * (`1.undefined.undefined.undefined`), so the bounds are checked here, where the reason can be
 * named. Walks the header, every question and every resource record of all three sections.
 */

/** Largest encoded name, octets (RFC 1035 §2.3.4). */
const MAX_NAME = 255;
/** Largest label, octets (RFC 1035 §2.3.4); 0x40/0x80 label types are not in use (RFC 6891 §5). */
const MAX_LABEL = 63;

/** Thrown inside the walk; its message is the reason. */
class Malformed extends Error {}

/**
 * Why `msg` is not a well-formed DNS message, or null when every section parses within its
 * bounds: "truncated …", "compression pointer at N points forward (a loop)", "label length 64
 * at N is over 63 (…)", "name longer than 255 octets at N".
 */
export function malformedReason(msg: Uint8Array): string | null {
  const view = Buffer.from(msg.buffer, msg.byteOffset, msg.byteLength);
  const need = (at: number, n: number, what: string) => {
    if (at + n > view.length) throw new Malformed(`truncated: ${what} at octet ${at} needs ${n} octet${n === 1 ? '' : 's'}, the message has ${view.length}`);
  };
  /** Offset just past the name at `start`; pointers must point strictly backward (no loop). */
  const name = (start: number): number => {
    let at = start;
    let end = -1;
    let length = 0;
    let limit = start; // a pointer must go below every position seen so far
    for (;;) {
      need(at, 1, 'a name label');
      const len = view[at]!;
      if (len === 0) return end === -1 ? at + 1 : end;
      const kind = len & 0xc0;
      if (kind === 0xc0) {
        need(at, 2, 'a compression pointer');
        const to = view.readUInt16BE(at) & 0x3fff;
        if (to >= limit) throw new Malformed(`compression pointer at octet ${at} points to ${to}, not before the name (a loop)`);
        if (end === -1) end = at + 2;
        limit = to;
        at = to;
        continue;
      }
      // Top bits 01/10: a length over 63 or an unused label type; either way undecodable.
      if (kind !== 0) throw new Malformed(`label length ${len} at octet ${at} is over ${MAX_LABEL} (label type 0x${kind.toString(16)} is not in use)`);
      length += len + 1;
      if (length + 1 > MAX_NAME) throw new Malformed(`name longer than ${MAX_NAME} octets at octet ${start}`);
      need(at + 1, len, 'a label');
      at += 1 + len;
    }
  };
  try {
    need(0, 12, 'the header');
    const qd = view.readUInt16BE(4);
    const rr = view.readUInt16BE(6) + view.readUInt16BE(8) + view.readUInt16BE(10);
    let at = 12;
    for (let i = 0; i < qd; i++) {
      at = name(at);
      need(at, 4, 'a question type and class');
      at += 4;
    }
    for (let i = 0; i < rr; i++) {
      at = name(at);
      need(at, 10, 'a record header');
      const rdlength = view.readUInt16BE(at + 8);
      at += 10;
      need(at, rdlength, 'record data');
      at += rdlength;
    }
    return null;
  } catch (err) {
    if (err instanceof Malformed) return err.message;
    throw err;
  }
}
