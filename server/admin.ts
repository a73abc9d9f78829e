// `npm run admin -- <command>`: manages projects in the database the server uses (DATABASE_URL or
// DATABASE_PATH), for production, where /_dev/projects does not exist. Runs the migrations first, so
// it also prepares a fresh database. Prints JSON; exits 1 with the reason on bad input.
//
//   projects list                       every project: id, app name, origins, where it came from
//   projects show <id>                  one project's full configuration
//   projects create <file.json | ->     a new project from a (partial) configuration; prints its id
//   projects update <id> <file.json | -> replaces a project's configuration (the same keys as create)
//
// `socialClients` in the file sets the project's own OAuth client per provider:
//   "socialClients": { "google": { "clientId": "…", "clientSecret": "…" }, "github": null }
// The secret is stored sealed under KEY_ENCRYPTION_SECRET (required for it) and never printed; null
// removes a provider's client (the server-wide one serves again); a provider left out keeps its client.
import { readFileSync } from 'node:fs';
import { ApiError } from './ApiError.ts';
import { PROJECT_ID_PATTERN, projectBuilder, resolveProjectConfig, SOCIAL_PROVIDERS, type ProjectConfig, type SocialProvider } from './config/projectConfig.ts';
import { obj, str, type Issue } from './schema.ts';
import { KeyStore } from './session/KeyStore.ts';
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

type ClientChanges = Partial<Record<SocialProvider, { clientId: string; clientSecret: string } | null>>;

const clientSchema = obj({ clientId: str({ min: 1, max: 500 }), clientSecret: str({ min: 1, max: 2000 }) });

/** The configuration without `socialClients`, and the client changes it asks for (checked, 400 otherwise). */
function splitClients(input: unknown): { config: unknown; clients: ClientChanges } {
  if (typeof input !== 'object' || input === null || !('socialClients' in input)) return { config: input, clients: {} };
  const { socialClients, ...config } = input as { socialClients: unknown };
  const issues: Issue[] = [];
  const clients: ClientChanges = {};
  if (typeof socialClients !== 'object' || socialClients === null || Array.isArray(socialClients)) {
    issues.push({ field: 'socialClients', message: 'must be an object keyed by provider' });
  } else {
    for (const [provider, value] of Object.entries(socialClients)) {
      if (!(SOCIAL_PROVIDERS as readonly string[]).includes(provider)) issues.push({ field: `socialClients.${provider}`, message: `is not one of ${SOCIAL_PROVIDERS.join(', ')}` });
      else clients[provider as SocialProvider] = value === null ? null : clientSchema(value, `socialClients.${provider}`, issues);
    }
  }
  if (issues.length > 0) throw ApiError.invalidRequest('The project configuration is invalid', issues);
  return { config, clients };
}

/** Stores the client changes of one project, each secret sealed; in the caller's transaction. */
async function applyClients(store: Store, keys: KeyStore | undefined, projectId: string, clients: ClientChanges, now: number): Promise<void> {
  for (const [provider, client] of Object.entries(clients) as [SocialProvider, ClientChanges[SocialProvider]][]) {
    if (client === null) await store.oauthClients.remove(projectId, provider);
    else if (client) await store.oauthClients.put({ projectId, provider, clientId: client.clientId, sealedSecret: keys!.seal(client.clientSecret), updatedAt: now });
  }
}

/** A project's configuration as shown: its own OAuth clients by id only, never a secret. (Awaited before the store closes.) */
async function shown(store: Store, config: ProjectConfig): Promise<unknown> {
  const clients = await store.oauthClients.list(config.id);
  if (clients.length === 0) return config;
  return { ...config, socialClients: Object.fromEntries(clients.map((c) => [c.provider, { clientId: c.clientId, hasClientSecret: true }])) };
}

export async function runAdmin(args: readonly string[], env: NodeJS.ProcessEnv, now = Date.now()): Promise<unknown> {
  const [area, command, first, second] = args;
  if (area !== 'projects' || !command) throw new UsageError(USAGE);
  const store = await Store.open(databaseFromEnv(env));
  /** The sealing of client secrets: required wherever one is to be stored (never in the clear). */
  const keysFor = (clients: ClientChanges): KeyStore | undefined => {
    if (!Object.values(clients).some(Boolean)) return undefined;
    if (!env.KEY_ENCRYPTION_SECRET) throw new UsageError('socialClients: a client secret is stored only sealed; set KEY_ENCRYPTION_SECRET, the one the server runs with');
    return new KeyStore(store, env.KEY_ENCRYPTION_SECRET);
  };
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
        return await shown(store, config);
      }
      case 'create': {
        const input = readConfig(first);
        if (typeof input === 'object' && input !== null && 'id' in input) throw new UsageError('the id is chosen by the server: leave it out');
        const { config: partial, clients } = splitClients(input);
        const build = projectBuilder(partial, undefined);
        const keys = keysFor(clients);
        const config = await store.transaction(async () => {
          const created = await store.projects.create(build, now);
          await applyClients(store, keys, created.id, clients, now);
          return created;
        });
        return { id: config.id };
      }
      case 'update': {
        const id = projectId(first);
        const { config: partial, clients } = splitClients(readConfig(second));
        const config = resolveProjectConfig(id, partial, undefined);
        const keys = keysFor(clients);
        const updated = await store.transaction(async () => {
          if (!(await store.projects.update(config, now))) return false;
          await applyClients(store, keys, id, clients, now);
          return true;
        });
        if (!updated) throw new UsageError(`there is no project ${id}`);
        return await shown(store, config);
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

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.info(JSON.stringify(await runAdmin(process.argv.slice(2), process.env), null, 2));
  } catch (error) {
    console.error(adminErrorMessage(error));
    process.exit(1);
  }
}
