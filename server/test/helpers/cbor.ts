// A minimal CBOR encoder (RFC 8949) for the test authenticator: unsigned and negative integers,
// byte strings, text strings, arrays and maps.
export type CborValue = number | string | Uint8Array | CborValue[] | Map<CborValue, CborValue>;

function head(major: number, length: number): number[] {
  if (length < 24) return [(major << 5) | length];
  if (length < 0x100) return [(major << 5) | 24, length];
  if (length < 0x10000) return [(major << 5) | 25, length >> 8, length & 0xff];
  return [(major << 5) | 26, (length >>> 24) & 0xff, (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff];
}

export function cborEncode(value: CborValue): Uint8Array {
  const out: number[] = [];
  const write = (v: CborValue): void => {
    if (typeof v === 'number') {
      if (!Number.isInteger(v)) throw new Error('only integers are supported');
      if (v >= 0) out.push(...head(0, v));
      else out.push(...head(1, -1 - v));
    } else if (typeof v === 'string') {
      const bytes = new TextEncoder().encode(v);
      out.push(...head(3, bytes.length), ...bytes);
    } else if (v instanceof Uint8Array) {
      out.push(...head(2, v.length), ...v);
    } else if (Array.isArray(v)) {
      out.push(...head(4, v.length));
      v.forEach(write);
    } else {
      out.push(...head(5, v.size));
      for (const [k, val] of v) {
        write(k);
        write(val);
      }
    }
  };
  write(value);
  return new Uint8Array(out);
}
