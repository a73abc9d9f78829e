import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { toJson } from './toJson';

// A request body of the sign-up, with the arrays and nesting of the real ones.
const body = { identifiers: [{ type: 'email', identifier: 'ada@example.com' }], fullName: 'Ada', skip: undefined, n: 1.5 };

describe('toJson', () => {
  it('writes what JSON.stringify writes for plain values on an untouched page', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(toJson(value)).toBe(JSON.stringify(value));
      }),
    );
    expect(toJson(body)).toBe(JSON.stringify(body));
    expect(toJson([undefined, () => 1, NaN])).toBe('[null,null,null]');
  });

  describe('on a page that changed the built-ins', () => {
    const undo: (() => void)[] = [];
    function patch<T extends object>(target: T, key: string, value: unknown, enumerable = false) {
      const before = Object.getOwnPropertyDescriptor(target, key);
      Object.defineProperty(target, key, { value, enumerable, configurable: true, writable: true });
      undo.push(() => (before ? Object.defineProperty(target, key, before) : delete (target as Record<string, unknown>)[key]));
    }
    afterEach(() => undo.splice(0).reverse().forEach((restore) => restore()));

    it('keeps arrays arrays when Array.prototype.toJSON exists (Prototype.js 1.6), where JSON.stringify does not', () => {
      const expected = JSON.stringify(body);
      // what Prototype.js 1.6 defines: an array's JSON is the string of its JSON
      patch(Array.prototype, 'toJSON', function (this: unknown[]) {
        return '[' + this.map((item) => JSON.stringify(item)).join(', ') + ']';
      });
      expect(JSON.stringify(body)).not.toBe(expected);
      expect(toJson(body)).toBe(expected);
      expect(JSON.parse(toJson(body))).toEqual({ identifiers: [{ type: 'email', identifier: 'ada@example.com' }], fullName: 'Ada', n: 1.5 });
    });

    it('leaves out enumerable properties inherited from Object.prototype, also when Object.keys lists them', () => {
      const expected = JSON.stringify(body);
      patch(Object.prototype, 'extend', function () {}, true);
      patch(Object.prototype, 'hostFlag', 'yes', true);
      patch(Object, 'keys', (object: object) => {
        const keys: string[] = [];
        for (const key in object) keys.push(key);
        return keys;
      });
      expect(toJson(body)).toBe(expected);
    });

    it('ignores toJSON on objects and strings as well', () => {
      patch(Object.prototype, 'toJSON', () => 'object');
      patch(String.prototype, 'toJSON', () => 'string');
      expect(toJson({ a: ['x'] })).toBe('{"a":["x"]}');
    });
  });
});
