// The phone metadata the bundle carries (vite.config.ts, slimPhoneMetadata) gives the same answers as
// the library's own: src/core/validation/phone.ts is loaded once with each, the slim one as JSON text as
// in the bundle.
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { leadingDigitsLanguage, slimPhoneMetadata } from '../vite.config.ts';
import * as full from '../src/core/validation/phone';

const source = JSON.parse(readFileSync(new URL('../node_modules/libphonenumber-js/metadata.min.json', import.meta.url), 'utf8'));
const examples = JSON.parse(readFileSync(new URL('../node_modules/libphonenumber-js/examples.mobile.json', import.meta.url), 'utf8')) as Record<string, string>;
vi.resetModules();
vi.doMock('libphonenumber-js/metadata.min.json', () => ({ default: JSON.stringify(slimPhoneMetadata(source)) }));
const slim = await import('../src/core/validation/phone');

type Format = [string, string, string[]?];
const countries = Object.entries(source.countries as Record<string, [string, unknown, unknown, unknown, Format[]?]>);

describe('slimPhoneMetadata', () => {
  it('reads the finite language of a leading-digits pattern, and refuses a pattern it cannot enumerate', () => {
    expect(leadingDigitsLanguage('1[2-4]|(?:5|6)0')).toEqual(['12', '13', '14', '50', '60']);
    expect(leadingDigitsLanguage('9\\d')).toHaveLength(10);
    expect(() => leadingDigitsLanguage('1\\d+')).toThrow(/not a digit, class or group/);
    expect(() => leadingDigitsLanguage('(?:1')).toThrow(/unclosed/);
  });

  it('keeps only the first leading-digits pattern, and refuses to when a later one matches a number the first does not', () => {
    const plan = (leading: string[]) => ({ country_calling_codes: { 9: ['XX'] }, countries: { XX: ['9', '00', '\\d{6}', [6], [['(\\d{3})(\\d{3})', '$1 $2', leading]]] } });
    expect(slimPhoneMetadata(plan(['[1-3]', '1[5-7]|2'])).countries.XX![4]).toEqual([['(\\d{3})(\\d{3})', '$1 $2', ['[1-3]']]]);
    expect(() => slimPhoneMetadata(plan(['[1-3]', '1[5-7]|4']))).toThrow(/XX: 4 matches leading digits 1\[5-7\]\|4 but not \[1-3\]/);
  });

  it('leaves out the table of calling codes, marking the main country of a shared one, and refuses a table the countries do not rebuild', () => {
    const plan = ['9', '00', '\\d{6}', [6]];
    const countries = { XA: plan, XB: plan, XC: plan };
    const slim = slimPhoneMetadata({ country_calling_codes: { 9: ['XB', 'XA', 'XC'] }, countries });
    expect(slim).toEqual({ countries: { XA: ['9', 0, '\\d{6}', [6]], XB: ['9', 1, '\\d{6}', [6]], XC: ['9', 0, '\\d{6}', [6]] } });
    expect(() => slimPhoneMetadata({ country_calling_codes: { 9: ['XB', 'XC', 'XA'] }, countries })).toThrow(/calling code 9 is XB,XC,XA/);
    expect(() => slimPhoneMetadata({ country_calling_codes: { 9: ['XB', 'XA', 'XC'], 8: ['XD'] }, countries })).toThrow(/calling code 8 is XD/);
  });

  it('formats, detects and checks as the full metadata does: every format with several leading-digits patterns, typed digit by digit, and every example number', () => {
    const cases: [country: string, digits: string][] = Object.entries(examples).map(([country, number]) => [country, number]);
    for (const [country, plan] of countries) {
      for (const [pattern, , leading] of plan[4] || []) {
        if ((leading?.length ?? 0) < 2) continue;
        const length = [...pattern.matchAll(/\{(\d+)(?:,(\d+))?\}|\\d(?!\{)/g)].reduce((sum, [, min]) => sum + Number(min ?? 1), 0);
        for (const start of leading!.flatMap(leadingDigitsLanguage)) cases.push([country, start.padEnd(length, '5')]);
      }
    }
    expect(cases.length).toBeGreaterThan(10_000);
    // the calling codes of no country (+800, +979, …): no country either way
    const nonGeographic = Object.keys(source.nonGeographic as object);
    expect(nonGeographic.length).toBeGreaterThan(5);
    for (const code of nonGeographic) cases.push(['US', `${code}12345678`], ['GB', `${code}1234`]);
    const differences: string[] = [];
    const same = (what: string, answer: unknown, truth: unknown) => {
      if (JSON.stringify(answer) !== JSON.stringify(truth)) differences.push(`${what}: ${JSON.stringify(answer)}, not ${JSON.stringify(truth)}`);
    };
    for (const [country, digits] of cases) {
      const international = `+${(source.countries[country] as string[])[0]}${digits}`;
      for (let end = 1; end <= digits.length; end++) {
        same(`${country} ${digits.slice(0, end)}`, slim.typePhone(digits.slice(0, end), country), full.typePhone(digits.slice(0, end), country));
        const typed = international.slice(0, international.length - digits.length + end);
        same(typed, slim.typePhone(typed, 'US'), full.typePhone(typed, 'US'));
      }
      same(`${country} ${digits} parsed`, slim.parsePhone(digits, country), full.parsePhone(digits, country));
      same(`${international} displayed`, slim.displayPhone(international), full.displayPhone(international));
    }
    expect(differences.slice(0, 5)).toEqual([]);
    expect(slim.countries()).toEqual(full.countries());
  }, 60_000); // ten thousand numbers typed digit by digit: tens of seconds on a loaded two-core machine
});
