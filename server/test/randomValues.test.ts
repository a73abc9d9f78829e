// Ids and secret tokens are drawn on every sign-up call: their shape, that no token repeats, and what
// they cost the system's random generator (issue 34: a few calls per kilobytes, not one per token).
import { describe, expect, it, vi } from 'vitest';

const draws = vi.hoisted(() => ({ fill: 0, int: 0 }));
vi.mock('node:crypto', async (original) => {
  const crypto = await original<typeof import('node:crypto')>();
  return {
    ...crypto,
    randomFillSync: ((buffer: NodeJS.ArrayBufferView) => {
      draws.fill += 1;
      return crypto.randomFillSync(buffer);
    }) as typeof crypto.randomFillSync,
    randomInt: ((min: number, max: number) => {
      draws.int += 1;
      return crypto.randomInt(min, max);
    }) as typeof crypto.randomInt,
  };
});

const { newId, newSecretToken } = await import('../randomValues.ts');

describe('random values', () => {
  it('newId: 19 digits, the first not 0, every digit at every place, three draws per id', () => {
    draws.int = 0;
    const ids = Array.from({ length: 2000 }, () => newId('usr'));
    expect(draws.int).toBe(3 * 2000);
    for (const id of ids) expect(id).toMatch(/^usr-[1-9]\d{18}$/);
    for (let place = 1; place < 19; place++) expect(new Set(ids.map((id) => id[4 + place])).size).toBe(10);
    expect(new Set(ids.map((id) => id[4])).size).toBe(9);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('newSecretToken: 32 bytes base64url, never one twice across refills, one draw per 128 tokens', () => {
    draws.fill = 0;
    const tokens = Array.from({ length: 1280 }, () => newSecretToken());
    expect(draws.fill).toBeLessThanOrEqual(11);
    expect(draws.fill).toBeGreaterThanOrEqual(10);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
    // no 32-byte token shares a half with another (a slice handed out twice would)
    expect(new Set(tokens.map((t) => t.slice(0, 21))).size).toBe(tokens.length);
  });
});
