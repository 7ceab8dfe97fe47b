/**
 * One child the capture companion recorded in its children file (children-file.ts), in a file of
 * its own so host/capture-children.ts can name it without importing the file's reader (no cycle).
 */
export interface RecordedChild {
  pid: number;
  /** /proc/PID/stat field 22, as text. */
  startTime: string;
  role: 'tcpdump' | 'parser';
  /** PID of the companion that spawned it. */
  companion: number;
  /** POSIX cksum of its /proc/PID/cmdline bytes: `CRC LENGTH`, as `cksum <file` prints it. */
  cmdlineSum: string;
}


/** CRC-32 of POSIX cksum (polynomial 0x04C11DB7, MSB first), one entry per byte value. */
const CKSUM_TABLE = Array.from({ length: 256 }, (_, i) => {
  let c = i << 24;
  for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
  return c >>> 0;
});

/**
 * What POSIX `cksum` prints for `bytes` read from its stdin: `CRC LENGTH` (the CRC over the bytes,
 * then the length in as few bytes as it takes, least significant first, complemented; POSIX.1-2017 cksum).
 */
export function cksumOf(bytes: Uint8Array): string {
  let crc = 0;
  const step = (b: number) => {
    crc = ((crc << 8) ^ CKSUM_TABLE[((crc >>> 24) ^ b) & 0xff]!) >>> 0;
  };
  for (const b of bytes) step(b);
  for (let n = bytes.length; n > 0; n = Math.floor(n / 256)) step(n % 256);
  return `${~crc >>> 0} ${bytes.length}`;
}
