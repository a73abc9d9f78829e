// Messages people recognise: HTML e-mails with a plain-text alternative (over real SMTP), per-project
// accent colour and logo, origin-bound SMS codes (WebOTP) and the dev outbox that shows the e-mails.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProjectConfig } from '../config/projectConfig.ts';
import { LANGUAGES } from '../config/projectConfig.ts';
import { escapeHtml } from '../http/html.ts';
import { linkEmail, messageLanguage, otpEmail, otpSms, socialLinkedEmail } from '../senders/messageTexts.ts';
import { mimeParts, startSmtpSink, waitForMessages, type SmtpSink } from './helpers/smtpSink.ts';
import { Client, createProject, DEMO_ORIGIN, outbox, postProject, serverForThisFile, startTestServer, uniqueEmail, uniquePhone, type TestServer } from './helpers/testServer.ts';

const server = serverForThisFile();

async function signUpByEmail(url: string, projectId: string, email: string, client = new Client(url, projectId)): Promise<void> {
  await client.init({}, 'signup-init');
  await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
}

describe('e-mails over SMTP', () => {
  let smtp: SmtpSink;
  let api: TestServer;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    api = await startTestServer({ api: { smtp: { host: '127.0.0.1', port: smtp.port, from: 'Demo <demo@localhost>' } } });
  });
  afterAll(async () => {
    await api.stop();
    smtp.close();
  });

  /** The one e-mail the sink received for `to` (deliveries start after the request's transaction). */
  async function received(to: string) {
    await waitForMessages(smtp, 1);
    let raw: string | undefined;
    await expect.poll(() => (raw = smtp.received.find((m) => m.includes(`To: ${to}`))), { timeout: 4_000 }).toBeDefined();
    const { contentType, parts } = mimeParts(raw!);
    const text = parts.find((p) => p.contentType === 'text/plain')?.body ?? '';
    const html = parts.find((p) => p.contentType === 'text/html')?.body ?? '';
    return { contentType, text, html };
  }

  it('sends a code as multipart/alternative: HTML with the code as large monospace text, and plain text', async () => {
    const id = await createProject(api.url, { appName: 'Plain Shop' });
    const email = uniqueEmail('html');
    await signUpByEmail(api.url, id, email);
    const [stored] = await outbox(api.url, email);
    const code = stored!.code!;
    const mail = await received(email);
    expect(mail.contentType).toMatch(/^multipart\/alternative/);
    expect(mail.text).toContain(`Hello,\n\nYour verification code for Plain Shop is: ${code}`);
    expect(mail.text).toContain('If you did not ask for this, you can ignore this e-mail; nobody gets in without the code.');
    expect(mail.html).toMatch(/^<!doctype html>\n<html lang="en">/);
    // the code is real text in its own block: monospace, large, letter-spaced, selectable as a whole
    const codeBlock = new RegExp(`<div style="[^"]*font-family:[^"]*monospace;font-size:32px;[^"]*letter-spacing:8px;[^"]*user-select:all[^"]*">${code}</div>`);
    expect(mail.html).toMatch(codeBlock);
    expect(mail.html).toContain('If you did not ask for this, you can ignore this e-mail; nobody gets in without the code.');
    expect(mail.html).toContain('>Plain Shop</div>');
    expect(mail.html).not.toContain('<img');
    // the outbox keeps the same HTML part
    expect(stored!.html).toBe(mail.html);
  });

  it('puts the link into the HTML as a button and into the text as is', async () => {
    const id = await createProject(api.url, { appName: 'Linky', identifiers: { email: { verification: 'email-link' } } });
    const email = uniqueEmail('button');
    await signUpByEmail(api.url, id, email);
    const [stored] = await outbox(api.url, email);
    const link = stored!.link!;
    expect(link).toContain('&'); // escaped in the HTML attribute
    const mail = await received(email);
    expect(mail.contentType).toMatch(/^multipart\/alternative/);
    expect(mail.text).toContain(`\n\n${link}\n\n`);
    expect(mail.html).toMatch(
      new RegExp(`<a href="${escapeHtml(link).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" style="display:inline-block;[^"]*">Verify e-mail address</a>`),
    );
    expect(mail.html).toContain('nobody gets in without the link.');
  });

  it('shows the accent colour and the logo when set, and escapes the app name', async () => {
    const id = await createProject(api.url, {
      appName: '<script>alert("x")</script> & Co',
      emailAccentColor: '#FFCC00',
      emailLogoUrl: 'https://cdn.example/logo.png?v=1&size=2',
    });
    const email = uniqueEmail('brand');
    await signUpByEmail(api.url, id, email);
    const mail = await received(email);
    expect(mail.html).toContain('border-top:4px solid #ffcc00');
    expect(mail.html).toContain('color:#ffcc00');
    expect(mail.html).toContain('<img src="https://cdn.example/logo.png?v=1&amp;size=2" alt="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co"');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    expect(mail.html).not.toContain('<script');
    // the plain text is not HTML: the name stays as written
    expect(mail.text).toContain('<script>alert("x")</script> & Co');
  });

  it('picks a readable button text on a light accent', async () => {
    const id = await createProject(api.url, { identifiers: { email: { verification: 'email-link' } }, emailAccentColor: '#ffee88' });
    const email = uniqueEmail('light');
    await signUpByEmail(api.url, id, email);
    const mail = await received(email);
    expect(mail.html).toContain('background:#ffee88;color:#111111');
  });
});

describe('languages', () => {
  it('writes the HTML and the text of a German project in German', async () => {
    const id = await createProject(server.url, { appName: 'Laden', language: 'de' });
    const email = uniqueEmail('de');
    await signUpByEmail(server.url, id, email);
    const [mail] = await outbox(server.url, email);
    expect(mail!.html).toContain('<html lang="de">');
    expect(mail!.html).toContain('Dein Bestätigungscode');
    expect(mail!.html).toContain('Falls du das nicht angefordert hast, kannst du diese E-Mail ignorieren; ohne den Code kommt niemand hinein.');
    expect(mail!.html).not.toContain('If you did not ask');
    expect(mail!.text).toContain(`dein Bestätigungscode für Laden lautet: ${mail!.code}`);
    expect(mail!.text).toContain('ohne den Code kommt niemand hinein.');
  });

  it('writes a German link e-mail with a German button', async () => {
    const id = await createProject(server.url, { language: 'de', identifiers: { email: { verification: 'email-link' } } });
    const email = uniqueEmail('delink');
    await signUpByEmail(server.url, id, email);
    const [mail] = await outbox(server.url, email);
    expect(mail!.html).toContain('>E-Mail-Adresse bestätigen</a>');
    expect(mail!.text).toContain(`öffne diesen Link, um deine E-Mail-Adresse für Demo App zu bestätigen:\n\n${mail!.link}\n`);
  });

  it('takes the visitor\'s language from Accept-Language, by weight, where it has texts; else the project\'s', () => {
    expect(messageLanguage('fr', 'en')).toBe('fr');
    expect(messageLanguage('pl-PL,pl;q=0.9,en;q=0.8', 'de')).toBe('pl');
    expect(messageLanguage('ja, nl;q=0.5, es;q=0.7', 'en')).toBe('es');
    expect(messageLanguage('ja, zh-CN;q=0.9', 'de')).toBe('de');
    expect(messageLanguage('*', 'de')).toBe('de');
    expect(messageLanguage('fr;q=0, it', 'en')).toBe('it');
    expect(messageLanguage(undefined, 'pt')).toBe('pt');
    expect(messageLanguage('x'.repeat(10_000), 'en')).toBe('en');
  });

  it('writes to the visitor in the language the widget names: French code, Polish link, Italian SMS', async () => {
    const signUpIn = async (language: string, projectId: string, type: 'email' | 'phone') => {
      const client = new Client(server.url, projectId);
      await client.init({}, 'signup-init');
      const to = type === 'email' ? uniqueEmail('lang') : uniquePhone();
      const res = await client.request('POST', '/v2/auth/signup/init', { identifiers: [{ type, identifier: to }] }, { 'Accept-Language': language });
      expect(res.status).toBe(200);
      const [message] = await outbox(server.url, to);
      return message!;
    };
    const german = await createProject(server.url, { appName: 'Laden', language: 'de' });
    const fr = await signUpIn('fr', german, 'email');
    expect(fr.subject).toBe(`Votre code Laden\u00a0: ${fr.code}`);
    expect(fr.html).toContain('<html lang="fr">');
    expect(fr.html).toContain('Votre code de vérification');
    expect(fr.text).toContain(`Bonjour,\n\nVotre code de vérification pour Laden est\u00a0: ${fr.code}`);
    // a language without texts here: the project's
    expect((await signUpIn('ja-JP', german, 'email')).html).toContain('<html lang="de">');
    const linkProject = await createProject(server.url, { identifiers: { email: { verification: 'email-link' } } });
    const pl = await signUpIn('pl-PL,pl;q=0.9', linkProject, 'email');
    expect(pl.subject).toBe('Potwierdź swój adres e-mail w aplikacji Demo App');
    expect(pl.html).toContain('>Potwierdź adres e-mail</a>');
    const it_ = await signUpIn('it', 'pro-3', 'phone');
    expect(it_.text).toMatch(new RegExp(`^${it_.code} è il tuo codice .+\\. Scade tra 10 minuti\\.\\n\\n@localhost #${it_.code}$`));
  });

  it('goes on after the greeting as each language writes a letter: German and Italian in lower case, the others with a capital', () => {
    const brand = { appName: 'Shop', emailAccentColor: '#123456' };
    const lowerAfterComma = ['de', 'it'];
    for (const language of LANGUAGES) {
      const mails = [
        otpEmail({ ...brand, language }, '123456'),
        linkEmail({ ...brand, language }, 'https://shop.example/?t=1', 'signup'),
        socialLinkedEmail({ ...brand, language }, 'github', 'octo@example.com'),
      ];
      for (const mail of mails) {
        const opening = mail.text.split('\n\n')[1]!;
        const first = opening.charAt(0);
        const capital = first.toLocaleUpperCase(language) === first;
        expect(capital, `${language}: ${opening}`).toBe(!lowerAfterComma.includes(language));
        // the HTML has no greeting: there every sentence starts with a capital
        for (const [, paragraph] of mail.html!.matchAll(/<p style="margin:0 0 12px">([^<]*)</g)) {
          expect(paragraph!.charAt(0), `${language}: ${paragraph}`).toBe(paragraph!.charAt(0).toLocaleUpperCase(language));
        }
      }
    }
    // German: the opening is what German writes after "Hallo," (a verb, "dein", "ab" go on in lower
    // case; a noun or Sie would keep its capital, as nothing lowers a text), the HTML keeps its capital
    const german = linkEmail({ ...brand, language: 'de' }, 'https://shop.example/?t=1', 'login');
    expect(german.text).toContain('Hallo,\n\nöffne diesen Link, um deine E-Mail-Adresse für Shop zu bestätigen:');
    expect(german.html).toContain('>Öffne diesen Link, um deine E-Mail-Adresse für Shop zu bestätigen:</p>');
    expect(socialLinkedEmail({ ...brand, language: 'de' }, 'google', 'a@example.com').text).toContain('Hallo,\n\nab jetzt kannst du dich bei Shop mit deinem Google-Konto');
    expect(linkEmail({ ...brand, language: 'pl' }, 'https://shop.example/?t=1', 'login').text).toContain('Dzień dobry,\n\nOtwórz ten link');
    expect(otpEmail({ ...brand, language: 'nl' }, '123456').text).toContain('Hallo,\n\nJe verificatiecode voor Shop is: 123456');
  });

  it('has every message in all eight languages (the linked-provider notice too), none left in English but the English ones', () => {
    const brand = { appName: 'Shop', emailAccentColor: '#123456' };
    const english = otpEmail({ ...brand, language: 'en' }, '123456');
    for (const language of LANGUAGES) {
      const code = otpEmail({ ...brand, language }, '123456');
      const link = linkEmail({ ...brand, language }, 'https://shop.example/?t=1', 'login');
      const sms = otpSms(language, 'Shop', '123456', 'shop.example');
      for (const text of [code.subject, code.text, link.subject, link.text, sms.text]) expect(text, language).toMatch(/Shop|123456/);
      expect(code.html, language).toContain(`<html lang="${language}">`);
      // the notice of a linked provider account names the account page's section as the widget does
      const linked = socialLinkedEmail({ ...brand, language }, 'github', 'octo@example.com');
      for (const text of [linked.subject, linked.text, linked.html!]) expect(text, language).toMatch(/Shop[\s\S]*GitHub|GitHub[\s\S]*Shop/);
      expect(linked.text, language).toContain('octo@example.com');
      const widget = JSON.parse(readFileSync(new URL(`../../src/core/i18n/${language}.json`, import.meta.url), 'utf8')) as { user: { social: string } };
      expect(linked.text, language).toContain(widget.user.social);
      expect(linked.html, language).toContain(escapeHtml(widget.user.social));
      if (language !== 'en') {
        expect(code.text, language).not.toBe(english.text);
        expect(code.html, language).not.toContain('If you did not ask');
        expect(link.html, language).not.toContain('If the button does not work');
        expect(linked.html, language).not.toContain('Was this not you');
      }
    }
  });
});

describe('SMS codes bound to the site (WebOTP)', () => {
  /** `origin` '': no Origin header (the client's default is the demo origin) */
  async function smsFor(projectId: string, origin: string) {
    const client = new Client(server.url, projectId, origin);
    await client.init({}, 'signup-init');
    const phone = uniquePhone();
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'phone', identifier: phone }] });
    const [sms] = await outbox(server.url, phone);
    return sms!;
  }

  it('ends the text with "@host #code" for the demo origin (localhost, no port)', async () => {
    const sms = await smsFor('pro-3', DEMO_ORIGIN);
    expect(sms.text.split('\n').at(-1)).toBe(`@localhost #${sms.code}`);
    expect(sms.text).toMatch(new RegExp(`^${sms.code} is your .+ code\\. It expires in 10 minutes\\.\\n\\n@localhost #${sms.code}$`));
  });

  it('binds the code to the allowed origin the request came from, else to the first allowed origin', async () => {
    const id = await createProject(server.url, {
      allowedOrigins: ['https://shop.example', 'https://www.shop.example:8443'],
      identifiers: { phone: {} },
      language: 'de',
    });
    const fromWww = await smsFor(id, 'https://www.shop.example:8443');
    expect(fromWww.text.split('\n').at(-1)).toBe(`@www.shop.example #${fromWww.code}`);
    expect(fromWww.text.startsWith(`${fromWww.code} ist dein Code für Demo App.`)).toBe(true);
    const noOrigin = await smsFor(id, '');
    expect(noOrigin.text.split('\n').at(-1)).toBe(`@shop.example #${noOrigin.code}`);
  });

  it('binds the account\'s codes (a phone number added, a recent log-in) to the page that asked for them', async () => {
    const id = await createProject(server.url, {
      allowedOrigins: ['https://shop.example', 'https://account.shop.example'],
      identifiers: { email: {}, phone: { required: false } },
    });
    const client = new Client(server.url, id, 'https://account.shop.example');
    const email = uniqueEmail('acct-sms');
    await signUpByEmail(server.url, id, email, client);
    const [mail] = await outbox(server.url, email);
    const done = await client.step('/v2/auth/identifier/verify/finish', { code: mail!.code, identifierType: 'email', verificationType: 'email-otp' });
    expect(done.block).toBe('completed');
    const phone = uniquePhone();
    expect((await client.request('POST', '/v2/me/identifier', { identifierType: 'phone', value: phone })).status).toBe(200);
    const me = await client.request('GET', '/v2/me');
    const identifierID = (me.body as { identifiers: { id: string; value: string }[] }).identifiers.find((i) => i.value === phone)!.id;
    expect((await client.request('POST', '/v2/me/identifier/verify/start', { identifierID, clientInformation: {} })).status).toBe(200);
    const [sms] = await outbox(server.url, phone);
    expect(sms!.text.split('\n').at(-1)).toBe(`@account.shop.example #${sms!.code}`);
    // and so is a code that confirms it's you (recent log-in), sent to that number once verified
    expect((await client.request('POST', '/v2/me/identifier/verify/finish', { identifierID, code: sms!.code })).status).toBe(200);
    expect((await client.request('POST', '/v2/me/reauth/code/start', { identifierID })).status).toBe(200);
    const [reauth, ...earlier] = await outbox(server.url, phone);
    expect(earlier).toHaveLength(1);
    expect(reauth!.text.split('\n').at(-1)).toBe(`@account.shop.example #${reauth!.code}`);
  });
});

describe('dev outbox page', () => {
  it('shows an e-mail as its recipient sees it, in a sandboxed iframe without scripts, and refreshes itself', async () => {
    const id = await createProject(server.url, { appName: 'Outbox "Shop"' });
    const email = uniqueEmail('outbox');
    await signUpByEmail(server.url, id, email);
    const [mail] = await outbox(server.url, email);
    const page = await (await fetch(`${server.url}/_dev/`)).text();
    const iframe = page.match(/<iframe [^>]*>/g)?.find((tag) => tag.includes(escapeHtml(`>${mail!.code!}</div>`)));
    expect(iframe).toBeDefined();
    expect(iframe).toMatch(/ sandbox="[^"]*"/);
    expect(iframe).not.toContain('allow-scripts');
    expect(iframe).not.toContain('allow-same-origin');
    // the whole document, escaped for the attribute (no raw quote or tag ends it early)
    expect(iframe).toContain(` srcdoc="${escapeHtml(mail!.html!.replace('<head>', '<head><base target="_blank">'))}"`);
    expect(page).toContain('<meta http-equiv="refresh" content="3">');
    expect(page).toContain('location.reload()');
  });

  it('shows one project with ?project=, and only its messages', async () => {
    const mine = await createProject(server.url, { appName: 'Mine' });
    const other = await createProject(server.url, { appName: 'Other' });
    const email = uniqueEmail('outbox-mine');
    await signUpByEmail(server.url, mine, email);
    await signUpByEmail(server.url, other, uniqueEmail('outbox-other'));
    const [mail] = await outbox(server.url, email);
    const page = await (await fetch(`${server.url}/_dev/?project=${mine}`)).text();
    expect(page).toContain(`<h1>Dev outbox of ${mine}</h1>`);
    expect(page.match(/<tr><td>/g)).toHaveLength(1);
    expect(page).toContain(`<code>${mail!.code}</code>`);
  });
});

describe('e-mail branding settings', () => {
  it('rejects an accent that is not #rrggbb and a logo that is not an https URL (dev creation and the admin path)', async () => {
    for (const bad of [{ emailAccentColor: 'red' }, { emailAccentColor: '#fff' }, { emailLogoUrl: 'http://cdn.example/l.png' }, { emailLogoUrl: 'javascript:alert(1)' }]) {
      const res = await postProject(server.url, bad);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { validation?: { field: string }[] } };
      expect(body.error.validation?.map((v) => v.field)).toEqual([Object.keys(bad)[0]]);
      expect(() => resolveProjectConfig('pro-1', { allowedOrigins: ['https://shop.example'], ...bad }, undefined)).toThrow(
        expect.objectContaining({ status: 400, validation: [expect.objectContaining({ field: Object.keys(bad)[0] })] }),
      );
    }
    const ok = resolveProjectConfig('pro-1', { allowedOrigins: ['https://shop.example'], emailAccentColor: '#AABBCC', emailLogoUrl: 'https://shop.example/logo.svg' }, undefined);
    expect(ok).toMatchObject({ emailAccentColor: '#aabbcc', emailLogoUrl: 'https://shop.example/logo.svg' });
  });
});
