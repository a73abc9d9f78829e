// JSON for everything the widget sends or stores, independent of what the host page did to the built-ins.
//
// JSON.stringify asks every object and array for a `toJSON` method first, and legacy libraries add
// one to the prototypes: Prototype.js 1.6 defines Array.prototype.toJSON, which makes
// JSON.stringify(['a']) the string '"[\"a\"]"', so a request body's array arrives as a string. Prototype
// 1.6 also replaces Object.keys with a for-in loop that lists inherited enumerable properties. This
// serializer consults no `toJSON` and lists only own properties; primitives still go through
// JSON.stringify, which never looks up `toJSON` on a primitive (ECMA-262, SerializeJSONProperty).
// The values it sees are plain request bodies, WebAuthn results and stored records: no dates, maps or
// cycles.

// read once, when the bundle starts: a later change to Object.prototype cannot reach them
const hasOwn = Object.prototype.hasOwnProperty;
const isArray = Array.isArray;
const stringify = JSON.stringify;

function encode(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return stringify(value);
    case 'number':
      return isFinite(value) ? stringify(value) : 'null';
    case 'object': {
      let out = '';
      if (isArray(value)) {
        for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + (encode(value[i]) ?? 'null');
        return `[${out}]`;
      }
      for (const key in value) {
        if (!hasOwn.call(value, key)) continue;
        const encoded = encode((value as Record<string, unknown>)[key]);
        if (encoded !== undefined) out += (out ? ',' : '') + stringify(key) + ':' + encoded;
      }
      return `{${out}}`;
    }
    default:
      // undefined, functions and symbols are left out, as JSON.stringify leaves them out
      return undefined;
  }
}

/** JSON text of a plain value, as JSON.stringify would write it on a page whose built-ins are untouched. */
export function toJson(value: unknown): string {
  return encode(value) ?? 'null';
}
