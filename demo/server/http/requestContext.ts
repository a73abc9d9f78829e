// Resolving what a request refers to: its project (header), its process (header), its session
// (bearer or cookie), its body (JSON) and the public URL of this API.
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { PROJECT_ID_PATTERN, type ProjectConfig } from '../config/projectConfig.ts';
import type { FlowCall } from '../flow/FlowEngine.ts';
import { sha256Hex } from '../randomValues.ts';
import { LONG_SESSION_COOKIE, type Sessions } from '../session/Sessions.ts';
import type { SessionRecord } from '../store/SessionsRepo.ts';
import type { Store } from '../store/Store.ts';
import type { AppEnv } from './AppEnv.ts';
import { ApiError } from './ApiError.ts';

const MAX_BODY_CHARS = 200_000;

export interface RequestResolver {
  project(c: Context<AppEnv>): ProjectConfig;
  flowCall(c: Context<AppEnv>): FlowCall;
  session(c: Context<AppEnv>): { project: ProjectConfig; session: SessionRecord };
  optionalSession(c: Context<AppEnv>): { project: ProjectConfig; session: SessionRecord | undefined };
  frontendApiUrl(c: Context<AppEnv>): string;
}

export function requestResolver(store: Store, sessions: Sessions, now: () => number, publicUrl?: string): RequestResolver {
  const resolver: RequestResolver = {
    project(c) {
      const id = c.req.header('x-corbado-projectid')?.trim();
      if (!id) throw new ApiError(400, 'project_id_missing', 'Bad request', 'The X-Corbado-ProjectID header is missing');
      const project = PROJECT_ID_PATTERN.test(id) ? store.projects.get(id) : undefined;
      if (!project) throw new ApiError(404, 'project_not_found', 'Not found', `Project ${id.slice(0, 40)} does not exist`);
      c.set('project', project);
      const origin = c.req.header('origin');
      if (origin !== undefined && !project.allowedOrigins.includes(origin)) {
        throw new ApiError(403, 'forbidden_origin', 'Forbidden', 'This origin is not allowed for the project');
      }
      return project;
    },

    flowCall(c) {
      const project = resolver.project(c);
      const token = c.req.header('x-corbado-process-id')?.trim();
      if (!token) throw ApiError.processNotAvailable('The X-Corbado-Process-ID header is missing');
      const process = store.processes.findByTokenHash(sha256Hex(token));
      if (!process || process.projectId !== project.id) throw ApiError.processNotAvailable('Unknown process');
      if (process.endedAt !== null || process.expiresAt <= now()) throw ApiError.processNotAvailable('The process has expired');
      return { project, process, processToken: token, frontendApiUrl: resolver.frontendApiUrl(c), userAgent: c.req.header('user-agent') };
    },

    optionalSession(c) {
      const project = resolver.project(c);
      const bearer = /^Bearer\s+(.*)$/i.exec(c.req.header('authorization') ?? '')?.[1]?.trim();
      const candidates = [bearer, getCookie(c, LONG_SESSION_COOKIE)].filter((t): t is string => !!t);
      for (const token of candidates) {
        const session = sessions.find(project, token, now());
        if (session) return { project, session };
      }
      return { project, session: undefined };
    },

    session(c) {
      const { project, session } = resolver.optionalSession(c);
      if (!session) throw ApiError.unauthorized();
      return { project, session };
    },

    frontendApiUrl(c) {
      return publicUrl ?? new URL(c.req.url).origin;
    },
  };
  return resolver;
}

/** The JSON body; an empty body counts as {} (body-less POSTs). */
export async function readJson(c: Context<AppEnv>): Promise<unknown> {
  const text = await c.req.text();
  if (text.length > MAX_BODY_CHARS) throw ApiError.invalidRequest('The request body is too large');
  if (!text.trim()) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw ApiError.invalidRequest('The request body is not valid JSON');
  }
}
