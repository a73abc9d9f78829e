// Enforces a project's abuse limits (config/rateLimits.ts) with sliding windows kept in the store.
// A full window ends the request with 429 and Retry-After, before anything is sent or changed.
import { ApiError } from '../ApiError.ts';
import type { ProjectConfig } from '../config/projectConfig.ts';
import type { RateLimitName } from '../config/rateLimits.ts';
import type { Store } from '../store/Store.ts';

/** One limit applied to one subject: an identifier, a client address or the project itself. */
export interface LimitedSubject {
  limit: RateLimitName;
  subject: string;
}

export class RateLimiter {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  /** Counts one event against every subject; throws 429 (counting none) when any window is full. */
  async take(project: ProjectConfig, subjects: LimitedSubject[]): Promise<void> {
    await this.store.transaction(async () => {
      await this.check(project, subjects);
      await this.record(project, subjects);
    });
  }

  /** Throws 429 when any window is full; counts nothing. */
  async check(project: ProjectConfig, subjects: LimitedSubject[]): Promise<void> {
    const now = this.now();
    await this.store.transaction(async () => {
      for (const { limit, subject } of subjects) {
        const { max, windowSeconds } = project.limits[limit];
        const windowMs = windowSeconds * 1000;
        const { count, freesAt } = await this.store.rateLimits.count(key(project, limit, subject), windowMs, now);
        if (count >= max) throw ApiError.tooManyRequests(`Limit ${limit} reached (${max} per ${windowSeconds} s)`, ((freesAt ?? now) - now) / 1000);
      }
    });
  }

  /** Counts one event against every subject, whatever the windows hold. */
  async record(project: ProjectConfig, subjects: LimitedSubject[]): Promise<void> {
    const now = this.now();
    for (const { limit, subject } of subjects) await this.store.rateLimits.record(key(project, limit, subject), project.limits[limit].windowSeconds * 1000, now);
  }
}

function key(project: ProjectConfig, limit: RateLimitName, subject: string): string {
  return `${limit}:${project.id}:${subject}`;
}
