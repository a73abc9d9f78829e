// The storage layer: one object holding every repository over one database, SQLite or PostgreSQL.
// Nothing above it knows which engine runs below.
import { ApiSecretsRepo } from './ApiSecretsRepo.ts';
import { AuditRepo } from './AuditRepo.ts';
import { CredentialsRepo } from './CredentialsRepo.ts';
import type { Database } from './Database.ts';
import { DeliveriesRepo, WEBHOOK_DELIVERIES } from './DeliveriesRepo.ts';
import { KeysRepo } from './KeysRepo.ts';
import { OAuthStatesRepo } from './OAuthStatesRepo.ts';
import { openDatabase } from './openDatabase.ts';
import { OperatorsRepo } from './OperatorsRepo.ts';
import { OutboxRepo } from './OutboxRepo.ts';
import type { PostgresOptions } from './PostgresDatabase.ts';
import { ProcessesRepo } from './ProcessesRepo.ts';
import { ProjectOAuthClientsRepo } from './ProjectOAuthClientsRepo.ts';
import { ProjectsRepo } from './ProjectsRepo.ts';
import { RateLimitsRepo } from './RateLimitsRepo.ts';
import { SessionsRepo } from './SessionsRepo.ts';
import { SocialAccountsRepo } from './SocialAccountsRepo.ts';
import { UsersRepo } from './UsersRepo.ts';
import { IDENTIFIER_SECRETS, REAUTH_SECRETS, VerificationSecretsRepo } from './VerificationSecretsRepo.ts';
import { WebhookEndpointsRepo } from './WebhookEndpointsRepo.ts';

export class Store {
  readonly projects: ProjectsRepo;
  readonly processes: ProcessesRepo;
  readonly users: UsersRepo;
  readonly credentials: CredentialsRepo;
  readonly secrets: VerificationSecretsRepo;
  /** codes for identifiers a logged-in user adds to their account */
  readonly identifierSecrets: VerificationSecretsRepo;
  /** codes that re-authenticate a long session (recent log-in) */
  readonly reauthSecrets: VerificationSecretsRepo;
  readonly sessions: SessionsRepo;
  readonly keys: KeysRepo;
  /** the dev outbox: every message, kept for development */
  readonly outbox: OutboxRepo;
  /** messages waiting to be sent (SMTP, SMS) */
  readonly deliveries: DeliveriesRepo;
  /** where each project's events go */
  readonly webhookEndpoints: WebhookEndpointsRepo;
  /** webhook events waiting to be sent; `channel` is the endpoint's id */
  readonly webhookDeliveries: DeliveriesRepo<string>;
  readonly socialAccounts: SocialAccountsRepo;
  readonly oauthStates: OAuthStatesRepo;
  /** a project's own OAuth client per social provider */
  readonly oauthClients: ProjectOAuthClientsRepo;
  readonly rateLimits: RateLimitsRepo;
  /** the Backend API's secrets (hashes) */
  readonly apiSecrets: ApiSecretsRepo;
  /** the audit trail and its daily rollups */
  readonly audit: AuditRepo;
  /** the console's operators and their console sessions */
  readonly operators: OperatorsRepo;

  private readonly closing: (() => Promise<void>)[] = [];

  constructor(readonly db: Database) {
    this.projects = new ProjectsRepo(db);
    this.processes = new ProcessesRepo(db);
    this.users = new UsersRepo(db);
    this.credentials = new CredentialsRepo(db);
    this.secrets = new VerificationSecretsRepo(db);
    this.identifierSecrets = new VerificationSecretsRepo(db, IDENTIFIER_SECRETS);
    this.reauthSecrets = new VerificationSecretsRepo(db, REAUTH_SECRETS);
    this.sessions = new SessionsRepo(db);
    this.keys = new KeysRepo(db);
    this.outbox = new OutboxRepo(db);
    this.deliveries = new DeliveriesRepo(db);
    this.webhookEndpoints = new WebhookEndpointsRepo(db);
    this.webhookDeliveries = new DeliveriesRepo<string>(db, WEBHOOK_DELIVERIES);
    this.socialAccounts = new SocialAccountsRepo(db);
    this.oauthStates = new OAuthStatesRepo(db);
    this.oauthClients = new ProjectOAuthClientsRepo(db);
    this.rateLimits = new RateLimitsRepo(db);
    this.apiSecrets = new ApiSecretsRepo(db);
    this.audit = new AuditRepo(db);
    this.operators = new OperatorsRepo(db);
  }

  /** A SQLite file path, or a postgres:// URL. */
  static async open(location: string, options: PostgresOptions = {}): Promise<Store> {
    return new Store(await openDatabase(location, undefined, options));
  }

  /** Runs `fn` in one transaction; every repository call in it (at any depth) belongs to it. */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.db.transaction(fn);
  }

  /** Runs `fn` after the current transaction commits (deliveries that must not happen on rollback). */
  afterCommit(fn: () => void): void {
    this.db.afterCommit(fn);
  }

  /** The newest migration applied to the database (0 before any); a plain read, for readiness. */
  async schemaVersion(): Promise<number> {
    const row = await this.db.get<{ version: number | null }>('SELECT MAX(version) AS version FROM schema_migrations');
    return Number(row?.version ?? 0);
  }

  /** Runs `fn` when the store closes, before the database does (the audit trail's sealer seals what is left). */
  onClose(fn: () => Promise<void>): void {
    this.closing.push(fn);
  }

  async close(): Promise<void> {
    for (const fn of this.closing.splice(0)) await fn();
    return this.db.close();
  }
}
