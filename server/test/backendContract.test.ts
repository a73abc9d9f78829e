/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Every answer of the Backend API against the schema Corbado's contract names for it (the
// backend_api_public_v2.yml that @corbado/node-sdk ships): each operation's 200 answer, and its error
// answer (errorRsp) for a refused call.
import { describe, expect, it } from 'vitest';
import { backendCall, newSecret } from './helpers/backendApiClient.ts';
import { namedSchema, responseSchema, violations } from './helpers/backendContract.ts';
import { signUpByEmailCode } from './helpers/passkeyUser.ts';
import { SoftAuthenticator } from './helpers/softAuthenticator.ts';
import { serverForThisFile, uniqueEmail } from './helpers/testServer.ts';

const server = serverForThisFile({ api: { backendApiPort: 0 } });

describe('Backend API answers conform to the contract', () => {
  it('for every operation, its answer and its refusal', async () => {
    const creds = { projectId: 'pro-1', secret: await newSecret(server, 'pro-1') };
    const { client } = await signUpByEmailCode(server.url, 'pro-1', { passkey: new SoftAuthenticator() });
    const userId = (await client.request('GET', '/v2/me')).body.id as string;
    const checked: string[] = [];
    /** Calls, checks the answer against the operation's schema, answers the body. */
    const call = async (method: string, template: string, path: string, body?: unknown, status = 200): Promise<any> => {
      const res = await backendCall(server, creds, method, path, body);
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
      expect(violations(res.body, responseSchema(method, template, res.status)), `${method} ${path}`).toEqual([]);
      checked.push(`${method} ${template} ${status}`);
      return res.body;
    };

    const created = await call('POST', '/users', '/v2/users', { fullName: 'Cora Contract', status: 'active' });
    await call('POST', '/users', '/v2/users', { status: 'sometimes' }, 400);
    const id = created.userID as string;
    await call('GET', '/users/{userID}', `/v2/users/${id}`);
    await call('GET', '/users/{userID}', '/v2/users/usr-404', undefined, 400);
    await call('PATCH', '/users/{userID}', `/v2/users/${id}`, { fullName: 'Cora C.' });
    await call('PATCH', '/users/{userID}', `/v2/users/${id}`, { fullName: 7 }, 400);

    const identifier = await call('POST', '/users/{userID}/identifiers', `/v2/users/${id}/identifiers`, {
      identifierType: 'email',
      identifierValue: uniqueEmail('cora'),
      status: 'pending',
    });
    await call('POST', '/users/{userID}/identifiers', `/v2/users/${id}/identifiers`, { identifierType: 'email', identifierValue: '@', status: 'pending' }, 400);
    const path = `/v2/users/${id}/identifiers/${identifier.identifierID}`;
    await call('PATCH', '/users/{userID}/identifiers/{identifierID}', path, { status: 'verified' });
    await call('PATCH', '/users/{userID}/identifiers/{identifierID}', `${path}x`, { status: 'verified' }, 400);
    await call('GET', '/identifiers', `/v2/identifiers?filter[]=userID:eq:${id}&sort=created:desc&page=1&pageSize=5`);
    await call('GET', '/identifiers', '/v2/identifiers?filter[]=nothing', undefined, 400);
    await call('DELETE', '/users/{userID}/identifiers/{identifierID}', path);
    await call('DELETE', '/users/{userID}/identifiers/{identifierID}', path, undefined, 400);

    const passkeys = await call('GET', '/users/{userID}/credentials', `/v2/users/${userId}/credentials?sort=lastUsed:desc`);
    expect(passkeys.credentials).toHaveLength(1);
    await call('GET', '/users/{userID}/credentials', `/v2/users/${userId}/credentials?filter[]=status:eq:active&pageSize=0`, undefined, 400);

    // the list of long sessions is beyond the contract (which has none): its items are the contract's longSession
    const sessions = (await backendCall(server, creds, 'GET', `/v2/users/${userId}/longSessions`)).body;
    expect(violations(sessions.longSessions[0], namedSchema('longSession'))).toEqual([]);
    expect(violations(sessions.paging, { $ref: 'common.yml#/components/schemas/paging' })).toEqual([]);
    const sessionId = sessions.longSessions[0].longSessionID as string;
    await call('GET', '/users/{userID}/longSessions/{longSessionID}', `/v2/users/${userId}/longSessions/${sessionId}`);
    await call('GET', '/users/{userID}/longSessions/{longSessionID}', `/v2/users/${id}/longSessions/${sessionId}`, undefined, 400);
    await call('GET', '/longSessions/{longSessionID}', `/v2/longSessions/${sessionId}`);
    await call('GET', '/longSessions/{longSessionID}', '/v2/longSessions/ses-1', undefined, 400);
    await call('PATCH', '/users/{userID}/longSessions/{longSessionID}', `/v2/users/${userId}/longSessions/${sessionId}`, { status: 'revoked' });
    await call('PATCH', '/users/{userID}/longSessions/{longSessionID}', `/v2/users/${userId}/longSessions/${sessionId}`, {}, 400);

    await call('DELETE', '/users/{userID}/credentials/{credentialID}', `/v2/users/${userId}/credentials/${passkeys.credentials[0].id}`);
    await call('DELETE', '/users/{userID}/credentials/{credentialID}', `/v2/users/${userId}/credentials/${passkeys.credentials[0].id}`, undefined, 400);
    await call('DELETE', '/users/{userID}', `/v2/users/${id}`);
    await call('DELETE', '/users/{userID}', `/v2/users/${id}`, undefined, 400);
    // each of the contract's operations the server serves, answered and refused
    const operations = new Set(checked.map((c) => c.split(' ').slice(0, 2).join(' ')));
    expect(operations.size).toBe(13);
    for (const operation of operations) expect(checked.filter((c) => c.startsWith(`${operation} `)).length, operation).toBe(2);
  });

  it('the checker finds what breaks a schema (so that a pass means something)', () => {
    expect(violations({ userID: 'usr-1', status: 'active' }, namedSchema('user'))).toEqual([]);
    expect(violations({ userID: 1, status: 'gone' }, namedSchema('user'))).toEqual(['$.userID: not a string', '$.status: "gone" is not one of pending, active, disabled']);
    expect(violations({ identifiers: [{}], paging: { page: 1 } }, namedSchema('identifierList'))).toEqual(
      expect.arrayContaining(['$.identifiers[0].identifierID: missing', '$.paging.totalPages: missing']),
    );
    expect(violations({ httpStatusCode: 400, message: 'x', requestData: { requestID: 'r', link: '' }, runtime: 0 }, responseSchema('GET', '/identifiers', 400))).toEqual([
      '$.error: missing',
    ]);
  });
});
