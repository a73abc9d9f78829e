// The add-on languages (dist/corbado.<code>.js, built from <code>.json) and German, held to English:
// every key of en.json and no other, the same placeholders, and each plural group in the forms the
// language's own plural rules have (Intl.PluralRules: Polish has one, few, many and other); and to
// their own typography (quotation marks, French no-break spaces, Spanish ¿ ¡).
import { afterEach, describe, expect, it } from 'vitest';
import { tooManyRequests } from '../errors';
import de from './de.json';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import { $language, addLanguage, chooseLanguage, configureI18n, t } from './i18n';
import it_ from './it.json';
import nl from './nl.json';
import pl from './pl.json';
import pt from './pt.json';

type Tree = { [key: string]: string | Tree };

const ADD_ONS: Record<string, Tree> = { fr, es, it: it_, nl, pt, pl };
const PLURAL_FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'];

/** Every key (a.b.c) with its text. */
function texts(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out.set(prefix + key, value);
    else for (const [k, v] of texts(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** The groups whose keys are plural forms in English: each holds `one` and `other`. */
function pluralGroups(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    if (typeof value === 'string') return [];
    return 'one' in value && 'other' in value ? [prefix + key] : pluralGroups(value, `${prefix}${key}.`);
  });
}

/** What is wrong with a language against English: missing and extra keys, placeholder mismatches. */
function problemsOf(language: string, tree: Tree): string[] {
  const english = texts(en);
  const own = texts(tree);
  const groups = pluralGroups(en);
  const groupOf = (key: string) => groups.find((g) => key.startsWith(`${g}.`) && PLURAL_FORMS.includes(key.slice(g.length + 1)));
  const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories as string[];
  const expected = new Map<string, string>();
  for (const [key, text] of english) if (!groupOf(key)) expected.set(key, text);
  for (const group of groups) for (const form of forms) expected.set(`${group}.${form}`, english.get(`${group}.other`)!);
  const problems: string[] = [];
  for (const key of expected.keys()) if (!own.has(key)) problems.push(`missing ${key}`);
  for (const [key, text] of own) {
    const model = expected.get(key);
    if (model === undefined) {
      problems.push(`extra ${key}`);
      continue;
    }
    // a plural form may leave out the count ("in 1 minute"), never add one English does not have
    const mine = placeholders(text);
    const theirs = placeholders(model);
    const fits = groupOf(key) ? mine.every((p) => theirs.includes(p)) : mine.join() === theirs.join();
    if (!fits) problems.push(`placeholders of ${key}: {${mine.join('},{')}} instead of {${theirs.join('},{')}}`);
    if (!text.trim()) problems.push(`empty ${key}`);
  }
  return problems;
}

/** Each language's quotation marks, opening and closing (French sets them off with no-break spaces). */
const QUOTES: Record<string, [string, string]> = { de: ['„', '“'], fr: ['«', '»'], es: ['«', '»'], it: ['«', '»'], nl: ['‘', '’'], pt: ['“', '”'], pl: ['„', '”'] };

/** What breaks a language's typography: foreign or straight quotes, French spacing, Spanish ¿ ¡. */
function typographyOf(language: string, tree: Tree): string[] {
  const [open, close] = QUOTES[language]!;
  const problems: string[] = [];
  for (const [key, text] of texts(tree)) {
    // an apostrophe inside a word (pagina’s, l’adresse) is no quotation mark
    const marks = text.replace(/(?<=\p{L})’(?=\p{L})/gu, '').match(/[“”„«»‘’‚"']/g) ?? [];
    if (marks.join('') !== marks.map((_, i) => (i % 2 === 0 ? open : close)).join('')) problems.push(`quotes of ${key}: ${marks.join('')}`);
    if (language === 'fr') {
      // a no-break space (or the narrow one) before ? ! : ; » and after «
      if (/[^\u00a0\u202f][?!:;»]|«[^\u00a0\u202f]/.test(text)) problems.push(`no-break space in ${key}`);
    } else if (/\s[?!:;]/.test(text)) {
      problems.push(`space before punctuation in ${key}`);
    }
    if (language === 'es') {
      const count = (mark: string) => text.split(mark).length - 1;
      if (count('?') !== count('¿') || count('!') !== count('¡')) problems.push(`¿ ¡ in ${key}`);
    }
  }
  return problems;
}

afterEach(() => configureI18n({ defaultLanguage: 'en', autoDetectLanguage: false }));

describe('the languages beside English', () => {
  it.each([['de', de as Tree], ...Object.entries(ADD_ONS)])('%s has every key of en.json, no other, and the same placeholders', (language, tree) => {
    expect(problemsOf(language, tree)).toEqual([]);
  });

  it('the check fails on a missing key, an extra key, a changed placeholder and a missing plural form', () => {
    const broken = structuredClone(fr) as Tree;
    delete (broken.common as Tree).cancel;
    (broken.common as Tree).extra = 'x';
    (broken.loginInit as Tree).subheader = 'Bon retour sur {app}';
    delete ((broken.errors as Tree).tooManyRequests as Tree).many;
    expect(problemsOf('fr', broken).sort()).toEqual(
      [
        'missing common.cancel',
        'extra common.extra',
        'placeholders of loginInit.subheader: {app} instead of {appName}',
        'missing errors.tooManyRequests.many',
      ].sort(),
    );
    // Polish needs its "few" form, which English does not have
    const polish = structuredClone(pl) as Tree;
    delete ((polish.errors as Tree).tooManyRequests as Tree).few;
    expect(problemsOf('pl', polish)).toEqual(['missing errors.tooManyRequests.few']);
  });
});

describe('typography', () => {
  it.each([['de', de as Tree], ...Object.entries(ADD_ONS)])('%s quotes, spaces and marks its sentences as the language does', (language, tree) => {
    expect(typographyOf(language, tree)).toEqual([]);
  });

  it('the check fails on straight or foreign quotes, a missing no-break space, a space before a colon and a missing ¿', () => {
    const french = structuredClone(fr) as Tree;
    (french.common as Tree).ok = 'Vraiment ?';
    (french.common as Tree).or = '"ou"';
    (french.common as Tree).back = 'Retour :';
    expect(typographyOf('fr', french).sort()).toEqual(['no-break space in common.back', 'no-break space in common.ok', 'quotes of common.or: ""'].sort());
    const german = structuredClone(de) as Tree;
    (german.common as Tree).ok = 'Nur „-" und "_“';
    (german.common as Tree).or = 'Land : {country}';
    expect(typographyOf('de', german).sort()).toEqual(['quotes of common.ok: „""“', 'space before punctuation in common.or']);
    const polish = structuredClone(pl) as Tree;
    (polish.common as Tree).ok = 'kluczem „{name}“';
    expect(typographyOf('pl', polish)).toEqual(['quotes of common.ok: „“']);
    const spanish = structuredClone(es) as Tree;
    (spanish.common as Tree).ok = 'Ya tienes una cuenta?';
    expect(typographyOf('es', spanish)).toEqual(['¿ ¡ in common.ok']);
  });
});

describe('an added language', () => {
  it('is picked by defaultLanguage and by autodetect once added, before or after load', () => {
    expect(chooseLanguage({ autoDetectLanguage: true }, 'nl-BE')).toBe('en');
    configureI18n({ defaultLanguage: 'nl', autoDetectLanguage: false });
    expect($language.get()).toBe('en');
    // added after configuration (an add-on script after load()): chosen again
    addLanguage('nl', nl);
    expect($language.get()).toBe('nl');
    expect(t('loginInit.header')).toBe('Inloggen');
    expect(chooseLanguage({ autoDetectLanguage: true }, 'nl-BE')).toBe('nl');
    addLanguage('fr', fr);
    expect(chooseLanguage({ autoDetectLanguage: true, defaultLanguage: 'de' }, 'fr-CA')).toBe('fr');
    expect(chooseLanguage({ autoDetectLanguage: false, defaultLanguage: 'fr' }, 'de-DE')).toBe('fr');
  });

  it('refuses what is not a language code, and cannot replace a bundled language', () => {
    expect(() => addLanguage('__proto__', fr)).toThrow(TypeError);
    expect(() => addLanguage('en', fr)).toThrow(TypeError);
    expect(() => addLanguage('es', undefined as never)).toThrow(TypeError);
  });

  it('falls back to English for a text it lacks', () => {
    addLanguage('es', { common: { or: 'o' } });
    configureI18n({ defaultLanguage: 'es', autoDetectLanguage: false });
    expect(t('common.or')).toBe('o');
    expect(t('common.cancel')).toBe('Cancel');
    addLanguage('es', es);
  });

  it('counts in its own plural forms (Polish: one, few, many)', () => {
    addLanguage('pl', pl);
    configureI18n({ defaultLanguage: 'pl', autoDetectLanguage: false });
    const wait = (minutes: number) => {
      const limited = tooManyRequests(minutes * 60);
      return t(limited.translationKey, limited.translationValues);
    };
    expect(wait(1)).toBe('Zbyt wiele prób. Spróbuj ponownie za 1 minutę.');
    expect(wait(3)).toBe('Zbyt wiele prób. Spróbuj ponownie za 3 minuty.');
    expect(wait(5)).toBe('Zbyt wiele prób. Spróbuj ponownie za 5 minut.');
    expect(wait(22)).toBe('Zbyt wiele prób. Spróbuj ponownie za 22 minuty.');
    configureI18n({ defaultLanguage: 'en', autoDetectLanguage: false });
    expect(wait(1)).toBe('Too many attempts. Please try again in 1 minute.');
    expect(wait(5)).toBe('Too many attempts. Please try again in 5 minutes.');
    // German has one and other; a form it lacks is its "other"
    configureI18n({ defaultLanguage: 'de', autoDetectLanguage: false });
    expect(wait(3)).toBe(t('errors.tooManyRequests.other', { minutes: 3 }));
  });
});
