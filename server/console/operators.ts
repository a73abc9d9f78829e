// The console's operators and its own project (server/console/README.md): the one place where an
// operator is added, changed or removed, for `npm run admin -- operators …` and the console's
// /api/operators alike. Each change is recorded in the console project's audit trail (the actor is the
// scope's: `admin` for the command, `operator:opr-…` for the console).
//
// An operator signs in to the console project (`pro-console`) through the widget, as a user of that
// project: adding an operator makes that user, with the address verified, so that the first sign-in is by
// an e-mail code (the widget then offers a passkey). Public sign-up is closed there: no other address gets in.
import { ApiError } from '../ApiError.ts';
import { BackendApi } from '../backend/BackendApi.ts';
import { resolveProjectConfig, type ProjectConfig } from '../config/projectConfig.ts';
import type { EventRecorder } from '../events/WebhookEvents.ts';
import { canonicalIdentifier } from '../flow/identifierRules.ts';
import { newId } from '../randomValues.ts';
import type { Issue } from '../schema.ts';
import { OPERATOR_ROLES, type OperatorRecord, type OperatorRole } from '../store/OperatorsRepo.ts';
import type { Store } from '../store/Store.ts';

export const CONSOLE_PROJECT_ID = 'pro-console';

/** What an operator is shown as (the console's answers, the admin command's output). */
export interface ShownOperator {
  id: string;
  email: string;
  role: OperatorRole;
  projects: string[];
  created: string;
}

export function shownOperator(o: OperatorRecord): ShownOperator {
  return { id: o.id, email: o.email, role: o.role, projects: o.role === 'owner' ? [] : o.projects, created: new Date(o.createdAt).toISOString() };
}

/**
 * Makes the console project if it is missing, and lets `origin` (the console listener's) embed its
 * widget. Passkey and e-mail code, public sign-up closed.
 */
export async function ensureConsoleProject(store: Store, origin: string, now: number): Promise<ProjectConfig> {
  return store.transaction(async () => {
    await store.db.lockKey('console-project');
    const existing = await store.projects.get(CONSOLE_PROJECT_ID);
    if (existing) {
      if (existing.allowedOrigins.includes(origin)) return existing;
      const updated = { ...existing, allowedOrigins: [...existing.allowedOrigins, origin].slice(-20) };
      await store.projects.update(updated, now);
      return updated;
    }
    const config = resolveProjectConfig(
      CONSOLE_PROJECT_ID,
      {
        appName: 'Console',
        allowedOrigins: [origin],
        rpId: new URL(origin).hostname,
        identifiers: { email: { enabled: true, required: true, verification: 'email-otp', loginIdentifier: true } },
        publicSignup: false,
        passkeys: true,
        passkeyAppend: 'after-verification',
        environment: 'prod',
      },
      undefined,
    );
    await store.projects.insert(config, now);
    return config;
  });
}

function invalid(issues: Issue[]): void {
  if (issues.length > 0) throw ApiError.invalidRequest('The operator is invalid', issues);
}

export interface OperatorInput {
  email?: unknown;
  role?: unknown;
  projects?: unknown;
}

export class Operators {
  constructor(private readonly deps: { store: Store; events: EventRecorder; now: () => number; consoleOrigin: string }) {}

  private get store(): Store {
    return this.deps.store;
  }

  async list(): Promise<ShownOperator[]> {
    return (await this.store.operators.list()).map(shownOperator);
  }

  /** The role and, for admin and support, the projects (each must exist; not the console's own). */
  private async checked(input: OperatorInput, issues: Issue[], current?: OperatorRecord): Promise<{ role: OperatorRole; projects: string[] }> {
    const role = (input.role ?? current?.role) as OperatorRole;
    if (!OPERATOR_ROLES.includes(role)) issues.push({ field: 'role', message: `must be one of ${OPERATOR_ROLES.join(', ')}` });
    const given = input.projects ?? current?.projects ?? [];
    const projects: string[] = [];
    if (!Array.isArray(given) || given.some((p) => typeof p !== 'string')) issues.push({ field: 'projects', message: 'must be a list of project ids' });
    else {
      for (const id of new Set(given as string[])) {
        if (id === CONSOLE_PROJECT_ID || !(await this.store.projects.get(id))) issues.push({ field: 'projects', message: `there is no project ${id.slice(0, 40)}` });
        else projects.push(id);
      }
    }
    if (role !== 'owner' && OPERATOR_ROLES.includes(role) && projects.length === 0 && !issues.some((i) => i.field === 'projects')) {
      issues.push({ field: 'projects', message: `an ${role} operator needs at least one project (--project pro-N)` });
    }
    return { role, projects: role === 'owner' ? [] : projects };
  }

  async add(input: OperatorInput): Promise<ShownOperator> {
    const issues: Issue[] = [];
    const canonical = typeof input.email === 'string' ? canonicalIdentifier('email', input.email) : undefined;
    if (!canonical) issues.push({ field: 'email', message: 'must be an e-mail address' });
    const email = canonical?.toLowerCase() ?? '';
    const { role, projects } = await this.checked(input, issues);
    invalid(issues);
    const now = this.deps.now();
    // made here when no console has started yet (the admin command on a new database)
    const project = (await this.store.projects.get(CONSOLE_PROJECT_ID)) ?? (await ensureConsoleProject(this.store, this.deps.consoleOrigin, now));
    return this.store.transaction(async () => {
      if (await this.store.operators.byEmail(email)) throw ApiError.invalidRequest('The operator is invalid', [{ field: 'email', message: 'is an operator already' }]);
      const operator: OperatorRecord = { id: newId('opr'), email, role, projects, createdAt: now, updatedAt: now };
      await this.store.operators.insert(operator);
      // the console project's user for the address, verified: the first sign-in is by an e-mail code
      if (!(await this.store.users.findVerifiedIdentifier(CONSOLE_PROJECT_ID, 'email', email))) {
        const users = new BackendApi({ store: this.store, now: this.deps.now, events: this.deps.events });
        const user = await users.createUser(project, { fullName: email.split('@')[0], status: 'active' });
        await users.createIdentifier(project, user.userID, { identifierType: 'email', identifierValue: email, status: 'primary' });
      }
      await this.deps.events.audit(CONSOLE_PROJECT_ID, { event: 'operator.added', target: `operator:${operator.id}`, details: { role, projects: projects.join(',') } });
      return shownOperator(operator);
    });
  }

  private async existing(id: string): Promise<OperatorRecord> {
    const operator = await this.store.operators.get(id);
    if (!operator) throw ApiError.notFound(`There is no operator ${id.slice(0, 40)}`);
    return operator;
  }

  /** Refuses a change that would leave the console without an owner. */
  private async keepAnOwner(operator: OperatorRecord): Promise<void> {
    if (operator.role !== 'owner') return;
    const owners = (await this.store.operators.list()).filter((o) => o.role === 'owner');
    if (owners.length <= 1) throw ApiError.invalidRequest('The operator is invalid', [{ field: 'role', message: 'the last owner stays an owner: make another owner first' }]);
  }

  async update(id: string, input: OperatorInput): Promise<ShownOperator> {
    return this.store.transaction(async () => {
      await this.store.db.lockKey('operators');
      const operator = await this.existing(id);
      const issues: Issue[] = [];
      const { role, projects } = await this.checked({ role: input.role, projects: input.projects }, issues, operator);
      invalid(issues);
      if (role !== 'owner') await this.keepAnOwner(operator);
      await this.store.operators.update(id, role, projects, this.deps.now());
      await this.deps.events.audit(CONSOLE_PROJECT_ID, { event: 'operator.changed', target: `operator:${id}`, details: { role, projects: projects.join(',') } });
      return shownOperator((await this.store.operators.get(id))!);
    });
  }

  /** Removes the operator and the console project's user of the address (their sign-ins end with it). */
  async remove(id: string): Promise<void> {
    await this.store.transaction(async () => {
      await this.store.db.lockKey('operators');
      const operator = await this.existing(id);
      await this.keepAnOwner(operator);
      await this.store.operators.remove(id);
      const identifier = await this.store.users.findVerifiedIdentifier(CONSOLE_PROJECT_ID, 'email', operator.email);
      const project = await this.store.projects.get(CONSOLE_PROJECT_ID);
      if (identifier && project) await new BackendApi({ store: this.store, now: this.deps.now, events: this.deps.events }).deleteUser(project, identifier.userId);
      await this.deps.events.audit(CONSOLE_PROJECT_ID, { event: 'operator.removed', target: `operator:${id}` });
    });
  }
}
