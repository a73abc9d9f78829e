// Section 7: `npm run admin -- users import` of many users into a fresh database, as a site moving to
// the widget would run it; then the same file again (every line is found unchanged). The admin command
// itself runs, in this process: it reads the JSONL file, checks each line and writes in batches.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAdmin } from '../../server/admin.ts';

export interface ImportFigures {
  database: 'sqlite' | 'postgres';
  users: number;
  /** first run: every line creates a user */
  seconds: number;
  usersPerSecond: number;
  /** CPU time of the import process (parsing, checks, the driver) in the first run: robust on a shared machine, but without the database server's share on PostgreSQL */
  cpuSeconds: number;
  /** second run of the same file: every line exists already */
  rerunSeconds: number;
  rerunLinesPerSecond: number;
  fileMegabytes: number;
}

const quiet = { progress: () => {}, warn: () => {} };

/** A JSONL file of `users` users: an external id, a name, a verified e-mail address, every fourth a pending phone number. */
export function writeImportFile(path: string, users: number): number {
  const lines: string[] = [];
  for (let i = 0; i < users; i += 1) {
    const identifiers: { type: string; value: string; status: string }[] = [{ type: 'email', value: `customer${i}@shop.example`, status: 'verified' }];
    if (i % 4 === 0) identifiers.push({ type: 'phone', value: `+4915${String(100_000_000 + i).slice(0, 9)}`, status: 'pending' });
    lines.push(JSON.stringify({ externalID: `cust-${i}`, fullName: `Customer ${i}`, identifiers }));
  }
  const text = `${lines.join('\n')}\n`;
  writeFileSync(path, text);
  return Buffer.byteLength(text) / 1_000_000;
}

/** Imports the file into a new project of a fresh database (`env`: DATABASE_PATH or DATABASE_URL), twice. */
export async function importBench(env: NodeJS.ProcessEnv, database: ImportFigures['database'], file: string, users: number, tmp: string): Promise<ImportFigures> {
  const projectFile = join(tmp, 'import-project.json');
  writeFileSync(projectFile, JSON.stringify({ appName: 'Import bench', allowedOrigins: ['https://shop.example'], identifiers: { email: {}, phone: { required: false } } }));
  const { id } = (await runAdmin(['projects', 'create', projectFile], env)) as { id: string };
  const run = async () => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = (await runAdmin(['users', 'import', id, file], env, Date.now(), quiet)) as { created: number; unchanged: number; refused: number };
    const used = process.cpuUsage(cpu);
    return { seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6, ...result };
  };
  const first = await run();
  if (first.created !== users || first.refused !== 0) throw new Error(`the import created ${first.created} of ${users} users (${first.refused} refused)`);
  const rerun = await run();
  if (rerun.unchanged !== users || rerun.created !== 0) throw new Error(`the rerun found ${rerun.unchanged} of ${users} unchanged and created ${rerun.created}`);
  return {
    database,
    users,
    seconds: Math.round(first.seconds * 10) / 10,
    usersPerSecond: Math.round(users / first.seconds),
    cpuSeconds: Math.round(first.cpuSeconds * 10) / 10,
    rerunSeconds: Math.round(rerun.seconds * 10) / 10,
    rerunLinesPerSecond: Math.round(users / rerun.seconds),
    fileMegabytes: 0,
  };
}
