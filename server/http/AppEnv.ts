// Per-request values the middlewares and routes share through the Hono context.
import type { ProjectConfig } from '../config/projectConfig.ts';

export interface AppEnv {
  Variables: {
    requestId: string;
    startedAt: number;
    /** set once the X-Corbado-ProjectID header resolved to a project; CORS reads it */
    project: ProjectConfig | undefined;
  };
}
