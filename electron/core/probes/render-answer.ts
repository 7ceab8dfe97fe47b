import type { Answer } from 'dns-packet';
import type { AnswerRecord } from '../../../shared/types';

/**
 * Renders one decoded dns-packet resource record the way dig's answer section shows the
 * RDATA, but with names lower-cased as received and without the trailing dot (the project's
 * name convention, as in ZoneRoute.zone):
 * A/AAAA address, PTR/CNAME/NS name, MX `pref exchange`, SRV `prio weight port target`
 * (RFC 2782), TXT each string quoted (RFC 1035 §5.1 escapes), SOA
 * `mname rname serial refresh retry expire minimum` (RFC 1035 §3.3.13). Other types as hex.
 */
export function renderAnswer(answer: Answer): AnswerRecord {
  const ttl = 'ttl' in answer && typeof answer.ttl === 'number' ? answer.ttl : 0;
  return { name: answer.name, type: answer.type, ttl, data: renderData(answer) };
}

/** Renders only the RDATA part of `answer` (see renderAnswer). */
export function renderData(answer: Answer): string {
  switch (answer.type) {
    case 'A':
    case 'AAAA':
    case 'PTR':
    case 'CNAME':
    case 'NS':
    case 'DNAME':
      return String(answer.data);
    case 'MX':
      return `${answer.data.preference ?? 0} ${answer.data.exchange}`;
    case 'SRV':
      return `${answer.data.priority ?? 0} ${answer.data.weight ?? 0} ${answer.data.port} ${answer.data.target}`;
    case 'SOA': {
      const d = answer.data;
      return `${d.mname} ${d.rname} ${d.serial ?? 0} ${d.refresh ?? 0} ${d.retry ?? 0} ${d.expire ?? 0} ${d.minimum ?? 0}`;
    }
    case 'TXT': {
      const parts = Array.isArray(answer.data) ? answer.data : [answer.data];
      return parts.map((p) => quoteTxt(typeof p === 'string' ? Buffer.from(p) : p)).join(' ');
    }
    default: {
      const data: unknown = 'data' in answer ? answer.data : undefined;
      // RFC 3597 §5 generic form for types we do not render: `\# LENGTH HEX`.
      if (Buffer.isBuffer(data)) return `\\# ${data.length} ${data.toString('hex')}`;
      return JSON.stringify(data) ?? '';
    }
  }
}

/** One TXT character-string in dig's presentation form: quoted, `"` and `\` escaped, bytes outside printable ASCII as `\DDD`. */
function quoteTxt(bytes: Buffer): string {
  let out = '"';
  for (const b of bytes) {
    if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b < 0x20 || b > 0x7e) out += `\\${b.toString().padStart(3, '0')}`;
    else out += String.fromCharCode(b);
  }
  return `${out}"`;
}
