// Just enough DER (X.690) to write one X.509 certificate: lengths, integers, object
// identifiers, strings, times, bit and octet strings, sequences and context tags. Reading
// certificates is left to Node's crypto.X509Certificate.

const TAG = { integer: 0x02, bitString: 0x03, octetString: 0x04, oid: 0x06, utf8: 0x0c, sequence: 0x30, set: 0x31, utcTime: 0x17, generalizedTime: 0x18, boolean: 0x01 } as const;

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** A tag-length-value of `tag` around `content`. */
export function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

export const sequence = (...items: Buffer[]) => tlv(TAG.sequence, ...items);
export const set = (...items: Buffer[]) => tlv(TAG.set, ...items);
export const octetString = (bytes: Buffer) => tlv(TAG.octetString, bytes);
export const utf8 = (text: string) => tlv(TAG.utf8, Buffer.from(text, 'utf8'));
export const boolean = (value: boolean) => tlv(TAG.boolean, Buffer.from([value ? 0xff : 0]));
/** A bit string with no unused bits. */
export const bitString = (bytes: Buffer) => tlv(TAG.bitString, Buffer.from([0]), bytes);
/** [n] EXPLICIT (constructed context tag). */
export const explicit = (n: number, content: Buffer) => tlv(0xa0 | n, content);
/** [n] IMPLICIT on a primitive value (a subjectAltName's dNSName or iPAddress). */
export const implicitPrimitive = (n: number, bytes: Buffer) => tlv(0x80 | n, bytes);

/** A non-negative integer from its big-endian bytes (a leading 0 keeps it positive). */
export function unsignedInteger(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  return tlv(TAG.integer, trimmed[0] & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

export function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * first + second];
  for (const arc of rest) {
    const groups: number[] = [];
    for (let value = arc; ; value = Math.floor(value / 128)) {
      groups.unshift(value % 128);
      if (value < 128) break;
    }
    bytes.push(...groups.map((g, i) => (i < groups.length - 1 ? g | 0x80 : g)));
  }
  return tlv(TAG.oid, Buffer.from(bytes));
}

/** UTCTime for years 1950–2049, GeneralizedTime after (RFC 5280 §4.1.2.5). */
export function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const year = date.getUTCFullYear();
  return year < 2050 ? tlv(TAG.utcTime, Buffer.from(`${iso.slice(2)}Z`, 'ascii')) : tlv(TAG.generalizedTime, Buffer.from(`${iso}Z`, 'ascii'));
}
