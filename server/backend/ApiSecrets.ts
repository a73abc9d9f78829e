// The Backend API's secrets: made by the admin command (or `npm start` in development), shown once,
// kept as a SHA-256 hash, checked on every call. A call names its project and secret with HTTP Basic
// (user: the project id, password: the secret), as Corbado's Backend API and its SDKs do.
import { ApiError } from '../ApiError.ts';
import { PROJECT_ID_PATTERN, type ProjectConfig } from '../config/projectConfig.ts';
import { newId, newSecretToken, sha256Hex } from '../randomValues.ts';
import type { ApiSecretRecord } from '../store/ApiSecretsRepo.ts';
import type { Store } from '../store/Store.ts';

/** Corbado's SDKs refuse a secret that does not start so (`Config.validateAPISecret`). */
export const API_SECRET_PREFIX = 'corbado1_';

export interface NewApiSecret {
  id: string;
  projectId: string;
  /** the secret itself: shown this once, never stored */
  secret: string;
  createdAt: number;
}

/** A new secret for a project (which must exist); only its hash is stored. */
export async function createApiSecret(store: Store, projectId: string, label: string, now: number): Promise<NewApiSecret> {
  if (!(await store.projects.get(projectId))) throw ApiError.notFound(`There is no project ${projectId}`);
  const secret = `${API_SECRET_PREFIX}${newSecretToken()}`;
  const id = newId('sec');
  await store.apiSecrets.insert({ id, projectId, secretHash: sha256Hex(secret), hint: secret.slice(-4), label, createdAt: now });
  return { id, projectId, secret, createdAt: now };
}

export interface Authenticated {
  project: ProjectConfig;
  secret: ApiSecretRecord;
}

function refused(details: string): ApiError {
  return new ApiError(401, 'unauthorized', 'Unauthorized', details);
}

/**
 * The project and live secret an `Authorization: Basic` header names. Refused (401) without one, with a
 * revoked or unknown secret, or with a secret of another project than the one named. A stated
 * `X-Corbado-ProjectID` must name the same project.
 */
export async function authenticate(store: Store, authorization: string | undefined, projectHeader: string | undefined): Promise<Authenticated> {
  const encoded = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '')?.[1];
  if (!encoded) throw refused('HTTP Basic authentication with the project id and an API secret is required');
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const projectId = colon < 0 ? '' : decoded.slice(0, colon);
  const secret = colon < 0 ? '' : decoded.slice(colon + 1);
  if (!PROJECT_ID_PATTERN.test(projectId) || !secret.startsWith(API_SECRET_PREFIX) || secret.length > 200) {
    throw refused('The user name must be the project id and the password an API secret');
  }
  if (projectHeader !== undefined && projectHeader.trim() !== projectId) throw refused('X-Corbado-ProjectID names another project than the credentials');
  const record = await store.apiSecrets.findLive(sha256Hex(secret));
  // the same answer for an unknown, a revoked and another project's secret: none of them says more
  if (!record || record.projectId !== projectId) throw refused('The project id and API secret do not match a live secret');
  const project = await store.projects.get(projectId);
  if (!project) throw refused('The project id and API secret do not match a live secret');
  return { project, secret: record };
}
