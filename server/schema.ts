// Small hand-written validators for request bodies. Each check collects issues instead of throwing,
// so one 400 answer lists every bad field (`error.validation`).
import { ApiError } from './ApiError.ts';

export interface Issue {
  field: string;
  message: string;
}

export interface Check<T> {
  (value: unknown, path: string, issues: Issue[]): T;
  /** an optional field may be absent (undefined or null) */
  readonly optional: boolean;
}

function check<T>(fn: (value: unknown, path: string, issues: Issue[]) => T, optional = false): Check<T> {
  return Object.assign(fn, { optional }) as Check<T>;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export function str(opts: { min?: number; max?: number; pattern?: RegExp } = {}): Check<string> {
  return check((value, path, issues) => {
    if (typeof value !== 'string') {
      issues.push({ field: path, message: `must be a string, got ${describe(value)}` });
      return '';
    }
    if (opts.min !== undefined && value.length < opts.min) {
      issues.push({ field: path, message: `must be at least ${opts.min} characters long` });
    }
    if (opts.max !== undefined && value.length > opts.max) {
      issues.push({ field: path, message: `must be at most ${opts.max} characters long` });
    }
    if (opts.pattern && !opts.pattern.test(value)) {
      issues.push({ field: path, message: `must match ${String(opts.pattern)}` });
    }
    return value;
  });
}

export function bool(): Check<boolean> {
  return check((value, path, issues) => {
    if (typeof value !== 'boolean') {
      issues.push({ field: path, message: `must be a boolean, got ${describe(value)}` });
      return false;
    }
    return value;
  });
}

export function int(opts: { min?: number; max?: number } = {}): Check<number> {
  return check((value, path, issues) => {
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      issues.push({ field: path, message: `must be an integer, got ${describe(value)}` });
      return 0;
    }
    if (opts.min !== undefined && value < opts.min) issues.push({ field: path, message: `must be >= ${opts.min}` });
    if (opts.max !== undefined && value > opts.max) issues.push({ field: path, message: `must be <= ${opts.max}` });
    return value;
  });
}

/** a number (integer or not); used where clients compute values with arithmetic */
export function num(): Check<number> {
  return check((value, path, issues) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      issues.push({ field: path, message: `must be a number, got ${describe(value)}` });
      return 0;
    }
    return value;
  });
}

export function oneOf<const T extends readonly string[]>(values: T): Check<T[number]> {
  return check((value, path, issues) => {
    if (typeof value !== 'string' || !values.includes(value)) {
      issues.push({ field: path, message: `must be one of ${values.join(', ')}` });
      return values[0] as T[number];
    }
    return value as T[number];
  });
}

export function arr<T>(item: Check<T>, opts: { max?: number } = {}): Check<T[]> {
  return check((value, path, issues) => {
    if (!Array.isArray(value)) {
      issues.push({ field: path, message: `must be an array, got ${describe(value)}` });
      return [];
    }
    if (opts.max !== undefined && value.length > opts.max) {
      issues.push({ field: path, message: `must have at most ${opts.max} entries` });
      return [];
    }
    return value.map((v, i) => item(v, `${path}[${i}]`, issues));
  });
}

type Shape = Record<string, Check<unknown>>;
type OptionalKeys<S extends Shape> = { [K in keyof S]: S[K] extends Check<infer T> ? (undefined extends T ? K : never) : never }[keyof S];
type RequiredKeys<S extends Shape> = Exclude<keyof S, OptionalKeys<S>>;
export type Infer<S extends Shape> = { [K in RequiredKeys<S>]: S[K] extends Check<infer T> ? T : never } & {
  [K in OptionalKeys<S>]?: S[K] extends Check<infer T> ? T : never;
};

/** An object with known fields; unknown fields are ignored (clients send extra information). */
export function obj<S extends Shape>(shape: S): Check<Infer<S>> {
  return check((value, path, issues) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      issues.push({ field: path || '(body)', message: `must be an object, got ${describe(value)}` });
      return {} as Infer<S>;
    }
    const out: Record<string, unknown> = {};
    for (const [key, fieldCheck] of Object.entries(shape)) {
      const fieldValue = (value as Record<string, unknown>)[key];
      const fieldPath = path ? `${path}.${key}` : key;
      if (fieldValue === undefined || fieldValue === null) {
        if (!fieldCheck.optional) issues.push({ field: fieldPath, message: 'is required' });
        continue;
      }
      out[key] = fieldCheck(fieldValue, fieldPath, issues);
    }
    return out as Infer<S>;
  });
}

/** A JSON object whose fields are not inspected (passed through as-is). */
export function anyObject(): Check<Record<string, unknown>> {
  return check((value, path, issues) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      issues.push({ field: path, message: `must be an object, got ${describe(value)}` });
      return {};
    }
    return value as Record<string, unknown>;
  });
}

export function optional<T>(inner: Check<T>): Check<T | undefined> {
  return check((value, path, issues) => (value === undefined || value === null ? undefined : inner(value, path, issues)), true);
}

/** Runs a check on a whole body; throws a 400 `invalid_request` listing every issue. */
export function parseWith<T>(schema: Check<T>, value: unknown): T {
  const issues: Issue[] = [];
  const result = schema(value, '', issues);
  if (issues.length > 0) throw ApiError.invalidRequest('The request body is invalid', issues);
  return result;
}
