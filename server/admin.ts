// `npm run admin -- <command>`: manages projects in the database the server uses (DATABASE_URL or
// DATABASE_PATH), for production, where /_dev/projects does not exist. Runs the migrations first, so
// it also prepares a fresh database. Prints JSON; exits 1 with the reason on bad input.
//
//   projects list                       every project: id, app name, origins, where it came from
//   projects show <id>                  one project's full configuration
//   projects create <file.json | ->     a new project from a (partial) configuration; prints its id
//   projects update <id> <file.json | -> replaces a project's configuration (the same keys as create)
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ApiError } from './ApiError.ts';
import { PROJECT_ID_PATTERN, projectBuilder, resolveProjectConfig } from './config/projectConfig.ts';
import { databaseFromEnv } from './settings.ts';
import { Store } from './store/Store.ts';

const USAGE = `usage: admin projects list | projects show <id> | projects create <file.json|-> | projects update <id> <file.json|->`;

class UsageError extends Error {}

function readConfig(source: string | undefined): unknown {
  if (!source) throw new UsageError(USAGE);
  const text = readFileSync(source === '-' ? 0 : source, 'utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`${source === '-' ? 'standard input' : source} is not valid JSON`);
  }
}

function projectId(value: string | undefined): string {
  if (!value || !PROJECT_ID_PATTERN.test(value)) throw new UsageError(`a project id like pro-1000 is needed, got ${value ?? 'nothing'}`);
  return value;
}

export async function runAdmin(args: readonly string[], env: NodeJS.ProcessEnv, now = Date.now()): Promise<unknown> {
  const [area, command, first, second] = args;
  if (area !== 'projects' || !command) throw new UsageError(USAGE);
  const store = await Store.open(databaseFromEnv(env));
  try {
    switch (command) {
      case 'list':
        return (await store.projects.list()).map(({ config, source }) => ({
          id: config.id,
          appName: config.appName,
          allowedOrigins: config.allowedOrigins,
          source: source === 'seed' ? 'projects.json (development seed)' : 'created',
        }));
      case 'show': {
        const id = projectId(first);
        const config = await store.projects.get(id);
        if (!config) throw new UsageError(`there is no project ${id}`);
        return config;
      }
      case 'create': {
        const input = readConfig(first);
        if (typeof input === 'object' && input !== null && 'id' in input) throw new UsageError('the id is chosen by the server: leave it out');
        const config = await store.projects.create(projectBuilder(input, undefined), now);
        return { id: config.id };
      }
      case 'update': {
        const id = projectId(first);
        const config = resolveProjectConfig(id, readConfig(second), undefined);
        if (!(await store.projects.update(config, now))) throw new UsageError(`there is no project ${id}`);
        return config;
      }
      default:
        throw new UsageError(USAGE);
    }
  } finally {
    await store.close();
  }
}

/** The message for a failed command: usage, or every invalid field of a configuration. */
export function adminErrorMessage(error: unknown): string {
  if (error instanceof UsageError) return error.message;
  if (error instanceof ApiError) return [error.details, ...(error.validation ?? []).map((v) => `  ${v.field}: ${v.message}`)].join('\n');
  return error instanceof Error ? error.message : String(error);
}

// run as a program (tsx, node, or the package's bin, which is a symlink), not when a test imports it
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.info(JSON.stringify(await runAdmin(process.argv.slice(2), process.env), null, 2));
  } catch (error) {
    console.error(adminErrorMessage(error));
    process.exit(1);
  }
}
