// The phone field's limits (SPEC.md sections 5 and 9), each at its edge.
import { describe, expect, it } from 'vitest';
import { parsePhone, typePhone } from './phone';

const digits = (text: string) => text.replace(/\D/g, '');

describe('phone input limits', () => {
  it('[spec 5.phone-max-13] [spec 9.phone-input-max] takes at most 13 characters of number, typed or pasted, in national or international form', () => {
    expect(digits(typePhone('2015550123', 'US').text)).toBe('2015550123');
    expect(digits(typePhone('1234567890123', 'US').text)).toBe('1234567890123');
    expect(digits(typePhone('12345678901234567', 'US').text)).toBe('1234567890123');
    expect(digits(typePhone('+49 1234567890123456', 'US').text)).toBe('1234567890123');
  });

  it('[spec 5.phone-numeric] keeps only digits of what is typed, formatting them itself', () => {
    expect(typePhone('2a0b1c5d5e5', 'US').text).toBe('(201) 555');
    expect(typePhone('abc', 'US').text).toBe('');
  });

  it('[spec 5.phone-extension] [spec 9.phone-extension] takes an extension after ext or x of up to 20 digits', () => {
    const twenty = '12345678901234567890';
    expect(typePhone(`2015550123 ext ${twenty}99`, 'US').text).toBe(`(201) 555-0123 ext. ${twenty}`);
    expect(typePhone('2015550123 x42', 'US').text).toBe('(201) 555-0123 ext. 42');
    expect(parsePhone(`(201) 555-0123 x${twenty}`, 'US').e164).toBe(`+12015550123;ext=${twenty}`);
    expect(parsePhone(`(201) 555-0123 ext. ${twenty}1`, 'US').problem).toBe('TOO_LONG');
  });

  it('[spec 5.phone-raw-cut] [spec 9.phone-raw-cut] reads no further than the first 250 characters of raw input', () => {
    // the number, then spaces up to the given length, then more
    const pad = (length: number, more: string) => `2015550123${' '.repeat(length - 10)}${more}`;
    expect(parsePhone(pad(250, 'abc'), 'US').e164).toBe('+12015550123');
    expect(parsePhone(pad(249, 'abc'), 'US').problem).toBe('NOT_A_NUMBER');
    expect(typePhone(pad(250, 'x12'), 'US').text).toBe('(201) 555-0123');
    expect(typePhone(pad(247, 'x12'), 'US').text).toBe('(201) 555-0123 ext. 12');
  });

  it('[spec 5.phone-national-digits] [spec 9.phone-national-digits] has 2 to 17 national digits, before the rules of its country', () => {
    expect(parsePhone('1', 'US').problem).toBe('TOO_SHORT');
    // Indonesia's plan allows numbers of 17 digits after a national prefix: 17 pass, 18 do not, even where
    // the national prefix would bring them back to 17
    const seventeen = `001${'2'.repeat(14)}`;
    expect(parsePhone(`+62 ${seventeen}`, 'US').e164).toBe(`+62${seventeen}`);
    expect(parsePhone(`+62 0${seventeen}`, 'US').problem).toBe('TOO_LONG');
  });

  it('[spec 5.phone-parse-errors] names each of the four parse-error kinds', () => {
    expect(parsePhone('call me', 'US').problem).toBe('NOT_A_NUMBER');
    expect(parsePhone('+999 1234567', 'US').problem).toBe('INVALID_COUNTRY');
    expect(parsePhone('1234567', 'XX').problem).toBe('INVALID_COUNTRY');
    expect(parsePhone('201', 'US').problem).toBe('TOO_SHORT');
    expect(parsePhone('201555012345', 'US').problem).toBe('TOO_LONG');
  });
});
