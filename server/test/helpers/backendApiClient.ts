/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// The host's backend in tests: an API secret made as the admin command makes it, Corbado's own Node SDK
// configured for a test server, and a plain HTTP client for what the SDK has no method for.
import { Config, SDK } from '@corbado/node-sdk';
import { createApiSecret } from '../../backend/ApiSecrets.ts';
import type { ApiResponse, TestServer } from './testServer.ts';

/** A new API secret of a project on a running test server. */
export async function newSecret(server: TestServer, projectId: string): Promise<string> {
  return (await createApiSecret(server.api.store, projectId, 'test', Date.now())).secret;
}

/** Corbado's Node SDK, unmodified, pointed at the test server's Frontend API and Backend API. */
export function corbadoSdk(server: TestServer, projectId: string, secret: string): SDK {
  return new SDK(new Config(projectId, secret, server.url, server.api.backendApiUrl!));
}

export function basic(projectId: string, secret: string): string {
  return `Basic ${Buffer.from(`${projectId}:${secret}`).toString('base64')}`;
}

/** A Backend API call with HTTP Basic (or the headers given), answering status, JSON body and headers. */
export async function backendCall<T = any>(
  server: TestServer,
  credentials: { projectId: string; secret: string } | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse<T>> {
  const res = await fetch(server.api.backendApiUrl! + path, {
    method,
    headers: {
      ...(credentials ? { Authorization: basic(credentials.projectId, credentials.secret) } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}
