import { API_URL, createProject, expect, latestMessage, startSignUpByEmail, test, uniqueEmail } from './fixtures';

// The dev outbox page shows each e-mail as its recipient would see it: the HTML part in a sandboxed
// iframe (no scripts), and it picks up new messages by itself (it reloads every 3 s: the assertions
// here retry, so a reload in between does not matter).

test('the dev outbox renders the HTML e-mail in a sandboxed frame and shows new messages by itself', async ({ page, context, browser, baseURL }) => {
  test.setTimeout(90_000); // two sign-ups and a page that reloads every 3 s, on a shared machine
  const project = await createProject({ appName: 'Outbox <b>Shop</b>', emailAccentColor: '#0a7d33' });
  const first = uniqueEmail('outbox-page');
  await startSignUpByEmail(page, first, { url: `/?project=${project}#register` });
  const mail = await latestMessage(first);

  const outbox = await context.newPage();
  await outbox.goto(`${API_URL}/_dev/?project=${project}`);
  const frame = outbox.locator(`iframe[title="${mail.subject}"]`);
  await expect(frame).toHaveAttribute('sandbox', 'allow-popups allow-popups-to-escape-sandbox');
  const inside = frame.contentFrame();
  await expect(inside.getByRole('heading', { name: 'Your verification code' })).toBeVisible();
  // the code is text (selectable, in a monospace face), the app name shows as written, not as markup
  const code = inside.getByText(mail.code!, { exact: true });
  await expect(code).toBeVisible();
  await expect(code).toHaveCSS('font-family', /monospace/);
  await expect(inside.getByText('Outbox <b>Shop</b>', { exact: true })).toHaveCSS('color', 'rgb(10, 125, 51)');
  await expect(inside.locator('b')).toHaveCount(0);
  await expect(inside.getByText('If you did not ask for this, you can ignore this e-mail; nobody gets in without the code.')).toBeVisible();

  await expect(inside.locator('base')).toHaveAttribute('target', '_blank'); // links open a tab, as from a mail client

  // a message sent while the page is open appears without anyone reloading it
  const second = uniqueEmail('outbox-page-later');
  // (another browser context: this one resumes the first sign-up's process)
  const elsewhere = await browser.newContext({ baseURL });
  await startSignUpByEmail(await elsewhere.newPage(), second, { url: `/?project=${project}#register` });
  const later = await latestMessage(second);
  await expect(outbox.locator(`iframe[title="${later.subject}"]`)).toHaveCount(1, { timeout: 15_000 });
  await elsewhere.close();
});

test('the button of a link e-mail in the dev outbox opens the link in a new tab, as from a mail client', async ({ page, context }) => {
  test.setTimeout(90_000);
  const project = await createProject({ appName: 'Linky', identifiers: { email: { verification: 'email-link' } } });
  const email = uniqueEmail('outbox-link');
  await startSignUpByEmail(page, email, { url: `/?project=${project}#register` });
  const mail = await latestMessage(email);
  const outbox = await context.newPage();
  await outbox.goto(`${API_URL}/_dev/?project=${project}`);
  const button = outbox.locator(`iframe[title="${mail.subject}"]`).contentFrame().getByRole('link', { name: 'Verify e-mail address' });
  await expect(button).toHaveAttribute('href', mail.link!);
  // the tab's own navigation, not its address bar: the widget there takes the link's parameters out of
  // the address as soon as it has read them, which on a loaded machine is before a poll would look
  const navigation = context.waitForEvent('request', (request) => request.isNavigationRequest() && request.url() === mail.link);
  const [opened] = await Promise.all([context.waitForEvent('page'), button.click()]);
  expect((await navigation).frame().page()).toBe(opened);
  await opened.close();
});
