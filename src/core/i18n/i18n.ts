// Translations: bundled en and de (en is the fallback), languages a host adds with an add-on script
// (dist/corbado.<code>.js calls Corbado.addLanguage), the host's custom translations on top, and the
// language chosen by option or, with autodetect, by the browser (SPEC.md section 1).
import { atom } from 'nanostores';
// as text, parsed on first use: the other language is then never evaluated, and JSON.parse reads
// the one shown faster than the engine evaluates an object literal
import de from './de.json?raw';
import en from './en.json?raw';

/** A language code: en, de, or one an add-on script added (fr, es, …) */
export type Language = string;
/** the bundled languages */
export const LANGUAGES: readonly Language[] = ['en', 'de'];

type Tree = { [key: string]: string | Tree };
export type CustomTranslations = Partial<Record<string, Tree>>;

const texts: Record<Language, string> = { en, de };
/** parsed bundled languages, and the languages add-ons added */
const parsed: Record<Language, Tree> = {};

/** English's tree with each text replaced by the next of `values` (null: none in this language). */
export function inEnglishOrder(english: Tree, values: (string | null)[]): Tree {
  const tree: Tree = {};
  for (const [key, value] of Object.entries(english)) {
    if (typeof value === 'string') {
      const text = values.shift();
      if (typeof text === 'string') tree[key] = text;
    } else {
      tree[key] = inEnglishOrder(value, values);
    }
  }
  return tree;
}

// The bundle holds every language but English as its texts alone, in en.json's key order
// (vite.config.ts, compactJsonText); unbundled (tests) each is its whole file.
const bundled = (language: Language): Tree => {
  if (parsed[language]) return parsed[language];
  const value = JSON.parse(texts[language]!) as Tree | (string | null)[];
  return (parsed[language] = Array.isArray(value) ? inEnglishOrder(bundled('en'), value) : value);
};

export const $language = atom<Language>('en');
let custom: CustomTranslations = {};
let chosenWith: LanguageOptions | undefined;

export interface LanguageOptions {
  defaultLanguage?: string;
  autoDetectLanguage?: boolean;
  customTranslations?: CustomTranslations;
}

function supported(language: string | undefined): Language | undefined {
  const primary = language?.toLowerCase().split(/[-_]/)[0];
  return primary && (LANGUAGES.includes(primary) || Object.hasOwn(parsed, primary)) ? primary : undefined;
}

/** The browser's primary language when autodetect is on and supported, else the default, else en. */
export function chooseLanguage(options: LanguageOptions, browserLanguage?: string): Language {
  return (options.autoDetectLanguage !== false && supported(browserLanguage)) || supported(options.defaultLanguage) || 'en';
}

export function configureI18n(options: LanguageOptions): void {
  chosenWith = options;
  custom = options.customTranslations ?? {};
  $language.set(chooseLanguage(options, typeof navigator === 'undefined' ? undefined : navigator.language));
}

/**
 * Adds a language (what an add-on script does): its texts, keyed as en.json. Where the widget is
 * loaded already, the language is chosen again, so an add-on loaded after load() still counts.
 */
export function addLanguage(code: string, tree: Tree): void {
  if (!/^[a-z]{2,3}$/.test(code) || LANGUAGES.includes(code) || typeof tree !== 'object' || !tree) throw new TypeError(`addLanguage: not a language: ${code}`);
  parsed[code] = tree;
  if (chosenWith) configureI18n(chosenWith);
}

/** The key of a plural group's form for `count` in the current language (Intl.PluralRules), else its `other`. */
export function pluralKey(group: string, count: number): string {
  const key = `${group}.${new Intl.PluralRules($language.get()).select(count)}`;
  return hasText(key) ? key : `${group}.other`;
}

function lookup(tree: Tree | undefined, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (!node || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Whether a text exists for the key (custom or bundled, current language or English). */
export function hasText(key: string, language = $language.get()): boolean {
  return resolve(key, language) !== undefined;
}

/**
 * A host's text for a key, where a text that the widget now keeps per identifier type (the badges
 * verified and primary, per e-mail, phone and username) was customised as one string for all: that
 * string still counts.
 */
function lookupCustom(tree: Tree | undefined, key: string): string | undefined {
  const parent = key.slice(0, key.lastIndexOf('.'));
  return lookup(tree, key) ?? (parent ? lookup(tree, parent) : undefined);
}

function resolve(key: string, language: Language): string | undefined {
  return lookupCustom(custom[language], key) ?? lookup(bundled(language), key) ?? lookupCustom(custom.en, key) ?? lookup(bundled('en'), key);
}

/** The text for a key with {placeholders} filled in; the key itself when no language knows it. */
export function t(key: string, values: Record<string, string | number> = {}, language = $language.get()): string {
  const text = resolve(key, language) ?? key;
  return text.replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match));
}
