import { storedProjectConfig, type ProjectConfig } from '../config/projectConfig.ts';
import type { Database } from './Database.ts';

/** First numeric id handed out to created projects, well above the seeds' ids. */
const FIRST_CREATED_PROJECT_NUMBER = 1000;

/** seed: projects.json; dev: created while running (POST /_dev/projects or the admin command) */
export type ProjectSource = 'seed' | 'dev';

export class ProjectsRepo {
  constructor(private readonly db: Database) {}

  /** Seeds are re-applied at every start so edits to projects.json take effect. */
  async upsertSeed(config: ProjectConfig, now: number): Promise<void> {
    await this.db.run(
      `INSERT INTO projects (id, config, source, created_at, updated_at) VALUES (?, ?, 'seed', ?, ?)
       ON CONFLICT(id) DO UPDATE SET config = excluded.config, source = 'seed', updated_at = excluded.updated_at`,
      [config.id, JSON.stringify(config), now, now],
    );
  }

  /** Inserts a project under a fresh numeric id, built by `build(id)`. */
  create(build: (id: string) => ProjectConfig, now: number): Promise<ProjectConfig> {
    return this.db.transaction(async () => {
      await this.db.lockKey('projects:create');
      const rows = await this.db.all<{ id: string }>('SELECT id FROM projects');
      const highest = rows.reduce((max, r) => Math.max(max, Number(r.id.slice(4)) || 0), FIRST_CREATED_PROJECT_NUMBER - 1);
      const config = build(`pro-${highest + 1}`);
      await this.db.run(`INSERT INTO projects (id, config, source, created_at, updated_at) VALUES (?, ?, 'dev', ?, ?)`, [
        config.id,
        JSON.stringify(config),
        now,
        now,
      ]);
      return config;
    });
  }

  /** Inserts a project under its own id (the console's reserved one); it counts as created. */
  async insert(config: ProjectConfig, now: number): Promise<void> {
    await this.db.run(`INSERT INTO projects (id, config, source, created_at, updated_at) VALUES (?, ?, 'dev', ?, ?)`, [config.id, JSON.stringify(config), now, now]);
  }

  /**
   * Replaces a project's configuration; false when there is no such project. A replaced seed is no
   * longer the seed's (production refuses to start with seeded projects): it counts as created.
   */
  async update(config: ProjectConfig, now: number): Promise<boolean> {
    const changed = await this.db.run(`UPDATE projects SET config = ?, source = 'dev', updated_at = ? WHERE id = ?`, [JSON.stringify(config), now, config.id]);
    return changed === 1;
  }

  async get(id: string): Promise<ProjectConfig | undefined> {
    const row = await this.db.get<{ config: string }>('SELECT config FROM projects WHERE id = ?', [id]);
    return row ? parseConfig(row.config) : undefined;
  }

  async list(): Promise<{ config: ProjectConfig; source: ProjectSource }[]> {
    const rows = await this.db.all<{ config: string; source: ProjectSource }>('SELECT config, source FROM projects ORDER BY created_at, id');
    return rows.map((r) => ({ config: parseConfig(r.config), source: r.source }));
  }

  /** Every origin any project allows (preflights carry no project header). */
  async allAllowedOrigins(): Promise<Set<string>> {
    const origins = new Set<string>();
    for (const { config } of await this.list()) for (const o of config.allowedOrigins) origins.add(o);
    return origins;
  }
}

function parseConfig(json: string): ProjectConfig {
  return storedProjectConfig(JSON.parse(json) as ProjectConfig);
}
