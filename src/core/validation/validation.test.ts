import { describe, expect, it } from 'vitest';
import { checkEmail, checkEmailOrUsername, checkFullName, checkUsername } from './identifiers';
import { acceptCodeInput, isCompleteCode } from './otp';
import examples from 'libphonenumber-js/examples.mobile.json';
import { AsYouType, isValidPhoneNumber, parsePhoneNumber, type CountryCode as LibCountry } from 'libphonenumber-js/min';
import { checkPhone, countries, displayPhone, parsePhone, typePhone } from './phone';

describe('usernames', () => {
  it('[spec 9.username-length] [spec 5.username] takes 4 to 32 letters, digits, - and _', () => {
    expect(checkUsername('abcd')).toBeUndefined();
    expect(checkUsername('a_b-C9')).toBeUndefined();
    expect(checkUsername('x'.repeat(32))).toBeUndefined();
    expect(checkUsername('abc')).toBe('errors.identifier_invalid_format.username');
    expect(checkUsername('x'.repeat(33))).toBe('errors.identifier_invalid_format.username');
    expect(checkUsername('with space')).toBe('errors.identifier_invalid_format.username');
    expect(checkUsername('')).toBe('validation.usernameRequired');
  });
});

describe('e-mail and name', () => {
  it('[spec 5.email-format] accepts addresses with a domain and rejects the rest', () => {
    expect(checkEmail('ada@example.com')).toBeUndefined();
    expect(checkEmail('ada+tag@sub.example.co.uk')).toBeUndefined();
    expect(checkEmail('ada@localhost')).toBe('errors.identifier_invalid_format.email');
    expect(checkEmail('no-at.example.com')).toBe('errors.identifier_invalid_format.email');
    expect(checkEmail('')).toBe('validation.emailRequired');
  });
  it('tells e-mail from username in the combined field', () => {
    expect(checkEmailOrUsername('ada@example.com')).toBeUndefined();
    expect(checkEmailOrUsername('ada_l')).toBeUndefined();
    expect(checkEmailOrUsername('ab')).toBe('errors.identifier_invalid_format.username');
  });
  it('[spec 5.full-name] requires a name that is not blank', () => {
    expect(checkFullName('  ')).toBe('validation.fullNameRequired');
    expect(checkFullName('Ada')).toBeUndefined();
  });
});

describe('one-time codes', () => {
  it('[spec 5.otp-long-input] takes the first six characters only when they are all digits', () => {
    expect(acceptCodeInput('123456789')).toBe('123456');
    expect(acceptCodeInput('12 3456')).toBeUndefined();
    expect(acceptCodeInput('abc')).toBeUndefined();
    expect(acceptCodeInput('42')).toBe('42');
  });
  it('[spec 5.otp-cells] is complete with six digit cells', () => {
    expect(isCompleteCode(['1', '2', '3', '4', '5', '6'])).toBe(true);
    expect(isCompleteCode(['1', '2', '3', '4', '5', ''])).toBe(false);
  });
});

describe('phone numbers', () => {
  it('[spec 9.country-list] knows about 250 countries, each with a calling code', () => {
    expect(countries().length).toBeGreaterThan(240);
    expect(countries().find((c) => c.code === 'DE')?.callingCode).toBe('49');
  });

  it('[spec 5.phone-format] [spec 5.required-messages] checks the phone field: required, then the kind of problem as a translation key, else E.164', () => {
    expect(checkPhone('  ', 'US')).toEqual({ problem: 'validation.phoneRequired' });
    expect(checkPhone('12', 'US')).toEqual({ problem: 'validation.phone.TOO_SHORT' });
    expect(checkPhone('abc', 'US')).toEqual({ problem: 'validation.phone.NOT_A_NUMBER' });
    expect(checkPhone('+49 151 12345678', 'US')).toEqual({ e164: '+4915112345678' });
  });

  it('[spec 5.phone-format-per-country] formats as you type for the chosen country', () => {
    expect(typePhone('2015550123', 'US').text).toBe('(201) 555-0123');
    expect(typePhone('030123456', 'DE').text).toBe('030 123456');
  });

  it('[spec 5.phone-paste-country] sets the country from a pasted international number', () => {
    const typed = typePhone('+49 151 23456789', 'US');
    expect(typed.country).toBe('DE');
    expect(typed.text.replace(/\D/g, '')).toBe('15123456789');
    expect(typePhone('0044 20 7946 0958', 'US').country).toBe('GB');
  });

  it('[spec 5.phone-format] [spec 5.phone-parse-errors] answers E.164 for a valid number and the parse-error kind otherwise', () => {
    expect(parsePhone('(201) 555-0123', 'US').e164).toBe('+12015550123');
    expect(parsePhone('', 'US').problem).toBe('NOT_A_NUMBER');
    expect(parsePhone('abc', 'US').problem).toBe('NOT_A_NUMBER');
    expect(parsePhone('1', 'US').problem).toBe('TOO_SHORT');
    expect(parsePhone('20155', 'US').problem).toBe('TOO_SHORT');
    expect(parsePhone('2015550123456', 'US').problem).toBe('TOO_LONG');
    expect(parsePhone('1'.repeat(18), 'US').problem).toBe('TOO_LONG');
  });
});

// libphonenumber-js itself as the oracle: its example number of every country
describe('phone rules agree with libphonenumber-js', () => {
  const all = Object.entries(examples as Record<string, string>);

  it('[spec 5.phone-country-rules] on validity, country detection and international display, for every country', () => {
    expect(all.length).toBeGreaterThan(240);
    for (const [country, national] of all) {
      expect(!!parsePhone(national, country).e164, `${country} ${national}`).toBe(isValidPhoneNumber(national, country as LibCountry));
      const e164 = parsePhoneNumber(national, country as LibCountry).number;
      const truth = parsePhoneNumber(e164);
      if (truth.country) expect(typePhone(e164, 'US').country, e164).toBe(truth.country);
      expect(displayPhone(e164)).toBe(truth.formatInternational());
      expect(parsePhone(national, country).e164).toBe(e164);
    }
  });

  it('on formatting a number typed with its national prefix', () => {
    for (const [country, typed] of [['US', '2015550123'], ['DE', '015123456789'], ['GB', '02079460958'], ['FR', '0612345678'], ['BR', '11961234567'], ['JP', '09012345678']]) {
      expect(typePhone(typed!, country!).text, country).toBe(new AsYouType(country as LibCountry).input(typed!));
    }
  });
});
