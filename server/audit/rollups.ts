// The adoption figures kept as daily counters (audit_daily) from the trail's records, counted by the
// sealer (sealer.ts) in the transaction that chains them: a year of a large site is then 365 rows per
// metric to sum, not millions of records to scan. What each record counts for:
//   signup:<method>, login:<method>          sign-ups and log-ins per method
//   login-failed:<reason>                    failed log-ins by reason
//   funnel:<step>:<os>:<browser family>      the passkey funnel: offered, created, skipped, failed
//   fallback                                 a log-in by code or link in a process that tried a passkey first
// and sign-ups and log-ins note their user as active that day (audit_user_activity), with whether the
// user held a passkey, for the adoption share.
import type { AuditEntry } from '../store/AuditRepo.ts';

const DAY_MS = 86_400_000;
/** the last day asked for, kept: the sealer asks for each record's, and nearly all are of the same day */
let lastDay = { from: 0, to: -1, text: '' };

/** The UTC day of a time, YYYY-MM-DD. */
export function dayOf(ms: number): string {
  if (!(ms >= lastDay.from && ms < lastDay.to)) {
    const from = Math.floor(ms / DAY_MS) * DAY_MS;
    lastDay = { from, to: from + DAY_MS, text: new Date(ms).toISOString().slice(0, 10) };
  }
  return lastDay.text;
}

export const FUNNEL_STEPS = ['offered', 'created', 'skipped', 'failed'] as const;

type Details = Record<string, unknown>;

function browserFamily(browser: string | null): string {
  return (browser ?? 'Unknown browser').replace(/ \d+$/, '');
}

export function rollupOf(record: AuditEntry, details: Details): { metrics: string[]; activeUser?: string } {
  const method = typeof details.method === 'string' ? details.method : 'unknown';
  const metrics: string[] = [];
  const funnelStep = /^passkey\.(offered|created|skipped|failed)$/.exec(record.event)?.[1];
  if (funnelStep) metrics.push(`funnel:${funnelStep}:${record.os ?? 'Unknown OS'}:${browserFamily(record.browser)}`);
  if (record.event === 'signup.succeeded') metrics.push(`signup:${method}`);
  if (record.event === 'login.succeeded') {
    metrics.push(`login:${method}`);
    if (details.fallback === true) metrics.push('fallback');
  }
  if (record.event === 'login.failed') metrics.push(`login-failed:${record.reason ?? 'unknown'}`);
  const active = (record.event === 'signup.succeeded' || record.event === 'login.succeeded') && record.userId ? record.userId : undefined;
  return active ? { metrics, activeUser: active } : { metrics };
}
