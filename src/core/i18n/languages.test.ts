import { afterEach, describe, expect, it, vi } from 'vitest';
import { $language, chooseLanguage, configureI18n, LANGUAGES, t } from './i18n';

afterEach(() => {
  vi.unstubAllGlobals();
  configureI18n({ defaultLanguage: 'en', autoDetectLanguage: false });
});

describe('languages', () => {
  it('[spec 1.languages] [spec 9.languages] are English and German; anything else is English, and so is a text German lacks', () => {
    expect([...LANGUAGES].sort()).toEqual(['de', 'en']);
    expect(chooseLanguage({ defaultLanguage: 'fr', autoDetectLanguage: false })).toBe('en');
    expect(chooseLanguage({ autoDetectLanguage: true }, 'fr-FR')).toBe('en');
    expect(chooseLanguage({})).toBe('en');
    configureI18n({ defaultLanguage: 'de', autoDetectLanguage: false, customTranslations: { en: { extra: { only: 'Only in English' } } } });
    expect($language.get()).toBe('de');
    expect(t('loginInit.submit')).toBe('Weiter');
    expect(t('extra.only')).toBe('Only in English');
  });

  it('[spec 1.language-autodetect] takes the primary part of the browser language when autodetect is on', () => {
    expect(chooseLanguage({ autoDetectLanguage: true, defaultLanguage: 'en' }, 'de-CH')).toBe('de');
    expect(chooseLanguage({ autoDetectLanguage: true, defaultLanguage: 'en' }, 'de_AT')).toBe('de');
    expect(chooseLanguage({ autoDetectLanguage: true, defaultLanguage: 'en' }, 'DE')).toBe('de');
    expect(chooseLanguage({ autoDetectLanguage: true, defaultLanguage: 'de' }, 'en-GB')).toBe('en');
    // off: the browser's language is not asked
    expect(chooseLanguage({ autoDetectLanguage: false, defaultLanguage: 'en' }, 'de-CH')).toBe('en');
  });

  it('[spec 1.translations-bundled] has every text of both languages at once, without the network', () => {
    const refuse = vi.fn(() => {
      throw new Error('no network');
    });
    vi.stubGlobal('fetch', refuse);
    vi.stubGlobal('XMLHttpRequest', refuse);
    configureI18n({ defaultLanguage: 'de', autoDetectLanguage: false });
    expect(t('common.securedBy')).toBe('Gesichert durch');
    expect(t('common.securedBy', {}, 'en')).toBe('Secured by');
    expect(refuse).not.toHaveBeenCalled();
  });
});
