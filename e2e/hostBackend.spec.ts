import { expect, signUpByEmailCode, test, uniqueEmail } from './fixtures';

// The host site's own backend (demo/demoServer.ts, GET /host-api/profile) verifies the short session
// with jose against the project's keys, the server's issuer and the project as audience; the account
// page shows what it answers.

test.describe('the host backend', () => {
  test('answers the verified profile of a real sign-up on the account page, and refuses the token for another project', async ({ page }) => {
    const email = uniqueEmail('host-backend');
    await signUpByEmailCode(page, email, { fullName: 'Ada Lovelace' });
    await page.goto('/account.html');
    const said = page.locator('#host-backend');
    await expect(said).toHaveText(/^Ada Lovelace \(usr-\d+\), verified e-mail /);
    await expect(said).toContainText(email);

    const shortSession = await page.evaluate(() => Corbado.shortSession);
    expect(shortSession).toBeTruthy();
    const own = await page.request.get('/host-api/profile?project=pro-1', { headers: { Authorization: `Bearer ${shortSession}` } });
    expect(own.status()).toBe(200);
    expect(await own.json()).toMatchObject({ name: 'Ada Lovelace', email, project: 'pro-1', id: expect.stringMatching(/^usr-/) });

    // a client that writes the short-session cookie (setShortSessionCookie, or web-js 3) needs no header
    const byCookie = await page.request.get('/host-api/profile?project=pro-1', { headers: { Cookie: `cbo_short_session=${shortSession}` } });
    expect(byCookie.status()).toBe(200);

    // the same token at another project's backend (each project signs with keys of its own), with no
    // token, and tampered with
    const elsewhere = await page.request.get('/host-api/profile?project=pro-2', { headers: { Authorization: `Bearer ${shortSession}` } });
    expect(elsewhere.status()).toBe(401);
    expect((await elsewhere.json()).error).toBe('the token is signed by a key the project does not publish');
    const none = await page.request.get('/host-api/profile?project=pro-1');
    expect(none.status()).toBe(401);
    expect((await none.json()).error).toMatch(/^no session token/);
    const tampered = await page.request.get('/host-api/profile?project=pro-1', { headers: { Authorization: `Bearer ${shortSession!.slice(0, -6)}AAAAAA` } });
    expect(tampered.status()).toBe(401);

    // after log-out the page has no session to show its backend, and does not ask
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(said).toHaveText('not asked: nobody is logged in');
  });
});
