// Brings a database's schema up to date: every migration it has not seen yet, in order, each recorded
// in schema_migrations. Instances starting together on one PostgreSQL database take turns.
import type { Database } from './Database.ts';
import type { Migration } from './migrations.ts';

export async function migrate(db: Database, migrations: Migration[]): Promise<number[]> {
  return db.transaction(async () => {
    await db.lockKey('schema_migrations');
    await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    INTEGER PRIMARY KEY,
      name       TEXT NOT NULL,
      applied_at INTEGER NOT NULL
    )`);
    const applied = new Set((await db.all<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version));
    const ran: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      await db.exec(db.dialect === 'postgres' && migration.postgresSql ? migration.postgresSql : migration.sql);
      await db.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [migration.version, migration.name, Date.now()]);
      ran.push(migration.version);
    }
    return ran;
  });
}
