// The bundle holds German as its texts alone, in en.json's key order (vite.config.ts, compactJsonText);
// i18n.ts rebuilds the tree from them. Both directions must agree for every text.
import { describe, expect, it } from 'vitest';
import { textsInEnglishOrder } from '../../../vite.config.ts';
import de from './de.json';
import en from './en.json';
import { inEnglishOrder } from './i18n.ts';

describe('texts in English key order', () => {
  it('rebuild the German tree exactly', () => {
    const values = textsInEnglishOrder(en, de);
    expect(values.every((value) => typeof value === 'string')).toBe(true);
    expect(inEnglishOrder(en, values)).toEqual(de);
  });

  it('leave out what a language does not translate (English is the fallback)', () => {
    const english = { a: { b: 'B', c: 'C' }, d: 'D' };
    const values = textsInEnglishOrder(english, { a: { c: 'c' } });
    expect(values).toEqual([null, 'c', null]);
    expect(inEnglishOrder(english, values)).toEqual({ a: { c: 'c' } });
  });

  it('refuse a key that English does not have, which the compact form would drop', () => {
    expect(() => textsInEnglishOrder({ a: 'A' }, { a: 'a', b: 'b' })).toThrow(/translation key b is not in en\.json/);
  });
});
