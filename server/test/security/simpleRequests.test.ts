/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// A fresh visitor's first calls (GET /v2/session-config, POST /v2/auth/process/init) may come as CORS
// simple requests: the project in the `projectID` query parameter instead of the X-Corbado-ProjectID
// header, the JSON body as text/plain. A browser sends such a request from any page without asking the
// API first (no preflight), with the visitor's cookies: the Origin is what is left to tell who sent it.
// Each refused request here must leave no process, no cookie and no readable answer behind.
import { describe, expect, it } from 'vitest';
import { DEMO_ORIGIN, serverForThisFile } from '../helpers/testServer.ts';

const server = serverForThisFile();

const EVIL = 'https://evil.example';
const INIT_BODY = JSON.stringify({ clientInformation: { isConditionalMediationAvailable: true } });

/** What a page's fetch() sends for a simple request: no custom header, Origin as the browser sets it. */
function simple(method: 'GET' | 'POST', path: string, headers: Record<string, string> = {}, body?: string) {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'Content-Type': 'text/plain;charset=UTF-8' } : {}), ...headers },
    ...(body !== undefined ? { body } : {}),
  });
}

const processCount = async () => ((await server.api.store.db.get('SELECT COUNT(*) AS n FROM processes')) as { n: number }).n;

async function expectRefused(res: Response, status: number, type: string) {
  expect(res.status).toBe(status);
  expect(((await res.json()) as any).error.type).toBe(type);
  expect(res.headers.get('set-cookie')).toBeNull();
}

describe('the first calls as simple requests, from an allowed origin', () => {
  it('answers session-config with the project named in the query, readable by the page', async () => {
    const res = await simple('GET', '/v2/session-config?projectID=pro-1', { Origin: DEMO_ORIGIN });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(DEMO_ORIGIN);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(((await res.json()) as any).frontendApiUrl).toBe(server.url);
  });

  it('starts a process from a text/plain JSON body, and gives the browser its cookie', async () => {
    const before = await processCount();
    const res = await simple('POST', '/v2/auth/process/init?projectID=pro-1', { Origin: DEMO_ORIGIN }, INIT_BODY);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(DEMO_ORIGIN);
    expect(res.headers.get('set-cookie')).toMatch(/cbo_browser=/);
    const body = (await res.json()) as any;
    expect(body.token).toEqual(expect.any(String));
    expect(body.processResponse.blockBody.data.conditionalUIChallenge).toEqual(expect.any(String));
    expect(await processCount()).toBe(before + 1);
  });

  it('takes a page of the API\'s own origin, whose GET carries no Origin, by the browser\'s Sec-Fetch-Site', async () => {
    expect((await simple('GET', '/v2/session-config?projectID=pro-1', { 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200);
  });

  it('still takes the header beside the query when both name the project, and JSON as before', async () => {
    const res = await simple('POST', '/v2/auth/process/init?projectID=pro-1', { Origin: DEMO_ORIGIN, 'X-Corbado-ProjectID': 'pro-1', 'Content-Type': 'application/json' }, INIT_BODY);
    expect(res.status).toBe(200);
  });
});

describe('the first calls as simple requests, refused', () => {
  it('refuses a page on another origin: no process, no cookie, no readable answer', async () => {
    const before = await processCount();
    const res = await simple('POST', '/v2/auth/process/init?projectID=pro-1', { Origin: EVIL, Cookie: 'cbo_browser=' + 'a'.repeat(43) }, INIT_BODY);
    await expectRefused(res, 403, 'forbidden_origin');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const config = await simple('GET', '/v2/session-config?projectID=pro-1', { Origin: EVIL });
    await expectRefused(config, 403, 'forbidden_origin');
    expect(config.headers.get('access-control-allow-origin')).toBeNull();
    expect(await processCount()).toBe(before);
  });

  it("refuses an origin that another project allows, and an opaque origin (\"null\": a sandboxed frame, a form from a data: page)", async () => {
    const before = await processCount();
    const created = await fetch(`${server.url}/_dev/projects`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ allowedOrigins: ['https://shop.example'] }),
    });
    const other = ((await created.json()) as { id: string }).id;
    await expectRefused(await simple('POST', '/v2/auth/process/init?projectID=pro-1', { Origin: 'https://shop.example' }, INIT_BODY), 403, 'forbidden_origin');
    expect((await simple('POST', `/v2/auth/process/init?projectID=${other}`, { Origin: 'https://shop.example' }, INIT_BODY)).status).toBe(200);
    await expectRefused(await simple('POST', `/v2/auth/process/init?projectID=${other}`, { Origin: DEMO_ORIGIN }, INIT_BODY), 403, 'forbidden_origin');
    await expectRefused(await simple('POST', '/v2/auth/process/init?projectID=pro-1', { Origin: 'null' }, INIT_BODY), 403, 'forbidden_origin');
    expect(await processCount()).toBe(before + 1);
  });

  it('refuses the query form without an Origin, unless the browser says the page is the API\'s own', async () => {
    const before = await processCount();
    await expectRefused(await simple('POST', '/v2/auth/process/init?projectID=pro-1', {}, INIT_BODY), 403, 'forbidden_origin');
    for (const site of ['cross-site', 'same-site', 'none']) {
      await expectRefused(await simple('GET', '/v2/session-config?projectID=pro-1', { 'Sec-Fetch-Site': site }), 403, 'forbidden_origin');
    }
    expect(await processCount()).toBe(before);
  });

  it('answers 400 when the header and the query name different projects, or the query names two', async () => {
    const before = await processCount();
    await expectRefused(await simple('POST', '/v2/auth/process/init?projectID=pro-2', { Origin: DEMO_ORIGIN, 'X-Corbado-ProjectID': 'pro-1' }, INIT_BODY), 400, 'invalid_request');
    await expectRefused(await simple('GET', '/v2/session-config?projectID=pro-1&projectID=pro-2', { Origin: DEMO_ORIGIN }), 400, 'invalid_request');
    expect(await processCount()).toBe(before);
  });

  it('answers 404 for an unknown project in the query', async () => {
    await expectRefused(await simple('GET', '/v2/session-config?projectID=pro-999999', { Origin: DEMO_ORIGIN }), 404, 'project_not_found');
  });

  it('takes the query and text/plain on those two calls only: the others still need the header and JSON (a preflight)', async () => {
    await expectRefused(await simple('GET', '/v2/process-config?projectID=pro-1', { Origin: DEMO_ORIGIN }), 400, 'project_id_missing');
    await expectRefused(await simple('GET', '/v2/auth/process?projectID=pro-1', { Origin: DEMO_ORIGIN }), 400, 'project_id_missing');
    await expectRefused(await simple('POST', '/v2/me/logout?projectID=pro-1', { Origin: DEMO_ORIGIN }), 400, 'project_id_missing');
    await expectRefused(await simple('POST', '/v2/component-config', { Origin: DEMO_ORIGIN, 'X-Corbado-ProjectID': 'pro-1' }, '{}'), 415, 'unsupported_media_type');
  });
});
