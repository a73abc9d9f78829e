import { describe, expect, it } from 'vitest';
import de from './de.json';
import en from './en.json';
import { $language, chooseLanguage, configureI18n, hasText, t } from './i18n';

function keys(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [prefix + key] : keys(value as object, `${prefix}${key}.`),
  );
}

describe('i18n', () => {
  it('has every English text in German too, and nothing else', () => {
    expect(keys(de).sort()).toEqual(keys(en).sort());
  });

  it('[spec 1.option-languages] uses the browser language when autodetect is on, then the default, then English', () => {
    expect(chooseLanguage({ autoDetectLanguage: true }, 'de-AT')).toBe('de');
    expect(chooseLanguage({ autoDetectLanguage: true, defaultLanguage: 'de' }, 'fr-FR')).toBe('de');
    expect(chooseLanguage({ autoDetectLanguage: false, defaultLanguage: 'en' }, 'de-DE')).toBe('en');
    expect(chooseLanguage({ defaultLanguage: 'xx' })).toBe('en');
  });

  it('fills placeholders and falls back to English, then to the key', () => {
    configureI18n({ defaultLanguage: 'de', autoDetectLanguage: false });
    expect($language.get()).toBe('de');
    expect(t('loginInit.subheader', { appName: 'Shop' })).toBe('Willkommen zurück bei Shop');
    expect(t('no.such.key')).toBe('no.such.key');
    expect(hasText('no.such.key')).toBe(false);
  });

  it('[spec 1.option-languages] lets custom translations override and extend the bundled ones', () => {
    configureI18n({
      defaultLanguage: 'en',
      autoDetectLanguage: false,
      customTranslations: { en: { loginInit: { header: 'Welcome' } }, de: { loginInit: { header: 'Hallo' } } },
    });
    expect(t('loginInit.header')).toBe('Welcome');
    expect(t('loginInit.submit')).toBe('Continue');
    expect(t('loginInit.header', {}, 'de')).toBe('Hallo');
  });

  it('keeps a host text customised as one string where the widget now has one per identifier type', () => {
    configureI18n({ defaultLanguage: 'de', autoDetectLanguage: false, customTranslations: { de: { user: { verified: 'Geprüft' } } } });
    expect(t('user.verified.email')).toBe('Geprüft');
    expect(t('user.verified.phone')).toBe('Geprüft');
    expect(t('user.primary.email')).not.toBe('user.primary.email');
    configureI18n({ defaultLanguage: 'en', autoDetectLanguage: false, customTranslations: { en: { user: { verified: { phone: 'Checked' } } } } });
    expect(t('user.verified.phone')).toBe('Checked');
    expect(t('user.verified.email')).toBe('Verified');
  });

  it('[spec 5.full-name] [spec 5.required-messages] uses the exact required-field messages of the spec', () => {
    configureI18n({ defaultLanguage: 'en', autoDetectLanguage: false });
    expect(t('validation.fullNameRequired')).toBe('Please enter a valid name.');
    expect(t('validation.usernameRequired')).toBe('Please enter a username.');
    expect(t('validation.emailRequired')).toBe('Please enter an e-mail address.');
    expect(t('validation.phoneRequired')).toBe('Please enter a phone number.');
    expect(t('errors.generic')).toBe('Something went wrong. Please try again in a few moments.');
  });
});
