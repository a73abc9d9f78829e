// Reads projects.json and resolves each entry. The file is either an array of configurations (each
// with its `id`), or `{ "defaults": {…}, "projects": [ … ] }`, where the defaults apply to every
// project (each project's own keys win; `limits` merge per limit).
import { readFileSync } from 'node:fs';
import { ApiError } from '../ApiError.ts';
import { PROJECT_ID_PATTERN, resolveProjectConfig, type ProjectConfig } from './projectConfig.ts';

export const DEFAULT_SEED_FILE = new URL('../projects.json', import.meta.url);

type Entry = Record<string, unknown>;

export function loadSeedProjects(file: string | URL, demoOrigin: string): ProjectConfig[] {
  const content = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const { defaults, projects } = Array.isArray(content)
    ? { defaults: {}, projects: content }
    : ((content ?? {}) as { defaults?: Entry; projects?: unknown });
  if (!Array.isArray(projects)) throw new Error(`${String(file)}: expected an array of projects, or { "defaults", "projects": [...] }`);
  return projects.map((entry: unknown, index) => {
    const { id, ...rest } = (entry ?? {}) as Entry;
    if (typeof id !== 'string' || !PROJECT_ID_PATTERN.test(id)) throw new Error(`${String(file)}[${index}]: id must look like pro-123`);
    try {
      return resolveProjectConfig(id, withDefaults(defaults ?? {}, rest), demoOrigin);
    } catch (error) {
      if (error instanceof ApiError) {
        const problems = (error.validation ?? []).map((v) => `${v.field} ${v.message}`).join('; ');
        throw new Error(`${String(file)}: project ${id} is invalid: ${problems}`, { cause: error });
      }
      throw error;
    }
  });
}

function withDefaults(defaults: Entry, project: Entry): Entry {
  const limits = { ...(defaults.limits as Entry | undefined), ...(project.limits as Entry | undefined) };
  return { ...defaults, ...project, ...(Object.keys(limits).length ? { limits } : {}) };
}
