// Reads projects.json (an array of configurations with their `id`) and resolves each entry.
import { readFileSync } from 'node:fs';
import { ApiError } from '../http/ApiError.ts';
import { PROJECT_ID_PATTERN, resolveProjectConfig, type ProjectConfig } from './projectConfig.ts';

export const DEFAULT_SEED_FILE = new URL('../projects.json', import.meta.url);

export function loadSeedProjects(file: string | URL, demoOrigin: string): ProjectConfig[] {
  const entries = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(entries)) throw new Error(`${String(file)}: expected an array of projects`);
  return entries.map((entry: unknown, index) => {
    const { id, ...rest } = (entry ?? {}) as { id?: unknown };
    if (typeof id !== 'string' || !PROJECT_ID_PATTERN.test(id)) throw new Error(`${String(file)}[${index}]: id must look like pro-123`);
    try {
      return resolveProjectConfig(id, rest, demoOrigin);
    } catch (error) {
      if (error instanceof ApiError) {
        const problems = (error.validation ?? []).map((v) => `${v.field} ${v.message}`).join('; ');
        throw new Error(`${String(file)}: project ${id} is invalid: ${problems}`, { cause: error });
      }
      throw error;
    }
  });
}
