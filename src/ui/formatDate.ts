/** A server timestamp (yyyy-MM-dd'T'HH:mm:ss in UTC, or with its offset) as the user's language writes date and time. */
export function formatDate(value: string, language: string): string {
  const date = new Date(/Z|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' });
}
