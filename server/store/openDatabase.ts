// Picks the engine: a postgres:// (or postgresql://) URL opens PostgreSQL, anything else is a SQLite file.
import type { Database } from './Database.ts';
import { MIGRATIONS, type Migration } from './migrations.ts';
import { PostgresDatabase, type PostgresOptions } from './PostgresDatabase.ts';
import { SqliteDatabase } from './SqliteDatabase.ts';

export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

export function openDatabase(location: string, migrations: Migration[] = MIGRATIONS, options: PostgresOptions = {}): Promise<Database> {
  return isPostgresUrl(location)
    ? PostgresDatabase.open(location, migrations, options)
    : SqliteDatabase.open(location, migrations, options.timeouts?.busyMs === undefined ? {} : { busyMs: options.timeouts.busyMs });
}
