// One-time codes: six digits (SPEC.md section 5).
export const OTP_LENGTH = 6;

/**
 * What a paste or a typed string puts into the code: its first six characters, accepted only when all
 * of them are digits. Shorter input is accepted when it is all digits (it fills from the current cell).
 */
export function acceptCodeInput(input: string): string | undefined {
  const head = input.trim().slice(0, OTP_LENGTH);
  return /^\d+$/.test(head) ? head : undefined;
}

export function isCompleteCode(cells: readonly string[]): boolean {
  return cells.length === OTP_LENGTH && cells.every((c) => /^\d$/.test(c));
}
