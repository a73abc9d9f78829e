import type { Language } from './i18n';

const LOCALES: Record<Language, string> = { en: 'en-GB', de: 'de-DE' };

/** A time (ISO text or ms) as date and time in the language's form; empty for none. */
export function formatTime(value: string | number | null | undefined, language: Language): string {
  if (value === null || value === undefined || value === '') return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return new Intl.DateTimeFormat(LOCALES[language], { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(date) + ' UTC';
}

/** A share (0…1) as a percentage with at most one decimal. */
export function formatShare(share: number, language: Language): string {
  return new Intl.NumberFormat(LOCALES[language], { style: 'percent', maximumFractionDigits: 1 }).format(share);
}
