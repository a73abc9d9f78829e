// `npm run admin -- <command>`: manages projects in the database the server uses (DATABASE_URL or
// DATABASE_PATH), for production, where /_dev/projects does not exist. Runs the migrations first, so
// it also prepares a fresh database. Prints JSON; exits 1 with the reason on bad input.
//
//   projects list                       every project: id, app name, origins, where it came from
//   projects show <id>                  one project's full configuration
//   projects create <file.json | ->     a new project from a (partial) configuration; prints its id
//   projects update <id> <file.json | -> replaces a project's configuration (the same keys as create)
//   webhooks add <projectId> <url> [--events a,b]  a webhook endpoint; prints its signing secret, once
//   webhooks list [projectId]           the endpoints (no secrets), with their waiting and given-up deliveries
//   webhooks remove <id>                removes an endpoint and what still waits for it
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ApiError } from './ApiError.ts';
import { PROJECT_ID_PATTERN, projectBuilder, resolveProjectConfig } from './config/projectConfig.ts';
import { parseEventTypes } from './events/eventTypes.ts';
import { addWebhookEndpoint } from './events/webhookEndpoints.ts';
import { KeyStore } from './session/KeyStore.ts';
import { databaseFromEnv, isProduction, webhookSettingsFromEnv } from './settings.ts';
import { Store } from './store/Store.ts';

const USAGE = [
  'usage: admin projects list | projects show <id> | projects create <file.json|-> | projects update <id> <file.json|->',
  '       admin webhooks add <projectId> <url> [--events a,b] | webhooks list [projectId] | webhooks remove <id>',
].join('\n');

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
  if (area === 'webhooks' && command) return runWebhooks(args.slice(1), env, now);
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

async function runWebhooks(args: readonly string[], env: NodeJS.ProcessEnv, now: number): Promise<unknown> {
  const [command, ...rest] = args;
  const eventsAt = rest.indexOf('--events');
  const eventList = eventsAt >= 0 ? rest[eventsAt + 1] : undefined;
  if (eventsAt >= 0 && eventList === undefined) throw new UsageError('--events needs a comma-separated list of event types');
  const [first, second, extra] = eventsAt >= 0 ? [...rest.slice(0, eventsAt), ...rest.slice(eventsAt + 2)] : rest;
  if (command === 'add' && (!first || !second || extra)) throw new UsageError(USAGE);
  if (command === 'remove' && (!first || second)) throw new UsageError(USAGE);
  if (command === 'list' && second) throw new UsageError(USAGE);
  if (!['add', 'list', 'remove'].includes(command ?? '')) throw new UsageError(USAGE);
  const production = isProduction(env, []);
  if (command === 'add' && production && !env.KEY_ENCRYPTION_SECRET) {
    throw new UsageError('KEY_ENCRYPTION_SECRET is needed to seal the signing secret: run the command with the environment of the server');
  }
  const events = eventList === undefined ? null : parseEventTypes(eventList);
  const store = await Store.open(databaseFromEnv(env));
  try {
    switch (command) {
      case 'add': {
        const rules = { production, allowPrivateNetworks: webhookSettingsFromEnv(env).allowPrivateNetworks ?? false };
        const keys = new KeyStore(store, env.KEY_ENCRYPTION_SECRET || undefined);
        return await addWebhookEndpoint(store, keys, { projectId: projectId(first), url: second!, events, rules }, now);
      }
      case 'list':
        return (await store.webhookEndpoints.summaries(first === undefined ? undefined : projectId(first))).map((e) => ({
          ...e,
          events: e.events ?? 'every event',
          createdAt: new Date(e.createdAt).toISOString(),
        }));
      default:
        if (!(await store.webhookEndpoints.remove(first!))) throw new UsageError(`there is no webhook endpoint ${first}`);
        return { removed: first };
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
