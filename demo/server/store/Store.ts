// The storage layer: one object holding every repository over one SQLite connection.
import { CredentialsRepo } from './CredentialsRepo.ts';
import { KeysRepo } from './KeysRepo.ts';
import { OAuthStatesRepo } from './OAuthStatesRepo.ts';
import { openDatabase, type Db } from './openDatabase.ts';
import { OutboxRepo } from './OutboxRepo.ts';
import { ProcessesRepo } from './ProcessesRepo.ts';
import { ProjectsRepo } from './ProjectsRepo.ts';
import { SessionsRepo } from './SessionsRepo.ts';
import { SocialAccountsRepo } from './SocialAccountsRepo.ts';
import { UsersRepo } from './UsersRepo.ts';
import { VerificationSecretsRepo } from './VerificationSecretsRepo.ts';

export class Store {
  readonly projects: ProjectsRepo;
  readonly processes: ProcessesRepo;
  readonly users: UsersRepo;
  readonly credentials: CredentialsRepo;
  readonly secrets: VerificationSecretsRepo;
  readonly sessions: SessionsRepo;
  readonly keys: KeysRepo;
  readonly outbox: OutboxRepo;
  readonly socialAccounts: SocialAccountsRepo;
  readonly oauthStates: OAuthStatesRepo;

  private constructor(private readonly db: Db) {
    this.projects = new ProjectsRepo(db);
    this.processes = new ProcessesRepo(db);
    this.users = new UsersRepo(db);
    this.credentials = new CredentialsRepo(db);
    this.secrets = new VerificationSecretsRepo(db);
    this.sessions = new SessionsRepo(db);
    this.keys = new KeysRepo(db);
    this.outbox = new OutboxRepo(db);
    this.socialAccounts = new SocialAccountsRepo(db);
    this.oauthStates = new OAuthStatesRepo(db);
  }

  static open(path: string): Store {
    return new Store(openDatabase(path));
  }

  /** Runs `fn` in one SQLite transaction (synchronous; nested calls become savepoints). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
