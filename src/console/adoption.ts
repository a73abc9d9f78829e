// The adoption page's figures as chart series and data tables (pure: the page draws them with uPlot and
// prints the same numbers in a table beside each chart).

export interface Daily {
  date: string;
  signUps: Record<string, number>;
  logIns: Record<string, number>;
  passkeyAdoptionShare: number;
}

export interface FunnelRow {
  os: string;
  browser: string;
  offered: number;
  created: number;
  skipped: number;
  failed: number;
}

export interface Stats {
  days: number;
  from: string;
  signups: Record<string, number>;
  logins: Record<string, number>;
  funnel: FunnelRow[];
  adoption: { activeUsers: number; activeUsersWithPasskey: number; passkeyUserShare: number; passkeyLoginShare: number; fallbacks: number };
  daily?: Daily[];
}

export interface Series {
  /** x: each day's start in seconds (uPlot's time axis) */
  x: number[];
  /** one line per method, in name order, a count per day (0 where a day has none) */
  lines: { name: string; values: number[] }[];
}

/** The per-day counts of one kind (sign-ups or log-ins), by method, days in date order. */
export function perMethod(daily: readonly Daily[], kind: 'signUps' | 'logIns'): Series {
  const days = [...daily].sort((a, b) => a.date.localeCompare(b.date));
  const methods = [...new Set(days.flatMap((day) => Object.keys(day[kind])))].sort();
  return {
    x: days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000),
    lines: methods.map((name) => ({ name, values: days.map((day) => day[kind][name] ?? 0) })),
  };
}

/** The passkey log-in share per day. */
export function shareSeries(daily: readonly Daily[]): Series {
  const days = [...daily].sort((a, b) => a.date.localeCompare(b.date));
  return { x: days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000), lines: [{ name: 'passkey', values: days.map((day) => day.passkeyAdoptionShare) }] };
}

/** The table of a series: a row per day (its date and each line's value). */
export function seriesRows(series: Series): { date: string; values: number[] }[] {
  return series.x.map((x, i) => ({ date: new Date(x * 1000).toISOString().slice(0, 10), values: series.lines.map((line) => line.values[i] ?? 0) }));
}

/** The funnel's rows, most offered first, each labelled "OS · browser". */
export function funnelRows(funnel: readonly FunnelRow[]): (FunnelRow & { label: string })[] {
  return [...funnel].sort((a, b) => b.offered - a.offered || `${a.os}${a.browser}`.localeCompare(`${b.os}${b.browser}`)).map((row) => ({ ...row, label: `${row.os} · ${row.browser}` }));
}

/**
 * Every day of the period, from its first day (`from`, YYYY-MM-DD) on, with zeros where the server
 * has no counts (it answers only the days that have some): the charts' time axis is the period.
 */
export function fillDays(daily: readonly Daily[], from: string, days: number): Daily[] {
  const byDate = new Map(daily.map((day) => [day.date, day]));
  const start = Date.parse(`${from}T00:00:00Z`);
  if (Number.isNaN(start)) return [...daily];
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
    return byDate.get(date) ?? { date, signUps: {}, logIns: {}, passkeyAdoptionShare: 0 };
  });
}
