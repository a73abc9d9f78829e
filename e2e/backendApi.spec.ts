// The host's backend, as a site runs it: Corbado's own Node SDK (@corbado/node-sdk 3.0.2, unmodified)
// against the server `npm start` runs, its Backend API on a listener of its own. The API secrets and the
// import come from the admin command on the server's database, while the server runs.
import { Config, SDK } from '@corbado/node-sdk';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { admin, API_URL, expect, signUpByEmailCode, test, uniqueEmail, widget } from './fixtures';
import { logInByEmailCode } from './kit/corbadoKit';

const BACKEND_API_URL = process.env.E2E_BACKEND_API_URL!;

/** The SDK as a host configures it: both URLs with an empty path. */
function sdkFor(projectId: string, secret: string): SDK {
  return new SDK(new Config(projectId, secret, API_URL, BACKEND_API_URL));
}

test.describe('the host backend with @corbado/node-sdk', () => {
  test('validates the widget session, reads the user, finds users by address, imports one who logs in by code, deletes one who then cannot', async ({ page }) => {
    test.setTimeout(90_000);
    const { secret } = admin('api-secret', 'create', 'pro-1') as { secret: string };
    const sdk = sdkFor('pro-1', secret);

    // a real sign-up in Chromium; the host's backend validates the session the widget holds
    const email = uniqueEmail('sdk');
    await signUpByEmailCode(page, email, { fullName: 'Sid Sdk' });
    const shortSession = (await page.evaluate(() => Corbado.shortSession))!;
    const { userId, fullName } = await sdk.sessions().validateToken(shortSession);
    expect(fullName).toBe('Sid Sdk');
    // another project's backend refuses it (the keys it fetches are pro-2's)
    const elsewhere = await sdkFor('pro-2', secret).sessions().validateToken(shortSession).then(() => 'accepted', () => 'refused');
    expect(elsewhere).toBe('refused');
    expect(await sdk.users().get(userId)).toMatchObject({ userID: userId, fullName: 'Sid Sdk', status: 'active' });

    // find the user of an address
    const found = await sdk.identifiers().listByValueAndType(email, 'email');
    // the user's only address, verified: the primary one (Corbado's status `primary`)
    expect(found.identifiers).toEqual([{ identifierID: expect.any(String), type: 'email', value: email, status: 'primary', userID: userId }]);

    // an existing customer of the site, imported, logs in by code (and is offered a passkey: "Maybe later")
    const imported = uniqueEmail('imported');
    const file = join(tmpdir(), `e2e-import-${Date.now()}.jsonl`);
    writeFileSync(file, `${JSON.stringify({ externalID: `shop-${imported}`, fullName: 'Ivo Imported', identifiers: [{ type: 'email', value: imported, status: 'verified' }] })}\n`);
    expect(admin('users', 'import', 'pro-1', file)).toMatchObject({ created: 1, refused: 0 });
    const importedUser = (await sdk.identifiers().listByValueAndType(imported, 'email')).identifiers[0]!.userID;
    expect(await sdk.users().get(importedUser)).toMatchObject({ fullName: 'Ivo Imported', externalID: `shop-${imported}` });

    await page.goto('/account.html');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.goto('/?project=pro-1#login');
    await logInByEmailCode(widget(page), imported, { apiUrl: API_URL });
    const importedSession = (await page.evaluate(() => Corbado.shortSession))!;
    expect((await sdk.sessions().validateToken(importedSession)).userId).toBe(importedUser);
    const longSession = (await page.evaluate(() => localStorage.getItem('cbo_long_session')))!;
    const refresh = () =>
      page.request.post(`${API_URL}/v2/me/refresh`, { headers: { 'X-Corbado-ProjectID': 'pro-1', Authorization: `Bearer ${longSession}` } });
    expect((await refresh()).status()).toBe(200);

    // deleted by the host: the session ends at once and the address finds nobody
    await sdk.users().delete(importedUser);
    expect((await refresh()).status()).toBe(401);
    await page.goto('/?project=pro-1#login');
    const view = widget(page);
    // this browser logged the user in, so the log-in offers that account again ("Welcome back"); its one
    // action finds nobody now, and the plain log-in shows with the address kept and the server's message
    await expect(view.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    await view.getByRole('button', { name: 'Email me a code' }).click();
    await expect(view.getByRole('alert')).toContainText("Couldn't find your account");
    await expect(view.getByRole('textbox', { name: 'Email address' })).toHaveValue(imported);
    // and the offer is gone: the next visit starts from the plain log-in
    await page.reload();
    await expect(view.getByRole('textbox', { name: 'Email address' })).toBeVisible();
    await expect(view.getByRole('heading', { name: 'Welcome back' })).toHaveCount(0);
  });

  test('refuses a wrong secret and another project, and a secret revoked while the server runs', async () => {
    // three runs of the admin command, each a process of its own that loads the server's code: on a
    // fresh clone's busy CI machine that alone has taken more than the 30 s every test gets
    test.setTimeout(90_000);
    const created = admin('api-secret', 'create', 'pro-1') as { id: string; secret: string };
    const refusal = (promise: Promise<unknown>) => promise.then(() => 'answered', (error: { httpStatusCode?: number }) => error.httpStatusCode);

    const user = await sdkFor('pro-1', created.secret).users().create({ fullName: 'Priv Ate', status: 'active' });
    expect(await refusal(sdkFor('pro-1', `${created.secret}x`).users().get(user.userID))).toBe(401);
    // pro-1's secret for pro-2, and pro-2's own secret for pro-1's user
    expect(await refusal(sdkFor('pro-2', created.secret).users().get(user.userID))).toBe(401);
    const other = admin('api-secret', 'create', 'pro-2') as { secret: string };
    // another project's user is unknown here: 400 `userID: does not exist`, as Corbado answers
    expect(await refusal(sdkFor('pro-2', other.secret).users().get(user.userID))).toBe(400);
    expect(await refusal(sdkFor('pro-2', other.secret).users().delete(user.userID))).toBe(400);
    expect((await sdkFor('pro-2', other.secret).identifiers().listByUserId(user.userID)).identifiers).toEqual([]);

    expect(admin('api-secret', 'revoke', created.id)).toEqual({ id: created.id, revoked: true });
    expect(await refusal(sdkFor('pro-1', created.secret).users().get(user.userID))).toBe(401);
  });
});
