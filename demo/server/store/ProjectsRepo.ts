import type { ProjectConfig } from '../config/projectConfig.ts';
import type { Db } from './openDatabase.ts';

/** First numeric id handed out by POST /_dev/projects, well above the seeds' ids. */
const FIRST_DEV_PROJECT_NUMBER = 1000;

export class ProjectsRepo {
  constructor(private readonly db: Db) {}

  /** Seeds are re-applied at every start so edits to projects.json take effect. */
  upsertSeed(config: ProjectConfig, now: number): void {
    this.db
      .prepare(
        `INSERT INTO projects (id, config, source, created_at, updated_at) VALUES (?, ?, 'seed', ?, ?)
         ON CONFLICT(id) DO UPDATE SET config = excluded.config, source = 'seed', updated_at = excluded.updated_at`,
      )
      .run(config.id, JSON.stringify(config), now, now);
  }

  /** Inserts a dev project under a fresh numeric id, built by `build(id)`. */
  createDev(build: (id: string) => ProjectConfig, now: number): ProjectConfig {
    return this.db.transaction(() => {
      const rows = this.db.prepare('SELECT id FROM projects').all() as { id: string }[];
      const highest = rows.reduce((max, r) => Math.max(max, Number(r.id.slice(4)) || 0), FIRST_DEV_PROJECT_NUMBER - 1);
      const config = build(`pro-${highest + 1}`);
      this.db
        .prepare(`INSERT INTO projects (id, config, source, created_at, updated_at) VALUES (?, ?, 'dev', ?, ?)`)
        .run(config.id, JSON.stringify(config), now, now);
      return config;
    })();
  }

  get(id: string): ProjectConfig | undefined {
    const row = this.db.prepare('SELECT config FROM projects WHERE id = ?').get(id) as { config: string } | undefined;
    return row ? (JSON.parse(row.config) as ProjectConfig) : undefined;
  }

  /** Every origin any project allows (preflights carry no project header). */
  allAllowedOrigins(): Set<string> {
    const rows = this.db.prepare('SELECT config FROM projects').all() as { config: string }[];
    const origins = new Set<string>();
    for (const row of rows) for (const o of (JSON.parse(row.config) as ProjectConfig).allowedOrigins) origins.add(o);
    return origins;
  }
}
