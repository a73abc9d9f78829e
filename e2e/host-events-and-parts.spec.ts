import type { Page } from '@playwright/test';
import { expect, latestMessage, signUpByEmailCode, test, uniqueEmail, widget } from './fixtures';
import { logOut } from './kit/corbadoKit';

// What a host page without a framework gets (issue 27; README "Events" and "Styling with ::part"):
// the widget's DOM events on the element it is mounted into, heard on the document once per occurrence
// (issue 30), and its `part` names reached from the page's own stylesheet.

interface Heard {
  type: string;
  detail: { user?: { email?: string; sub?: string }; method?: string; code?: string; message?: string };
  /** the element's id, or "document" */
  target: string;
  bubbles: boolean;
  composed: boolean;
}

/** Records every corbado: event that reaches the document, from the first script of the page on. */
async function listen(page: Page): Promise<() => Promise<Heard[]>> {
  await page.addInitScript(() => {
    const heard: unknown[] = ((window as unknown as { heard: unknown[] }).heard = []);
    for (const type of ['signup', 'login', 'logout', 'error']) {
      document.addEventListener(`corbado:${type}`, (event) => {
        const { detail, bubbles, composed, target } = event as CustomEvent;
        heard.push({ type: event.type, detail: JSON.parse(JSON.stringify(detail)), target: target === document ? 'document' : (target as Element).id, bubbles, composed });
      });
    }
  });
  return () => page.evaluate(() => (window as unknown as { heard: Heard[] }).heard);
}

test('the four DOM events arrive with their details: a sign-up says signup (not login), a log-in login, the log-out and an error', async ({ page }) => {
  const heard = await listen(page);
  const email = uniqueEmail('events');
  await signUpByEmailCode(page, email);
  await expect.poll(heard).toHaveLength(1);
  const [signup] = await heard();
  expect(signup).toEqual({
    type: 'corbado:signup',
    detail: { user: expect.objectContaining({ email, sub: expect.stringMatching(/^usr-/) }), method: 'email-otp' },
    target: 'widget',
    bubbles: true,
    composed: true,
  });

  await logOut(page);
  await expect.poll(heard).toHaveLength(2);
  expect((await heard())[1]).toMatchObject({ type: 'corbado:logout', detail: { user: { email } }, target: 'widget' });

  // log in again (welcome back: the code to that address), with a wrong code first
  const view = widget(page);
  const sent = (await latestMessage(email)).id;
  await view.getByRole('button', { name: 'Email me a code' }).click();
  const firstCell = view.getByRole('textbox', { name: 'Digit 1 of 6' });
  const code = (await latestMessage(email, sent)).code!;
  await firstCell.fill(code === '000000' ? '111111' : '000000');
  await expect(view.getByRole('alert').first()).toBeVisible();
  await firstCell.fill(code);
  await expect(page.locator('#host-auth-state')).toHaveText('logged in');
  await expect.poll(heard).toHaveLength(4);
  const [, , error, login] = await heard();
  expect(error).toEqual({ type: 'corbado:error', detail: { code: 'invalid_challenge_solution_email-otp', message: expect.any(String) }, target: 'widget', bubbles: true, composed: true });
  expect(login).toMatchObject({ type: 'corbado:login', detail: { user: { email }, method: 'email-otp' }, target: 'widget' });
  expect((await heard()).map((event) => event.type)).toEqual(['corbado:signup', 'corbado:logout', 'corbado:error', 'corbado:login']);
});

/** Signs a new account up and opens the account page, which mounts the user details first, then the passkey list. */
async function onAccountPage(page: Page): Promise<{ heard: () => Promise<Heard[]>; email: string }> {
  const heard = await listen(page);
  const email = uniqueEmail('events-account');
  await signUpByEmailCode(page, email);
  await page.goto('/account.html');
  await expect(page.locator('#user-details .cb-root')).toBeAttached();
  await expect(page.locator('#widget .cb-root')).toBeAttached();
  return { heard, email };
}

test('two mounted views: each element hears the log-out, the document once (from the view mounted first)', async ({ page }) => {
  const { heard, email } = await onAccountPage(page);
  await page.evaluate(() => {
    const onElements: string[] = ((window as unknown as { onElements: string[] }).onElements = []);
    for (const id of ['user-details', 'widget']) document.getElementById(id)!.addEventListener('corbado:logout', () => onElements.push(id));
  });
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.locator('#host-auth-state')).toHaveText('logged out');
  expect(await heard()).toEqual([{ type: 'corbado:logout', detail: { user: expect.objectContaining({ email }) }, target: 'user-details', bubbles: true, composed: true }]);
  expect(await page.evaluate(() => (window as unknown as { onElements: string[] }).onElements)).toEqual(['user-details', 'widget']);
  await expect(page.locator('#host-events li').filter({ hasText: 'corbado:logout' })).toHaveCount(1);
});

test('no view mounted: Corbado.logout() raises one corbado:logout on the document', async ({ page }) => {
  const { heard, email } = await onAccountPage(page);
  await page.evaluate(() => {
    Corbado.unmountUserUI(document.getElementById('user-details')!);
    Corbado.unmountPasskeyListUI(document.getElementById('widget')!);
  });
  await expect(page.locator('#widget .cb-root')).not.toBeAttached();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.locator('#host-auth-state')).toHaveText('logged out');
  expect(await heard()).toEqual([{ type: 'corbado:logout', detail: { user: expect.objectContaining({ email }) }, target: 'document', bubbles: true, composed: true }]);
});

test('a host stylesheet restyles the primary button through ::part, and nothing else', async ({ page }) => {
  await page.goto('/login.html');
  const view = widget(page);
  const primary = view.getByRole('button', { name: 'Continue', exact: true });
  const link = view.getByRole('button', { name: 'Sign up' });
  await expect(primary).toBeVisible();
  const style = (element: typeof primary) => element.evaluate((node) => ({ background: getComputedStyle(node).backgroundColor, radius: getComputedStyle(node).borderRadius }));
  const before = { primary: await style(primary), link: await style(link) };
  expect(before.primary.background).not.toBe('rgb(10, 125, 85)');

  await page.addStyleTag({ content: '#widget::part(button-primary) { background: rgb(10, 125, 85); border-radius: 999px; }' });
  await expect.poll(() => style(primary)).toEqual({ background: 'rgb(10, 125, 85)', radius: '999px' });
  expect(await style(link)).toEqual(before.link);
  // the same rule by a class name of the widget's does not reach in
  await page.addStyleTag({ content: '.cb-primary { background: rgb(200, 0, 0) !important; }' });
  expect((await style(primary)).background).toBe('rgb(10, 125, 85)');
});
