// The project's settings as a form: each top-level setting gets the input its value's type asks for
// (a switch, a number, a line of text, a list as lines, anything nested as JSON), and only the fields
// changed are sent (PATCH), so that the server's validation (that of `admin projects update`) answers
// per field and its message is shown at that field.

export type FieldKind = 'boolean' | 'number' | 'text' | 'lines' | 'json';

/** Settings not edited here: the id, and what the server keeps to itself. */
const READ_ONLY = new Set(['id', 'projectId']);

export function fieldKind(value: unknown): FieldKind {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'string') return 'text';
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return 'lines';
  return 'json';
}

/** A setting's value as the text its input holds. */
export function toDraft(value: unknown): string | boolean {
  switch (fieldKind(value)) {
    case 'boolean':
      return value as boolean;
    case 'number':
    case 'text':
      return String(value);
    case 'lines':
      return (value as string[]).join('\n');
    default:
      return JSON.stringify(value, null, 2);
  }
}

export class DraftError extends Error {}

/** An input's text back as the setting's value (of the kind the original had); DraftError when it cannot be. */
export function fromDraft(kind: FieldKind, draft: string | boolean): unknown {
  switch (kind) {
    case 'boolean':
      return Boolean(draft);
    case 'number': {
      const number = Number(draft);
      // the server's validation says what range is allowed; here only that it is a number
      return String(draft).trim() === '' || Number.isNaN(number) ? String(draft) : number;
    }
    case 'text':
      return String(draft);
    case 'lines':
      return String(draft)
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
    default:
      try {
        return JSON.parse(String(draft)) as unknown;
      } catch {
        throw new DraftError('invalid json');
      }
  }
}

export function editableKeys(settings: Record<string, unknown>): string[] {
  return Object.keys(settings).filter((key) => !READ_ONLY.has(key));
}

/**
 * The changed settings, as the PATCH body; `invalid` names the JSON fields that do not parse (they are
 * not sent).
 */
export function changedSettings(settings: Record<string, unknown>, drafts: Record<string, string | boolean>): { patch: Record<string, unknown>; invalid: string[] } {
  const patch: Record<string, unknown> = {};
  const invalid: string[] = [];
  for (const key of editableKeys(settings)) {
    if (!(key in drafts)) continue;
    try {
      const value = fromDraft(fieldKind(settings[key]), drafts[key]!);
      if (JSON.stringify(value) !== JSON.stringify(settings[key])) patch[key] = value;
    } catch (error) {
      if (error instanceof DraftError) invalid.push(key);
      else throw error;
    }
  }
  return { patch, invalid };
}

/** The server's field messages by top-level setting (`identifiers.email.enabled` shows at `identifiers`). */
export function messagesByField(fields: Record<string, string>): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const [name, message] of Object.entries(fields)) {
    const top = name.split(/[.[]/)[0]!;
    byField[top] = byField[top] ? `${byField[top]} ${message}` : message;
  }
  return byField;
}
