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
//   webhooks disable|enable <id>        stops sending to an endpoint (what waits is held) or starts again
//   keys rotate <id> [--now]             a new signing key for the project (signing after 15 minutes, or at once)
//   keys rotate <id> --revoke-previous   a key that leaked: the new key signs at once, the old ones leave the JWKS now
//                                        and every live session of the project ends
//   api-secret create <projectId>       a new Backend API secret, printed this once (only its hash is kept)
//   api-secret list <projectId>         the project's secrets: id, last four characters, made, revoked
//   api-secret revoke <id>              revokes a secret at once (every instance on the database)
//   users import <projectId> <file.jsonl | ->  brings existing users (README: "Bringing your existing users")
//   audit verify <projectId>            whether the project's audit trail is whole; names the first broken record
//   audit list|export <projectId> [--since t] [--until t] [--user id] [--event name] [--format jsonl|csv]
//                                       the trail's records, streamed (JSON lines; export also as CSV)
//   audit trim <projectId>              deletes the records older than the project's auditRetentionDays
//   stats <projectId> [--days 30] [--json]  sign-ups, log-ins, the passkey funnel and adoption, as a table
//   operators add <email> --role owner|admin|support [--project pro-N …]   a person who may use the console
//   operators list | operators role <email|id> <role> [--project pro-N …] | operators remove <email|id>
//
// Every change the command makes is recorded in the project's audit trail with `admin` as the actor.
//
// `socialClients` in a project's file sets the project's own OAuth client per provider:
//   "socialClients": { "google": { "clientId": "…", "clientSecret": "…" }, "github": null }
// The secret is stored sealed under KEY_ENCRYPTION_SECRET (required for it) and never printed; null
// removes a provider's client (the server-wide one serves again); a provider left out keeps its client.
import { createReadStream, existsSync, readFileSync, realpathSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ApiError } from './ApiError.ts';
import { AuditTrail, withAuditScope } from './audit/AuditTrail.ts';
import { applyRetention, exportRecords, projectStats, statsTable, verifyChain, type Sink } from './audit/auditReader.ts';
import { issueApiSecret, registerWebhookEndpoint, removeWebhookEndpoint, revokeApiSecret, rotateSigningKey, setWebhookEndpointEnabled, updateProject } from './config/projectChanges.ts';
import { Operators } from './console/operators.ts';
import { importProject, importUsers } from './backend/UserImport.ts';
import { PROJECT_ID_PATTERN, projectBuilder, SOCIAL_PROVIDERS, type ProjectConfig, type SocialProvider } from './config/projectConfig.ts';
import { parseEventTypes } from './events/eventTypes.ts';
import { writingOnly } from './events/WebhookEvents.ts';
import { obj, str, type Issue } from './schema.ts';
import { KeyRing } from './session/KeyRing.ts';
import { KeyStore } from './session/KeyStore.ts';
import { consoleOriginFromEnv, databaseFromEnv, isProduction, webhookSettingsFromEnv } from './settings.ts';
import { Store } from './store/Store.ts';

const USAGE = [
  'usage: admin projects list | projects show <id> | projects create <file.json|-> | projects update <id> <file.json|-> | keys rotate <id> [--now | --revoke-previous]',
  '       admin api-secret create <projectId> | api-secret list <projectId> | api-secret revoke <secretId>',
  '       admin users import <projectId> <file.jsonl|->',
  '       admin webhooks add <projectId> <url> [--events a,b] | webhooks list [projectId] | webhooks remove <id> | webhooks disable|enable <id>',
  '       admin audit verify <projectId> | audit trim <projectId>',
  '       admin audit list|export <projectId> [--since t] [--until t] [--user id] [--event name] [--format jsonl|csv]',
  '       admin stats <projectId> [--days 30] [--json]',
  '       admin operators add <email> --role owner|admin|support [--project pro-N …] | operators list',
  '       admin operators role <email|id> <role> [--project pro-N …] | operators remove <email|id>',
].join('\n');

/** Where the admin command reports what is not its answer: the import's progress line and failed lines. */
export interface AdminOutput {
  progress(line: string): void;
  warn(line: string): void;
  /** where `audit list | export` stream their records (standard output) */
  write?: Sink;
}

const NO_OUTPUT: AdminOutput = { progress: () => {}, warn: () => {} };

/** Every change the admin command makes is done as `admin` in the audit trail. */
export function runAdmin(args: readonly string[], env: NodeJS.ProcessEnv, now = Date.now(), output: AdminOutput = NO_OUTPUT): Promise<unknown> {
  return withAuditScope({ actor: 'admin' }, () => runCommand(args, env, now, output));
}

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

async function runCommand(args: readonly string[], env: NodeJS.ProcessEnv, now: number, output: AdminOutput): Promise<unknown> {
  const [area, command, first, second] = args;
  if (area === 'webhooks' && command) return runWebhooks(args.slice(1), env, now);
  if (area === 'audit' || area === 'stats') return auditCommand(args, env, now, output);
  if (area === 'operators') return operatorsCommand(args.slice(1), env, now);
  if (!['projects', 'keys', 'api-secret', 'users'].includes(area ?? '') || !command) throw new UsageError(USAGE);
  const store = await Store.open(databaseFromEnv(env));
  const trail = new AuditTrail(store, () => now);
  /** The sealing of client secrets: required wherever one is to be stored (never in the clear). */
  const keysFor = (clients: ClientChanges): KeyStore | undefined => {
    if (!Object.values(clients).some(Boolean)) return undefined;
    if (!env.KEY_ENCRYPTION_SECRET) throw new UsageError('socialClients: a client secret is stored only sealed; set KEY_ENCRYPTION_SECRET, the one the server runs with');
    return new KeyStore(store, env.KEY_ENCRYPTION_SECRET);
  };
  try {
    if (area === 'api-secret') return await apiSecretCommand(store, trail, command, first, now);
    if (area === 'users') return await usersCommand(store, trail, env, { command, first, source: second }, output);
    if (area === 'keys') {
      const flag = second;
      if (command !== 'rotate' || (flag !== undefined && flag !== '--now' && flag !== '--revoke-previous') || args.length > 4) throw new UsageError(USAGE);
      const id = projectId(first);
      const config = await store.projects.get(id);
      if (!config) throw new UsageError(`there is no project ${id}`);
      // sealed under the secret the server uses: KEY_ENCRYPTION_SECRET
      const sealer = new KeyStore(store, env.KEY_ENCRYPTION_SECRET || undefined);
      await sealer.secret('verification-hmac', now); // stops here when the secret is missing or not the server's
      const revoke = flag === '--revoke-previous'
        ? { store, now, events: writingOnly(store, sealer, trail, () => now, webhookSettingsFromEnv(env).giveUpMs) }
        : undefined;
      return await rotateSigningKey(new KeyRing(store, sealer, () => now), trail, config, { ...(flag === '--now' ? { leadMs: 0 } : {}), ...(revoke ? { revoke } : {}) });
    }
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
          await trail.record(created.id, { event: 'project.created', target: `project:${created.id}` });
          return created;
        });
        return { id: config.id };
      }
      case 'update': {
        const id = projectId(first);
        const { config: partial, clients } = splitClients(readConfig(second));
        const keys = keysFor(clients);
        const changed = Object.keys(clients).map((p) => `socialClients.${p}`);
        const config = await updateProject(store, trail, id, partial, now, { changed, apply: () => applyClients(store, keys, id, clients, now) });
        if (!config) throw new UsageError(`there is no project ${id}`);
        return await shown(store, config);
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
  if (['remove', 'disable', 'enable'].includes(command ?? '') && (!first || second)) throw new UsageError(USAGE);
  if (command === 'list' && second) throw new UsageError(USAGE);
  if (!['add', 'list', 'remove', 'disable', 'enable'].includes(command ?? '')) throw new UsageError(USAGE);
  const production = isProduction(env, []);
  if (command === 'add' && production && !env.KEY_ENCRYPTION_SECRET) {
    throw new UsageError('KEY_ENCRYPTION_SECRET is needed to seal the signing secret: run the command with the environment of the server');
  }
  const events = eventList === undefined ? null : parseEventTypes(eventList);
  const store = await Store.open(databaseFromEnv(env));
  const trail = new AuditTrail(store, () => now);
  try {
    switch (command) {
      case 'add': {
        const rules = { production, allowPrivateNetworks: webhookSettingsFromEnv(env).allowPrivateNetworks ?? false };
        const keys = new KeyStore(store, env.KEY_ENCRYPTION_SECRET || undefined);
        return await registerWebhookEndpoint(store, keys, trail, { projectId: projectId(first), url: second!, events, rules }, now);
      }
      case 'list':
        return (await store.webhookEndpoints.summaries(first === undefined ? undefined : projectId(first))).map((e) => ({
          ...e,
          events: e.events ?? 'every event',
          createdAt: new Date(e.createdAt).toISOString(),
          disabledAt: e.disabledAt === null ? null : new Date(e.disabledAt).toISOString(),
        }));
      case 'disable':
      case 'enable': {
        const endpoint = await setWebhookEndpointEnabled(store, trail, first!, undefined, command === 'enable', now);
        if (!endpoint) throw new UsageError(`there is no webhook endpoint ${first}`);
        return { id: endpoint.id, enabled: endpoint.disabledAt === null };
      }
      default: {
        if (!(await removeWebhookEndpoint(store, trail, first!, undefined))) throw new UsageError(`there is no webhook endpoint ${first}`);
        return { removed: first };
      }
    }
  } finally {
    await store.close();
  }
}

async function apiSecretCommand(store: Store, trail: AuditTrail, command: string, first: string | undefined, now: number): Promise<unknown> {
  switch (command) {
    case 'create': {
      const created = await issueApiSecret(store, trail, projectId(first), 'admin', now);
      return { ...created, createdAt: new Date(created.createdAt).toISOString(), note: 'Shown this once: only a hash of the secret is kept.' };
    }
    case 'list':
      return (await store.apiSecrets.listByProject(projectId(first))).map((s) => ({
        id: s.id,
        endsWith: s.hint,
        label: s.label,
        createdAt: new Date(s.createdAt).toISOString(),
        revokedAt: s.revokedAt === null ? null : new Date(s.revokedAt).toISOString(),
      }));
    case 'revoke': {
      if (!first || !/^sec-\d+$/.test(first)) throw new UsageError(`a secret id like sec-4821… is needed, got ${first ?? 'nothing'}`);
      if (!(await revokeApiSecret(store, trail, first, undefined, now))) throw new UsageError(`there is no live secret ${first}`);
      return { id: first, revoked: true };
    }
    default:
      throw new UsageError(USAGE);
  }
}

async function usersCommand(store: Store, trail: AuditTrail, env: NodeJS.ProcessEnv, args: { command: string; first?: string; source?: string }, output: AdminOutput): Promise<unknown> {
  const { command, first, source } = args;
  if (command !== 'import' || !source) throw new UsageError(USAGE);
  const project = await importProject(store, projectId(first));
  // the import's webhook events are sealed as the server seals them: under its KEY_ENCRYPTION_SECRET
  const keys = new KeyStore(store, env.KEY_ENCRYPTION_SECRET || undefined);
  if ((await store.webhookEndpoints.summaries(project.id)).length > 0) await keys.secret('verification-hmac', Date.now()); // stops when the secret is missing or not the server's
  const started = performance.now();
  const rate = (lines: number) => Math.round(lines / Math.max(0.001, (performance.now() - started) / 1000));
  if (source !== '-' && !existsSync(source)) throw new UsageError(`there is no file ${source}`);
  const input = source === '-' ? process.stdin : createReadStream(source, 'utf8');
  const n = (count: number) => count.toLocaleString('en');
  const result = await importUsers(store, project, createInterface({ input, crlfDelay: Infinity }), {
    now: Date.now,
    events: writingOnly(store, keys, trail, Date.now, webhookSettingsFromEnv(env).giveUpMs),
    onProgress: (p) =>
      output.progress(`${n(p.lines)} lines: ${n(p.created)} created, ${n(p.updated)} updated, ${n(p.unchanged)} unchanged, ${n(p.refused)} refused (${n(rate(p.lines))} lines/s)`),
    onFailure: (f) => output.warn(`line ${f.line}: ${f.reason}`),
  });
  await trail.record(project.id, { event: 'import.run', details: { lines: result.lines, created: result.created, updated: result.updated, unchanged: result.unchanged, refused: result.refused } });
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  return { project: project.id, ...result, seconds, linesPerSecond: rate(result.lines) };
}

/** The options of a command (`--name value`), and the words left. Throws on an option it does not take. */
function options(args: readonly string[], allowed: readonly string[]): { words: string[]; given: Map<string, string> } {
  const words: string[] = [];
  const given = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const name = arg.slice(2);
    if (!allowed.includes(name)) throw new UsageError(`unknown option ${arg}\n${USAGE}`);
    if (name === 'json') given.set(name, 'true');
    else {
      const value = args[++i];
      if (value === undefined) throw new UsageError(`${arg} needs a value`);
      given.set(name, value);
    }
  }
  return { words, given };
}

/** A time given to --since / --until: RFC 3339 or a date (YYYY-MM-DD, UTC). */
function timeOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value) : NaN;
  if (Number.isNaN(ms)) throw new UsageError(`--${name} takes a date (2026-01-31) or an RFC 3339 time, got ${value}`);
  return ms;
}

/** `audit verify | list | export | trim` and `stats`. */
async function auditCommand(args: readonly string[], env: NodeJS.ProcessEnv, now: number, output: AdminOutput): Promise<unknown> {
  const stats = args[0] === 'stats';
  const { words, given } = options(args.slice(stats ? 1 : 2), stats ? ['days', 'json'] : ['since', 'until', 'user', 'event', 'format']);
  const command = stats ? 'stats' : args[1];
  if (!['verify', 'list', 'export', 'trim', 'stats'].includes(command ?? '') || words.length !== 1) throw new UsageError(USAGE);
  const id = projectId(words[0]);
  const format = given.get('format') ?? 'jsonl';
  if (format !== 'jsonl' && format !== 'csv') throw new UsageError(`--format is jsonl or csv, got ${format}`);
  const days = Number(given.get('days') ?? 30);
  if (!Number.isInteger(days) || days < 1 || days > 3660) throw new UsageError(`--days takes a whole number from 1 to 3660, got ${given.get('days')}`);
  const store = await Store.open(databaseFromEnv(env));
  try {
    const project = await store.projects.get(id);
    if (!project) throw new UsageError(`there is no project ${id}`);
    switch (command) {
      case 'verify':
        return await verifyChain(store, id);
      case 'trim':
        return { projectId: id, retentionDays: project.auditRetentionDays, deleted: await applyRetention(store, id, project.auditRetentionDays, now) };
      case 'stats': {
        const figures = await projectStats(store, id, days, now);
        return given.has('json') ? figures : statsTable(figures);
      }
      default: {
        const since = timeOption(given.get('since'), 'since');
        const until = timeOption(given.get('until'), 'until');
        const filter = {
          projectId: id,
          ...(since !== undefined ? { since } : {}),
          ...(until !== undefined ? { until } : {}),
          ...(given.has('user') ? { userId: given.get('user')! } : {}),
          ...(given.has('event') ? { event: given.get('event')! } : {}),
        };
        const sink = output.write ?? (() => {});
        await exportRecords(store, filter, format, sink);
        return undefined;
      }
    }
  } finally {
    await store.close();
  }
}

/** `operators add | list | role | remove`: the console's operators (console/operators.ts). */
async function operatorsCommand(args: readonly string[], env: NodeJS.ProcessEnv, now: number): Promise<unknown> {
  const [command, ...rest] = args;
  const words: string[] = [];
  const projects: string[] = [];
  let role: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--project') projects.push(projectId(rest[++i]));
    else if (arg === '--role') role = rest[++i];
    else if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}\n${USAGE}`);
    else words.push(arg);
  }
  const expected: Record<string, number> = { add: 1, list: 0, role: 2, remove: 1 };
  if (command === undefined || expected[command] !== words.length) throw new UsageError(USAGE);
  const store = await Store.open(databaseFromEnv(env));
  try {
    const trail = new AuditTrail(store, () => now);
    const events = writingOnly(store, new KeyStore(store, env.KEY_ENCRYPTION_SECRET || undefined), trail, () => now);
    const operators = new Operators({ store, events, now: () => now, consoleOrigin: consoleOriginFromEnv(env) });
    const named = async (key: string) => {
      const found = (await store.operators.get(key)) ?? (await store.operators.byEmail(key.trim().toLowerCase()));
      if (!found) throw new UsageError(`there is no operator ${key}`);
      return found.id;
    };
    switch (command) {
      case 'add':
        if (role === undefined) throw new UsageError('--role owner|admin|support is needed');
        return await operators.add({ email: words[0], role, projects });
      case 'list':
        return await operators.list();
      case 'role':
        return await operators.update(await named(words[0]!), { role: words[1], ...(projects.length > 0 ? { projects } : {}) });
      default:
        await operators.remove(await named(words[0]!));
        return { removed: words[0] };
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
    // the progress line rewrites itself on a terminal; elsewhere (a log) each one is a line of its own
    const output: AdminOutput = {
      progress: (line) => process.stderr.write(process.stderr.isTTY ? `\r${line}\x1b[K` : `${line}\n`),
      warn: (line) => process.stderr.write(process.stderr.isTTY ? `\r\x1b[K${line}\n` : `${line}\n`),
    };
    output.write = (chunk) => (process.stdout.write(chunk) ? undefined : new Promise<void>((resolve) => process.stdout.once('drain', () => resolve())));
    const result = await runAdmin(process.argv.slice(2), process.env, Date.now(), output);
    if (process.stderr.isTTY && process.argv[2] === 'users') process.stderr.write('\n');
    // a streamed listing has written itself; a table is printed as it is
    if (typeof result === 'string') process.stdout.write(result);
    else if (result !== undefined) console.info(JSON.stringify(result, null, 2));
    if (typeof result === 'object' && result !== null && 'whole' in result && result.whole === false) process.exitCode = 1;
    // an import that left lines out says so in its exit status too
    if (typeof result === 'object' && result !== null && 'failed' in result && (result as { failed: number }).failed > 0) process.exitCode = 1;
  } catch (error) {
    console.error(adminErrorMessage(error));
    process.exit(1);
  }
}
