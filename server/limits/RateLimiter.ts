// Enforces a project's abuse limits, and the server's limits across projects (config/rateLimits.ts),
// with sliding windows kept in the store.
// A full window ends the request with 429 and Retry-After, before anything is sent or changed.
//
// Counting runs outside the request's transaction, one atomic statement at a time: a send inside a
// process transaction must not hold a project-wide counter locked until that transaction ends. Two
// requests racing for the last free slot may then both be refused (never both let through): limits
// err towards caution.
import { ApiError } from '../ApiError.ts';
import { serverLimitLabel } from '../metrics/Metrics.ts';
import type { ProjectConfig } from '../config/projectConfig.ts';
import { DEFAULT_SERVER_RATE_LIMITS, type RateLimit, type RateLimitName, type ServerRateLimitName, type ServerRateLimits } from '../config/rateLimits.ts';
import type { WindowCount } from '../store/RateLimitsRepo.ts';
import type { Store } from '../store/Store.ts';

/**
 * One limit applied to one subject: an identifier, a client address or the project itself. A project
 * limit counts within the project; a server limit (`serverLimit`) counts the subject in all projects.
 */
export type LimitedSubject = { limit: RateLimitName; subject: string } | { serverLimit: ServerRateLimitName; subject: string };

export class RateLimiter {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    private readonly serverLimits: ServerRateLimits = DEFAULT_SERVER_RATE_LIMITS,
  ) {}

  /** Counts one event against every subject; throws 429 (taking its counts back) when any window is over. */
  take(project: ProjectConfig, subjects: LimitedSubject[]): Promise<void> {
    const now = this.now();
    return this.store.db.outsideTransaction(async () => {
      const counted: LimitedSubject[] = [];
      try {
        for (const subject of subjects) {
          await this.count(project, subject, now, 1);
          counted.push(subject);
          await this.refuseWhenOver(project, subject, now);
        }
      } catch (error) {
        for (const subject of counted) await this.count(project, subject, now, -1);
        throw error;
      }
    });
  }

  /** Throws 429 when any window is full (the first of them in the order given); counts nothing. All are read in one statement. */
  check(project: ProjectConfig, subjects: LimitedSubject[]): Promise<void> {
    const now = this.now();
    const resolved = subjects.map((subject) => this.resolve(project, subject));
    return this.store.db.outsideTransaction(async () => {
      const counts = await this.store.rateLimits.countAll(resolved.map(({ key, limit }) => ({ key, windowMs: limit.windowSeconds * 1000 })), now);
      resolved.forEach((subject, i) => this.refuseIfOver(subject, counts[i]!, now, 1));
    });
  }

  /** Counts one event against every subject, whatever the windows hold. */
  record(project: ProjectConfig, subjects: LimitedSubject[]): Promise<void> {
    const now = this.now();
    return this.store.db.outsideTransaction(async () => {
      for (const subject of subjects) await this.count(project, subject, now, 1);
    });
  }

  private count(project: ProjectConfig, subject: LimitedSubject, now: number, delta: 1 | -1): Promise<void> {
    const { key, limit } = this.resolve(project, subject);
    return this.store.rateLimits.record(key, limit.windowSeconds * 1000, now, delta);
  }

  /** 429 when the window, this event counted, holds more than `max` events. */
  private async refuseWhenOver(project: ProjectConfig, subject: LimitedSubject, now: number): Promise<void> {
    const resolved = this.resolve(project, subject);
    this.refuseIfOver(resolved, await this.store.rateLimits.count(resolved.key, resolved.limit.windowSeconds * 1000, now), now, 0);
  }

  /** 429 when the window holds more than `max - headroom` events. */
  private refuseIfOver({ name, label, limit }: { name: string; label: string; limit: RateLimit }, { count, freesAt }: WindowCount, now: number, headroom: 0 | 1): void {
    const { max, windowSeconds } = limit;
    if (count + headroom > max) throw ApiError.tooManyRequests(`Limit ${name} reached (${max} per ${windowSeconds} s)`, ((freesAt ?? now) - now) / 1000, label);
  }

  /**
   * The figures and the counter key of a subject. Project keys carry the project id (`pro-…`); server
   * keys carry `server` in its place, which no project id can be, so the two never share a counter.
   */
  private resolve(project: ProjectConfig, subject: LimitedSubject): { key: string; name: string; label: string; limit: RateLimit } {
    if ('serverLimit' in subject) {
      return {
        key: `${subject.serverLimit}:server:${subject.subject}`,
        name: `${subject.serverLimit} across projects`,
        label: serverLimitLabel(subject.serverLimit),
        limit: this.serverLimits[subject.serverLimit],
      };
    }
    return { key: `${subject.limit}:${project.id}:${subject.subject}`, name: subject.limit, label: subject.limit, limit: project.limits[subject.limit] };
  }
}
