import { describe, expect, it } from 'vitest';
import { inetAton } from './inet-aton';

// Expected values measured on this machine's glibc (Python's socket.inet_aton calls libc's
// inet_aton): every row is what glibc returned, null where it refused.
const GLIBC: [string, string | null][] = [
  ['127.2', '127.0.0.2'],
  ['0x7f000002', '127.0.0.2'],
  ['0177.0.0.2', '127.0.0.2'],
  ['127.0.0.2', '127.0.0.2'],
  ['0X7F.1', '127.0.0.1'],
  ['1.256', '1.0.1.0'],
  ['1.0xffffff', '1.255.255.255'],
  ['1.2.65535', '1.2.255.255'],
  ['4294967295', '255.255.255.255'],
  ['0', '0.0.0.0'],
  ['1.2.3.4.', null],
  ['08', null],
  ['0x', null],
  ['1.0x1000000', null],
  ['4294967296', null],
  ['1..2', null],
  ['', null],
  ['1.2.3.256', null],
  ['1.2.65536', null],
  [' 1', null],
  ['1e3', null],
  ['1.2.3.4.5', null],
  ['256.1', null],
];

describe('inetAton (glibc inet_aton)', () => {
  it.each(GLIBC)('%j → %j', (text, quad) => {
    expect(inetAton(text)).toBe(quad);
  });
});
