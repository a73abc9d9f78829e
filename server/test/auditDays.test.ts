// The UTC day of a record (the daily counters' key), which the sealer asks for once per record and
// keeps for the day it last answered: the kept day must never answer for a time outside it.
import { describe, expect, it } from 'vitest';
import { dayOf } from '../audit/rollups.ts';

describe('dayOf', () => {
  it('names the UTC day of each time, back and forth across midnight and far apart', () => {
    const midnight = Date.UTC(2026, 10, 29);
    const times = [midnight - 1, midnight, midnight + 86_399_999, midnight + 86_400_000, midnight - 1, 0, -1, midnight + 1];
    expect(times.map(dayOf)).toEqual(times.map((ms) => new Date(ms).toISOString().slice(0, 10)));
    expect(times.map(dayOf)).toEqual(['2026-11-28', '2026-11-29', '2026-11-29', '2026-11-30', '2026-11-28', '1970-01-01', '1969-12-31', '2026-11-29']);
  });

  it('refuses a time that is no time, even right after a valid one', () => {
    dayOf(Date.UTC(2026, 10, 29));
    expect(() => dayOf(Number.NaN)).toThrow(RangeError);
  });
});
