import type { Page } from '@playwright/test';
import { addAuthenticator, expect, latestMessage, test, uniqueEmail, widget } from './fixtures';

// pro-2: a passkey first (the link is the fallback), then the e-mail verified by a link.

async function signUpToLinkSent(page: Page, email: string, withPasskey = true) {
  await page.goto('/?project=pro-2#register');
  const view = widget(page);
  await view.getByRole('textbox', { name: 'Email address' }).fill(email);
  await view.getByRole('button', { name: 'Continue', exact: true }).click();
  if (withPasskey) {
    await expect(view.getByRole('heading', { name: 'Create your account with a passkey' })).toBeVisible();
    await expect(view.getByRole('button', { name: 'Maybe later' })).toHaveCount(0);
    await view.getByRole('button', { name: 'Create passkey' }).click();
  }
  await expect(view.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  await expect(view.getByText(email, { exact: true })).toBeVisible();
  const message = await latestMessage(email);
  expect(message.link).toContain('corbadoEmailLinkID=');
  expect(message.link).toContain('corbadoToken=');
  return message.link!;
}

test.describe('pro-2 sign-up with an e-mail link', () => {
  test('[spec 1.auth-email-link] [spec 4.email-poll-other-device] the link opened in the same browser finishes there; the first tab says so', async ({ page, context }) => {
    await addAuthenticator(page);
    const email = uniqueEmail('link-same');
    const link = await signUpToLinkSent(page, email);
    const second = await context.newPage();
    await second.goto(link);
    await expect(second.locator('#host-auth-state')).toHaveText('logged in');
    await expect(second.locator('#host-user')).toContainText(email);
    // the link's parameters are gone from the address, so a reload does not use it again
    expect(second.url()).not.toContain('corbadoToken');
    await expect(widget(page).getByText('You finished signing up in another tab.', { exact: false })).toBeVisible({ timeout: 10_000 });
  });

  test('[spec 4.email-poll-advance] the link opened in another browser and approved there sends the visitor back; the first tab continues', async ({ page, browser }) => {
    await addAuthenticator(page);
    const email = uniqueEmail('link-other');
    const link = await signUpToLinkSent(page, email);
    const other = await browser.newContext();
    const device = await other.newPage();
    await device.goto(link);
    await widget(device).getByRole('button', { name: "Yes, it's me: continue there" }).click();
    await expect(widget(device).getByRole('heading', { name: 'Email address verified' })).toBeVisible();
    await expect(widget(device).getByText('Return to where you started signing up', { exact: false })).toBeVisible();
    await expect(device.locator('#host-auth-state')).toHaveText('logged out');
    await expect(page.locator('#host-auth-state')).toHaveText('logged in', { timeout: 10_000 });
    await expect(page.locator('#host-user')).toContainText(email);
    await other.close();
  });

  test('a link used once shows the expired-link error', async ({ page, browser }) => {
    await addAuthenticator(page);
    const email = uniqueEmail('link-reused');
    const link = await signUpToLinkSent(page, email);
    // the first tab stops polling: once it had taken the finished sign-up, a later click would read
    // "finished in another tab" (process-already-completed), not the used link
    await page.close();
    const other = await browser.newContext();
    const first = await other.newPage();
    await first.goto(link);
    await widget(first).getByRole('button', { name: "Yes, it's me: continue there" }).click();
    await expect(widget(first).getByRole('heading', { name: 'Email address verified' })).toBeVisible();
    const again = await other.newPage();
    await again.goto(link);
    await expect(widget(again).getByRole('heading', { name: 'This link has expired' })).toBeVisible();
    await other.close();
  });

  test('[spec 4.append-fallback] the fallback sends a link without creating a passkey, and resend waits for its countdown', async ({ page }) => {
    const authenticator = await addAuthenticator(page);
    const email = uniqueEmail('link-fallback');
    await page.goto('/?project=pro-2#register');
    const view = widget(page);
    await view.getByRole('textbox', { name: 'Email address' }).fill(email);
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await view.getByRole('button', { name: 'Send email link instead' }).click();
    await expect(view.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
    await expect(view.getByRole('button', { name: /Resend link in \d+s/ })).toBeDisabled();
    const link = (await latestMessage(email)).link!;
    const second = await page.context().newPage();
    await second.goto(link);
    await expect(second.locator('#host-auth-state')).toHaveText('logged in');
    expect(await authenticator.credentials()).toHaveLength(0);
  });

  test('[spec 5.email-link-token-missing] opening the page with the link parameters but no token shows the missing-token error', async ({ page }) => {
    const payload = encodeURIComponent(
      Buffer.from(JSON.stringify({ process: { id: 'x' }, blockData: { identifier: 'a@b.de', verificationMethod: 'email-link' }, authType: 1 })).toString('base64'),
    );
    await page.goto(`/?project=pro-2&corbadoEmailLinkID=${payload}&corbadoToken=`);
    await expect(widget(page).getByRole('heading', { name: 'This link is incomplete' })).toBeVisible();
  });
});
