import { describe, expect, it } from 'vitest';
import { checkEmail, checkEmailOrUsername, checkFullName, checkUsername } from './identifiers';
import { acceptCodeInput, isCompleteCode } from './otp';
import { countries, flagOf, parsePhone, typePhone } from './phone';

describe('usernames', () => {
  it('takes 4 to 32 letters, digits, - and _', () => {
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
  it('accepts addresses with a domain and rejects the rest', () => {
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
  it('requires a name that is not blank', () => {
    expect(checkFullName('  ')).toBe('validation.fullNameRequired');
    expect(checkFullName('Ada')).toBeUndefined();
  });
});

describe('one-time codes', () => {
  it('takes the first six characters only when they are all digits', () => {
    expect(acceptCodeInput('123456789')).toBe('123456');
    expect(acceptCodeInput('12 3456')).toBeUndefined();
    expect(acceptCodeInput('abc')).toBeUndefined();
    expect(acceptCodeInput('42')).toBe('42');
  });
  it('is complete with six digit cells', () => {
    expect(isCompleteCode(['1', '2', '3', '4', '5', '6'])).toBe(true);
    expect(isCompleteCode(['1', '2', '3', '4', '5', ''])).toBe(false);
  });
});

describe('phone numbers', () => {
  it('knows about 250 countries, each with a calling code and a flag', () => {
    expect(countries().length).toBeGreaterThan(240);
    expect(countries().find((c) => c.code === 'DE')?.callingCode).toBe('49');
    expect(flagOf('DE')).toBe('🇩🇪');
  });

  it('formats as you type for the chosen country', () => {
    expect(typePhone('2015550123', 'US').text).toBe('(201) 555-0123');
    expect(typePhone('030123456', 'DE').text).toBe('030 123456');
  });

  it('sets the country from a pasted international number', () => {
    const typed = typePhone('+49 151 23456789', 'US');
    expect(typed.country).toBe('DE');
    expect(typed.text.replace(/\D/g, '')).toBe('15123456789');
    expect(typePhone('0044 20 7946 0958', 'US').country).toBe('GB');
  });

  it('answers E.164 for a valid number and the parse-error kind otherwise', () => {
    expect(parsePhone('(201) 555-0123', 'US').e164).toBe('+12015550123');
    expect(parsePhone('', 'US').problem).toBe('NOT_A_NUMBER');
    expect(parsePhone('abc', 'US').problem).toBe('NOT_A_NUMBER');
    expect(parsePhone('1', 'US').problem).toBe('TOO_SHORT');
    expect(parsePhone('20155', 'US').problem).toBe('TOO_SHORT');
    expect(parsePhone('2015550123456', 'US').problem).toBe('TOO_LONG');
    expect(parsePhone('1'.repeat(18), 'US').problem).toBe('TOO_LONG');
  });
});
